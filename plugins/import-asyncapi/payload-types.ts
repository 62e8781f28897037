/**
 * Message payloads (JSON Schema) as catalogue types: an object with properties is an `object` type with fields; a
 * string enum an `enum`; `oneOf`/`anyOf` a `union`; arrays are `X[]`; primitives keep their JSON type. A referenced
 * schema keeps its name; an inline one is named after where it sits (`UserSignedUpPayload`, `OrderItems`).
 */
import type {Field, TypeDefinition} from '../../schemas/types/endpoints.js'
import type {JsonRefs} from '../../pipeline/json-refs.js'
import {typeName as catalogueName} from '../import-openapi/refs.js'

type Schema = Record<string, unknown>

/** Collects the types of payloads, once per name. */
export class PayloadTypes {
  readonly types = new Map<string, TypeDefinition>()

  constructor(private readonly refs: JsonRefs) {}

  /** The type expression for a schema, registering named types; `fallback` names an inline schema. */
  typeOf(node: unknown, fallback: string, depth = 0): string {
    const {value, name, external} = this.refs.resolve(node)
    const schema = value && typeof value === 'object' ? (value as Schema) : undefined
    if (external && name) {
      const externalName = catalogueName(name)
      this.register(externalName, {name: externalName, kind: 'scalar', description: `Defined outside this document, at ${external}`})
      return externalName
    }
    if (!schema || depth > 32) return 'object'
    // AsyncAPI 3 multi-format schema: `{schemaFormat, schema}`.
    if (schema.schemaFormat !== undefined && schema.schema !== undefined) return this.typeOf(schema.schema, name ? String(name) : fallback, depth + 1)
    const typeName = name ? catalogueName(String(name)) : pascal(String(schema.title ?? fallback))
    if (schema.type === 'array' || schema.items) return `${this.typeOf(schema.items, `${typeName}Item`, depth + 1)}[]`
    const variants = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined
    if (Array.isArray(variants)) {
      if (!this.types.has(typeName)) {
        this.types.set(typeName, {name: typeName, kind: 'union', members: []})
        this.types.get(typeName)!.members = variants.map((variant, index) => this.typeOf(variant, `${typeName}${index + 1}`, depth + 1))
      }
      return typeName
    }
    if (Array.isArray(schema.enum) && schema.enum.every((item) => typeof item === 'string') && name) {
      this.register(typeName, {name: typeName, kind: 'enum', values: schema.enum as string[], ...described(schema)})
      return typeName
    }
    if (schema.type === 'object' || schema.properties || schema.allOf) {
      if (!this.types.has(typeName)) {
        this.types.set(typeName, {name: typeName, kind: 'object', ...described(schema), fields: []})
        this.types.get(typeName)!.fields = this.fieldsOf(schema, typeName, depth)
      }
      return typeName
    }
    return typeof schema.type === 'string' ? schema.type : 'object'
  }

  private fieldsOf(schema: Schema, owner: string, depth: number): Field[] {
    const parts = [schema, ...((schema.allOf as unknown[] | undefined) ?? []).map((part) => this.refs.resolve(part).value as Schema)]
    const fields: Field[] = []
    for (const part of parts) {
      if (!part || typeof part !== 'object') continue
      const required = new Set(Array.isArray(part.required) ? (part.required as string[]) : [])
      for (const [name, property] of Object.entries((part.properties as Record<string, unknown> | undefined) ?? {})) {
        if (fields.some((field) => field.name === name)) continue
        const field: Field = {name, type: this.typeOf(property, `${owner}${pascal(name)}`, depth + 1), required: required.has(name)}
        const description = (this.refs.resolve(property).value as Schema | undefined)?.description
        if (typeof description === 'string' && description.trim()) field.description = description.trim()
        fields.push(field)
      }
    }
    return fields
  }

  private register(name: string, type: TypeDefinition) {
    if (!this.types.has(name)) this.types.set(name, type)
  }
}

/** `user signed-up` -> `UserSignedUp`. */
export function pascal(text: string): string {
  const words = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^A-Za-z0-9]+/).filter(Boolean)
  const joined = words.map((word) => word[0].toUpperCase() + word.slice(1)).join('')
  return /^[0-9]/.test(joined) ? `T${joined}` : joined || 'Payload'
}

function described(schema: Schema): {description?: string} {
  return typeof schema.description === 'string' && schema.description.trim() ? {description: schema.description.trim()} : {}
}
