/**
 * The one module that checks OpenAPI documents and talks to @readme/openapi-parser (STYLE: one adapter per
 * outside API likely to change). `checkDocument` returns each problem with the JSON path it is about.
 */
import type {ErrorObject, ValidateFunction} from 'ajv'
import {pointerToPath, type JsonPath} from '../../pipeline/json-path.js'
import {standaloneValidator} from '../../pipeline/schemas.js'
import {jsonc} from '../../pipeline/lazy.js'

/** A problem the parser found, with the path it points at when it could be read. */
export interface DocumentProblem {
  reason: string
  path: JsonPath
  /** Absolute path of the file the problem is in, when it is not the document checked (a file a `$ref` led to). */
  file?: string
}

type Document = Record<string, unknown>

/**
 * Check a Swagger 2.0, OpenAPI 3.0 or 3.1 document against the official schema of its version, as given (refs are
 * Reference objects the schema allows; resolve-refs puts what other files hold in place before), with
 * validators compiled at build time: ~50 ms for Stripe where dereferencing first takes ~1 s. Other versions, or a
 * build without validators, are checked by @readme/openapi-parser, which dereferences and follows the refs
 * (rejecting when one cannot be resolved).
 */
export async function checkDocument(document: Document, filePath: string | undefined): Promise<{errors: DocumentProblem[]; warnings: DocumentProblem[]}> {
  const validate = compiledValidator(document)
  if (validate) return {errors: schemaProblems(validate, document), warnings: []}
  return checkWithParser(document, filePath)
}

/** The build-time validator for the document's version, or undefined (not built, or an unknown version). */
function compiledValidator(document: Document): ValidateFunction | undefined {
  const version = typeof document.swagger === 'string' ? '2.0' : /^3\.[01](\.|$)/.test(String(document.openapi)) ? String(document.openapi).slice(0, 3) : undefined
  return version === undefined ? undefined : standaloneValidator(`openapi-${version}`)
}

/** The schema errors, reduced the way @readme/openapi-parser reduces them: the deepest error per branch of the document. */
function schemaProblems(validate: ValidateFunction, document: Document): DocumentProblem[] {
  const problems: DocumentProblem[] = []
  const paths = document.paths && typeof document.paths === 'object' ? Object.keys(document.paths) : []
  for (const route of paths.filter((route) => !route.startsWith('/'))) {
    problems.push({reason: `Unexpected path \`${route}\`, expected it to begin with \`/\``, path: ['paths', route]})
  }
  if (validate(document)) return problems
  const kept = new Map<string, ErrorObject>()
  for (const error of validate.errors ?? []) {
    // Branch bookkeeping of the schemas (which branch of a oneOf or if/then/else failed) says nothing a reader can act on.
    if (error.message === "must have required property '$ref'" || error.message === 'must match exactly one schema in oneOf' || /^must match "(then|else)" schema$/.test(error.message ?? '')) continue
    if ([...kept.keys()].some((pointer) => pointer.startsWith(error.instancePath))) continue
    kept.set(error.instancePath, error)
  }
  for (const error of [...kept.values()].slice(0, 20)) {
    const params = error.params as Record<string, unknown>
    const at = pointerToPath(error.instancePath, document)
    // A `$ref` where the schema wants something else: a ref in a place OpenAPI gives none (`tags: {$ref: tags.yaml}`,
    // which split descriptions write), or a reference object beside other keys.
    const refHere = at[at.length - 1] !== '$ref' && typeof (valueAt(document, at) as {$ref?: unknown} | undefined)?.$ref === 'string'
    if (at[at.length - 1] === '$ref' || refHere) {
      problems.push({reason: 'Unexpected `$ref`: OpenAPI allows no reference in this place (apipe follows it anyway)', path: refHere ? [...at, '$ref'] : at})
      continue
    }
    // 3.1's schema says "unevaluated" where 3.0's says "additional": either names the key that has no place here.
    const unexpected = params.additionalProperty ?? params.unevaluatedProperty
    const reason = params.missingProperty
      ? `Missing required property \`${params.missingProperty}\``
      : unexpected !== undefined
        ? `Unexpected property \`${unexpected}\``
        : `Unexpected value: it ${String(error.message)}`
    problems.push({reason, path: unexpected !== undefined ? [...at, String(unexpected)] : at})
  }
  if (kept.size > 20) problems.push({reason: `… and ${kept.size - 20} more schema problem(s)`, path: []})
  return problems
}

