/**
 * JSON Schemas of request bodies, compiled from the entity definitions and validated by fastify's ajv (every error
 * at once): `create` and `replace` (PUT) require the required fields, `update` (PATCH) requires none. Keys the
 * server owns (a generated primary key, timestamps, `deletedAt`), protected ones (the roles of the auth entity,
 * unless a route lists them in `assign`) and unknown keys are refused: no mass assignment.
 */
import type {FieldDefinition} from '../../schemas/types/entity.js'
import {integerRange, type EntityModel} from './model.js'

type JsonSchema = Record<string, unknown>

/** The JSON Schema of one field's values (also what the OpenAPI document shows). */
export function fieldSchema(field: FieldDefinition): JsonSchema {
  const length = field.length ?? 255
  switch (field.type) {
    case 'string':
    case 'password':
      return {type: 'string', maxLength: length}
    case 'email':
      return {type: 'string', format: 'email', maxLength: length}
    case 'text':
      return {type: 'string'}
    case 'number':
      return {type: 'number'}
    case 'integer':
      // An `int` column on PostgreSQL and MySQL: a value past it would be the database's error, a 500.
      return {type: 'integer', minimum: integerRange.min, maximum: integerRange.max}
    case 'boolean':
      return {type: 'boolean'}
    case 'date':
      return {type: 'string', format: 'date'}
    case 'datetime':
      return {type: 'string', format: 'date-time'}
    case 'uuid':
      return {type: 'string', format: 'uuid'}
    case 'json':
      return {}
    case 'enum':
      return {type: 'string', enum: field.enum ?? []}
  }
}

function nullable(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema
  if (schema.enum) return {...schema, enum: [...(schema.enum as unknown[]), null], type: [schema.type, 'null']}
  return {...schema, type: [schema.type, 'null']}
}

/** One member of a body: a field, or a relation written by key (`author: 1`, `tags: [1, 3]`). */
interface BodyMember {
  name: string
  /** What its values are: the field's definition, or the key of the related record (its `by` field, else its key). */
  value: FieldDefinition
  /** A many-to-many relation takes a list of keys. */
  list: boolean
  /** The body must have it (a create or replace, for a required field without default or a required relation). */
  required: boolean
  /** It may be sent as `null` (an optional field or many-to-one). */
  nullable: boolean
}

/**
 * What a body of `model` takes in `mode`: its writable fields and the relations written by key, and which it must
 * have: the one reading of a body, from which its JSON Schema is made (`bodySchema`; the catalogue that `pipe map`
 * writes imports it from the app's OpenAPI document).
 */
function bodyMembers(model: EntityModel, mode: 'create' | 'replace' | 'update', models: ReadonlyMap<string, EntityModel>, protectedFields: ReadonlySet<string> = new Set()): BodyMember[] {
  const members: BodyMember[] = []
  for (const field of model.fields.values()) {
    if (!field.writable || protectedFields.has(field.name)) continue
    const definition = field.definition
    const needed = Boolean(definition.required || definition.primary)
    members.push({name: field.name, value: definition, list: false, required: mode !== 'update' && needed && definition.default === undefined, nullable: !needed})
  }
  for (const [name, relation] of model.relations) {
    if (!model.writableRelations.has(name) || protectedFields.has(name)) continue
    // A relation written `by` a unique field of its target takes that field's values (`"dragons"`), else keys.
    const target = models.get(relation.entity)
    const key: FieldDefinition = relation.by ? (target?.fields.get(relation.by)?.definition ?? {type: 'string'}) : {type: target?.primaryKeyType ?? 'integer'}
    if (relation.kind === 'many-to-one' || relation.kind === 'one-to-one') members.push({name, value: key, list: false, required: mode !== 'update' && Boolean(relation.required), nullable: !relation.required})
    else if (relation.kind === 'many-to-many') members.push({name, value: key, list: true, required: false, nullable: false})
  }
  return members
}

/** The body schema of a create, a full replace or a partial update. */
export function bodySchema(model: EntityModel, mode: 'create' | 'replace' | 'update', models: ReadonlyMap<string, EntityModel>, protectedFields: ReadonlySet<string> = new Set()): JsonSchema {
  const properties: Record<string, JsonSchema> = {}
  const required: string[] = []
  for (const member of bodyMembers(model, mode, models, protectedFields)) {
    const values = fieldSchema(member.value)
    properties[member.name] = member.list ? {type: 'array', items: values, maxItems: 1000, uniqueItems: true} : member.nullable ? nullable(values) : values
    if (member.required) required.push(member.name)
  }
  return {type: 'object', properties, required, additionalProperties: false}
}
