/**
 * What the HTTP layer knows about an entity, derived once from its definition: which fields a client may read,
 * filter, sort and write, and how to turn query-string text into values of each field's type.
 */
import type {EntityDefinition, FieldDefinition, RelationDefinition} from '../../schemas/types/entity.js'
import {primaryKeyOf} from '../entity-schema.js'

/** A field as the API sees it (declared, or added by `timestamps`/`softDelete`, or the implicit `id`). */
export interface ApiField {
  name: string
  type: FieldDefinition['type']
  definition: FieldDefinition
  /** Shown in responses, and usable in `fields`, `filter` and `sort`. */
  visible: boolean
  /** Accepted in request bodies. */
  writable: boolean
  /** Filled by the server on create (`user` or `user.<field>`), never by the client. */
  from?: string
}

export interface EntityModel {
  name: string
  definition: EntityDefinition
  primaryKey: string
  /** `integer` for the implicit key, else the key field's type. */
  primaryKeyType: FieldDefinition['type']
  fields: Map<string, ApiField>
  relations: Map<string, RelationDefinition>
  /** The relations a request body may set (see {@link relationWritable}). */
  writableRelations: Set<string>
  /** Computed fields by name (`favoritesCount: count of favoritedBy`), see computed.ts. */
  computed: Map<string, {name: string; kind: 'count' | 'viewerIn'; relation: string}>
  softDelete: boolean
}

/**
 * Whether a body may set a relation: a `many-to-one` or `one-to-one` holds a key like a field and may, unless the
 * server fills it (`from`); a list (`many-to-many`) only when its definition says `writable: true`.
 */
/**
 * The relations every answer shows, loaded with the record: those answered `by` a field, and the writable lists
 * (a many-to-many a body sets is read back as it was set: its keys). The prepared reads show none of them.
 */
export function answeredRelations(model: EntityModel): string[] {
  const list = (kind: string) => kind === 'many-to-many' || kind === 'one-to-many'
  return [...model.relations].filter(([name, relation]) => relation.by || (list(relation.kind) && model.writableRelations.has(name))).map(([name]) => name)
}

export function relationWritable(relation: RelationDefinition): boolean {
  if (relation.from) return false
  return relation.writable ?? (relation.kind === 'many-to-one' || relation.kind === 'one-to-one')
}

const serverFields = new Set(['createdAt', 'updatedAt', 'deletedAt'])

/** Build the model of an entity. */
export function entityModel(definition: EntityDefinition): EntityModel {
  const primaryKey = primaryKeyOf(definition)
  const fields = new Map<string, ApiField>()
  const add = (name: string, field: FieldDefinition, writable: boolean) =>
    fields.set(name, {
      name,
      type: field.type,
      definition: field,
      visible: !(field.hidden || field.writeOnly || field.type === 'password'),
      writable: writable && !field.readOnly && !field.from,
      from: field.from
    })
  if (!definition.fields[primaryKey]) add(primaryKey, {type: 'integer', primary: true}, false)
  for (const [name, field] of Object.entries(definition.fields)) {
    // A generated key (integer or uuid) is the server's; other primary keys are given by the client.
    const generated = field.primary && (field.type === 'integer' || field.type === 'uuid')
    add(name, field, !generated && !serverFields.has(name))
  }
  if (definition.timestamps) {
    add('createdAt', {type: 'datetime'}, false)
    add('updatedAt', {type: 'datetime'}, false)
  }
  if (definition.softDelete) fields.set('deletedAt', {name: 'deletedAt', type: 'datetime', definition: {type: 'datetime'}, visible: false, writable: false})
  const primaryField = fields.get(primaryKey)!
  return {
    name: definition.name,
    definition,
    primaryKey,
    primaryKeyType: primaryField.type,
    fields,
    relations: new Map(Object.entries(definition.relations ?? {})),
    computed: new Map(
      Object.entries(definition.computed ?? {}).map(([name, spec]) => [name, 'count' in spec ? {name, kind: 'count' as const, relation: spec.count} : {name, kind: 'viewerIn' as const, relation: spec.viewerIn}])
    ),
    writableRelations: new Set(Object.entries(definition.relations ?? {}).filter(([, relation]) => relationWritable(relation)).map(([name]) => name)),
    softDelete: definition.softDelete === true
  }
}

/** Names of the fields a response shows. */
export function visibleFields(model: EntityModel): string[] {
  return [...model.fields.values()].filter((field) => field.visible).map((field) => field.name)
}

/** Turn query-string text into a value of a field's type; `undefined` when it is not one. */
export function parseScalar(type: FieldDefinition['type'], text: string): unknown {
  // No database keeps a NUL character in text: no field's value holds one.
  if (text.includes('\0')) return undefined
  switch (type) {
    case 'number': {
      const value = Number(text)
      return text.trim() !== '' && Number.isFinite(value) ? value : undefined
    }
    case 'integer': {
      return /^-?\d{1,15}$/.test(text) ? Number(text) : undefined
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined
    // A moment is a Date, which MikroORM writes as each database keeps it (SQLite: epoch milliseconds, compared as
    // numbers; the text would compare as text). A day stays its `YYYY-MM-DD` text, as it is kept.
    case 'datetime': {
      const moment = new Date(text)
      return Number.isNaN(moment.getTime()) ? undefined : moment
    }
    case 'date':
      return Number.isNaN(Date.parse(text)) ? undefined : text
    default:
      return text
  }
}

/** What an `integer` field and key hold on every database: PostgreSQL's and MySQL's `int` (SQLite's is wider). */
export const integerRange = {min: -2147483648, max: 2147483647}

/**
 * An `{id}` path value as the key's type; `undefined` when it cannot be one (the answer is then 404): an integer key
 * written as the server writes it (`01` is not `1`), within the key column's range (PostgreSQL refused `2147483648`
 * with an error, a 500).
 */
export function parseId(model: EntityModel, text: string): unknown {
  if (text.length > 200) return undefined
  if (model.primaryKeyType === 'integer') return /^(0|[1-9]\d{0,9})$/.test(text) && Number(text) <= integerRange.max ? Number(text) : undefined
  if (model.primaryKeyType === 'uuid') return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text) ? text.toLowerCase() : undefined
  return parseScalar(model.primaryKeyType, text)
}
