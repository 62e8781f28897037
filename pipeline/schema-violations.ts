/**
 * JSON-Schema violations (ajv errors) in a reader's words, one per path, each with the JSON path at fault and the kind
 * of rule it falls under (`missing`, `type`, `schema`), whatever the schema describes.
 */
import type {ErrorObject, ValidateFunction} from 'ajv'
import {pointerToPath, type JsonPath} from './json-path.js'

/** A schema violation, ready to report. */
export interface SchemaViolation {
  kind: 'missing' | 'type' | 'schema'
  path: JsonPath
  reason: string
}

/** Validate `document` and describe its errors, one per path (the first ajv gives), in a reader's words. */
export function schemaViolations(validator: ValidateFunction, document: unknown): SchemaViolation[] {
  if (validator(document)) return []
  const problems: SchemaViolation[] = []
  const seen = new Set<string>()
  for (const error of validator.errors ?? []) {
    const problem = describeSchemaError(error, document)
    const key = problem.path.join('\u0000')
    if (seen.has(key)) continue
    seen.add(key)
    problems.push(problem)
  }
  return problems
}

/** An ajv error as a problem a reader understands. */
function describeSchemaError(error: ErrorObject, spec: unknown): SchemaViolation {
  const path = pointerToPath(error.instancePath, spec)
  const params = error.params as Record<string, unknown>
  const field = label(path)
  switch (error.keyword) {
    case 'required': {
      const name = String(params.missingProperty)
      return {kind: 'missing', path: [...path, name], reason: `Missing required field \`${name}\``}
    }
    case 'type':
      return {kind: 'type', path, reason: `Unexpected ${typeOf(valueAt(spec, path))} for \`${field}\`, expected ${article(String(params.type))}`}
    case 'enum':
      return {kind: 'type', path, reason: `Unexpected value ${quote(valueAt(spec, path))} for \`${field}\`, expected one of ${(params.allowedValues as unknown[]).map(quote).join(', ')}`}
    case 'const':
      return {kind: 'type', path, reason: `Unexpected value ${quote(valueAt(spec, path))} for \`${field}\`, expected ${quote(params.allowedValue)}`}
    case 'additionalProperties': {
      const name = String(params.additionalProperty)
      return {kind: 'schema', path: [...path, name], reason: `Unexpected field \`${name}\`, expected a known field or an \`x-\` extension key`}
    }
    case 'minLength':
      return {kind: 'schema', path, reason: `Unexpected empty string for \`${field}\`, expected at least ${params.limit} character(s)`}
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return {kind: 'schema', path, reason: `Unexpected value ${quote(valueAt(spec, path))} for \`${field}\`, expected a value ${params.comparison} ${params.limit}`}
    default:
      return {kind: 'schema', path, reason: `Unexpected value for \`${field}\`: ${error.message ?? error.keyword}`}
  }
}

/** The name a reader knows a field by: `group`, `status[0]`, `(root)`. */
function label(path: JsonPath): string {
  const last = path.at(-1)
  if (last === undefined) return '(root)'
  if (typeof last === 'number') return `${String(path.at(-2) ?? '')}[${last}]`
  return last
}

function valueAt(spec: unknown, path: JsonPath): unknown {
  let node = spec
  for (const segment of path) node = (node as Record<string | number, unknown> | undefined)?.[segment]
  return node
}

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

function article(type: string): string {
  return type
    .split(',')
    .map((name) => (/^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`))
    .join(' or ')
}

function quote(value: unknown): string {
  return '`' + (typeof value === 'string' ? value : JSON.stringify(value)) + '`'
}
