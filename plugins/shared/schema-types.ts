/**
 * OpenAPI schemas as catalogue types. A referenced schema keeps its name; an inline object is named after where it
 * sits (`CreatePetRequest`, `PetOwner`). object -> `object` with fields (`allOf` merged); string enum -> `enum`;
 * `oneOf`/`anyOf` -> `union`; a named primitive (`Timestamp: {type: string, format: date-time}`) -> `scalar`.
 * Arrays are `X[]`; an unnamed primitive is its JSON type. Named schemas are visited once, so cycles end. The
 * AsyncAPI import uses it for message payloads, which are JSON Schema too.
 */
import type {Field, TypeDefinition} from '../../schemas/types/endpoints.js'
import type {JsonRefs} from './json-refs.js'
import {pascal, record, text, typeName as catalogueName} from './readers.js'

type Schema = Record<string, unknown>

/** Collects types while the importer asks for the type of each schema it meets. */
export class SchemaTypes {
  readonly types = new Map<string, TypeDefinition>()
  /** Refs that led nowhere; their types are left as `object`. */
  readonly missing = new Set<string>()

  constructor(private readonly refs: JsonRefs) {}

  /**
   * The type expression of `node`; `fallback` names it when it is an inline object, enum or union (a function, so
   * that the name is only built when needed: most properties are primitives or refs).
   */
  typeOf(node: unknown, fallback: string | (() => string)): string {
    const resolved = this.refs.resolve(node)
    const schema = resolved.value
    const name = resolved.name === undefined ? undefined : catalogueName(resolved.name)
    if (resolved.external && name) {
      if (!this.types.has(name)) this.types.set(name, {name, kind: 'scalar', description: `Defined outside this document, at ${resolved.external}`})
      return name
    }
    if (resolved.missing) this.missing.add(resolved.missing)
    if (!schema) return 'object'
    const fallbackName = () => (typeof fallback === 'function' ? fallback() : fallback)
    if (schema.type === 'array' || (schema.items && !schema.properties)) return `${this.typeOf(schema.items, () => `${fallbackName()}Item`)}[]`
    // An unnamed primitive is its JSON type: answer before building a name for it.
    const simple = typeof schema.type === 'string' ? schema.type : schema.type === undefined && 'const' in schema ? constantType(schema) : undefined
    if (!name && simple && simple !== 'object' && simple !== 'array' && !schema.enum && !schema.oneOf && !schema.anyOf && !schema.allOf) return simple
    const typeName = name ?? pascal(fallbackName())
    if (this.types.has(typeName)) return typeName
    const variants = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined
    if (Array.isArray(variants) && variants.length > 0) {
      this.types.set(typeName, {name: typeName, kind: 'union', ...described(schema), members: []})
      this.types.get(typeName)!.members = [...new Set(variants.map((variant, index) => this.typeOf(variant, `${typeName}Option${index + 1}`)))]
      return typeName
    }
    if (Array.isArray(schema.enum) && schema.enum.length > 0 && (schema.type === 'string' || schema.enum.every((item) => typeof item === 'string')) && name) {
      this.types.set(typeName, {name: typeName, kind: 'enum', ...described(schema), values: schema.enum.map(String)})
      return typeName
    }
    if (schema.type === 'object' || schema.properties || schema.allOf || schema.additionalProperties) {
      if (!schema.properties && !schema.allOf && !name) return 'object'
      this.types.set(typeName, {name: typeName, kind: 'object', ...described(schema), fields: []})
      this.types.get(typeName)!.fields = this.fieldsOf(schema, typeName, new Set())
      return typeName
    }
    const primitive = typeof schema.type === 'string' ? schema.type : Array.isArray(schema.type) ? String(schema.type.find((type) => type !== 'null') ?? 'object') : constantType(schema)
    if (name) {
      const format = text(schema.format)
      this.types.set(name, {name, kind: 'scalar', description: [text(schema.description)?.trim(), `${primitive}${format ? ` (${format})` : ''}`].filter(Boolean).join(' — ')})
      return name
    }
    return primitive
  }

  /** Register every named schema of the document (`--all-types`). */
  addAll(schemas: Record<string, unknown>, refPrefix: string) {
    for (const name of Object.keys(schemas)) this.typeOf({$ref: `${refPrefix}${name.replace(/~/g, '~0').replace(/\//g, '~1')}`}, name)
  }

  private fieldsOf(schema: Schema, owner: string, visiting: Set<Schema>): Field[] {
    if (visiting.has(schema)) return []
    visiting.add(schema)
    const fields: Field[] = []
    for (const part of (schema.allOf as unknown[] | undefined) ?? []) {
      for (const field of this.fieldsOf(this.refs.resolve(part).value ?? {}, owner, visiting)) {
        if (!fields.some((existing) => existing.name === field.name)) fields.push(field)
      }
    }
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
    for (const [name, property] of Object.entries(record(schema.properties))) {
      // A property named "" cannot be a field (its name would be empty); such keys are left out.
      if (name === '') continue
      const field: Field = {name, type: this.typeOf(property, () => `${owner}${pascal(name)}`), required: required.has(name)}
      // A description beside a `$ref` (OpenAPI 3.1 allows it) says what this property is: it wins over the target's.
      const description = text(record(property).description) ?? text(this.refs.resolve(property).value?.description)
      if (description) field.description = description.trim()
      const existing = fields.findIndex((candidate) => candidate.name === name)
      if (existing === -1) fields.push(field)
      else fields[existing] = {...fields[existing], ...field, required: field.required || fields[existing].required}
    }
    return fields
  }
}

function described(schema: Schema): {description?: string} {
  const description = text(schema.description)?.trim()
  return description ? {description} : {}
}

/** The JSON type of a schema without `type` that fixes its value (`const: book` -> `string`), else `object`. */
function constantType(schema: Schema): string {
  if (!('const' in schema)) return 'object'
  const value = schema.const
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value === 'string' || typeof value === 'boolean' ? typeof value : 'object'
}