/** The value at `path` in `document`, or undefined. */
function valueAt(document: unknown, path: Array<string | number>): unknown {
  let node = document
  for (const key of path) node = node && typeof node === 'object' ? (node as Record<string | number, unknown>)[key] : undefined
  return node
}

async function checkWithParser(document: Document, filePath: string | undefined): Promise<{errors: DocumentProblem[]; warnings: DocumentProblem[]}> {
  // Loaded only for the documents that need it: it is the heaviest module of an import.
  const {validate} = await import('@readme/openapi-parser')
  const pretty = JSON.stringify(document, null, 2)
  // validate() dereferences an object argument in place: give it a copy, or the path when refs may leave the file.
  // Never fetch: the import is offline. Refs to URLs are taken out of the copy that is checked (the importer names
  // them without fetching); refs to other files are followed only when the document has no URL refs at all.
  const remote = /"\$ref":\s*"[a-z][\w+.-]*:\/\//i.test(pretty)
  const files = /"\$ref":\s*"(?![#]|[a-z][\w+.-]*:\/\/)/i.test(pretty)
  const input = filePath && files && !remote ? filePath : withoutRemoteRefs(structuredClone(document))
  const options = {resolve: {external: input === filePath}, validate: {errors: {colorize: false}}}
  const result = await validate(input as never, options as never)
  const errors = result.valid ? [] : result.errors.map((error) => problem(error.message, pretty))
  if (!result.valid && result.additionalErrors > 0) errors.push({reason: `… and ${result.additionalErrors} more schema error(s)`, path: []})
  return {errors, warnings: result.warnings.map((warning) => problem(warning.message, pretty))}
}

/** `REQUIRED must have required property 'x'` plus a code frame whose `>` line points into the pretty JSON. */
function problem(message: string, pretty: string): DocumentProblem {
  const [first, ...frame] = message.split('\n')
  const marked = frame.find((line) => /^>\s*\d+ \|/.test(line))
  const hint = frame.find((line) => /^\s+\|\s*\^/.test(line))?.replace(/^\s+\|\s*\^\s*/, '')
  const reason = `${first.replace(/^[A-Z_]+ /, '').trim()}${hint ? ` (${hint.replace(/!$/, '')})` : ''}`
  const line = marked ? Number(/^>\s*(\d+)/.exec(marked)![1]) : undefined
  return {reason: reason.charAt(0).toUpperCase() + reason.slice(1), path: line ? pathAtLine(pretty, line) : []}
}

/** The JSON path of the first value that starts on `line` (1-based) of pretty-printed JSON. */
function pathAtLine(pretty: string, line: number): JsonPath {
  let found: JsonPath | undefined
  const take = (startLine: number, pathSupplier: () => JsonPath) => {
    if (found === undefined && startLine + 1 === line) found = [...pathSupplier()]
  }
  jsonc().visit(pretty, {
    onObjectProperty: (property, _offset, _length, startLine, _character, pathSupplier) => take(startLine, () => [...pathSupplier(), property]),
    onObjectBegin: (_offset, _length, startLine, _character, pathSupplier) => take(startLine, pathSupplier),
    onArrayBegin: (_offset, _length, startLine, _character, pathSupplier) => take(startLine, pathSupplier),
    onLiteralValue: (_value, _offset, _length, startLine, _character, pathSupplier) => take(startLine, pathSupplier)
  })
  return found ?? []
}

/** Replace every `$ref` to a URL with an empty schema, in place. */
function withoutRemoteRefs<T>(node: T): T {
  if (Array.isArray(node)) node.forEach(withoutRemoteRefs)
  else if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>
    if (typeof record.$ref === 'string' && /^[a-z][\w+.-]*:\/\//i.test(record.$ref)) delete record.$ref
    for (const value of Object.values(record)) withoutRemoteRefs(value)
  }
  return node
}
