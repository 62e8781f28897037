/**
 * JSON Schemas of request bodies, compiled from the entity definitions and validated by fastify's ajv (every error
 * at once): `create` and `replace` (PUT) require the required fields, `update` (PATCH) requires none. Keys the
 * server owns (a generated primary key, timestamps, `deletedAt`), protected ones (the roles of the auth entity,
 * unless a route lists them in `assign`) and unknown keys are refused: no mass assignment.
 */
import type {FieldDefinition} from '../../schemas/types/entity.js'
import type {EntityModel} from './model.js'

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
      return {type: 'integer'}
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

/** The body schema of a create, a full replace or a partial update. */
export function bodySchema(model: EntityModel, mode: 'create' | 'replace' | 'update', models: ReadonlyMap<string, EntityModel>, protectedFields: ReadonlySet<string> = new Set()): JsonSchema {
  const properties: Record<string, JsonSchema> = {}
  const required: string[] = []
  for (const field of model.fields.values()) {
    if (!field.writable || protectedFields.has(field.name)) continue
    const definition = field.definition
    properties[field.name] = definition.required || definition.primary ? fieldSchema(definition) : nullable(fieldSchema(definition))
    if (mode !== 'update' && (definition.required || definition.primary) && definition.default === undefined) required.push(field.name)
  }
  for (const [name, relation] of model.relations) {
    if (!model.writableRelations.has(name) || protectedFields.has(name)) continue
    // A relation written `by` a unique field of its target takes that field's values (`"dragons"`), else keys.
    const target = models.get(relation.entity)
    const key = fieldSchema(relation.by ? (target?.fields.get(relation.by)?.definition ?? {type: 'string'}) : {type: target?.primaryKeyType ?? 'integer'})
    if (relation.kind === 'many-to-one' || relation.kind === 'one-to-one') {
      properties[name] = relation.required ? key : nullable(key)
      if (mode !== 'update' && relation.required) required.push(name)
    } else if (relation.kind === 'many-to-many') {
      properties[name] = {type: 'array', items: key, maxItems: 1000, uniqueItems: true}
    }
  }
  return {type: 'object', properties, required, additionalProperties: false}
}
