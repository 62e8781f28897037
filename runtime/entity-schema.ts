/**
 * Definitions -> MikroORM 6 `EntitySchema`s, without decorators and without I/O: the same definitions always give the
 * same schemas, so migrations (which compare two sets of definitions) and the server (which runs one) agree.
 *
 * Mapping, as documented in the README's framework reference:
 * - no `primary` field -> an `id` integer auto-increment primary key (a field named `id` is the key when no other is);
 *   a `uuid` primary key is generated on create;
 * - `string`/`email`/`password` -> varchar(`length`, default 255), `text` -> text, `number` -> double,
 *   `integer` -> integer, `boolean`, `date`, `datetime`, `uuid`, `json`, `enum` -> the values as a check or enum;
 * - `required` -> NOT NULL; `unique`, `index`, `comment`, `default` as named; `password` is always hidden;
 * - `many-to-one` -> `<name>_id` foreign key; `one-to-many` -> mapped by the other side's `inverse`;
 *   `one-to-one` -> a unique foreign key, `many-to-many` -> a join table `<table>_<name>`, on the side that owns the
 *   relation ({@link ownsRelation});
 * - `timestamps` -> `createdAt`/`updatedAt` (default: the current time); `softDelete` -> `deletedAt` and a default
 *   filter that hides deleted rows.
 */
import {randomUUID} from 'node:crypto'
import {EntitySchema, UnderscoreNamingStrategy, type EntitySchemaMetadata} from '@mikro-orm/core'
import type {EntityDefinition, FieldDefinition, RelationDefinition} from '../schemas/types/entity.js'
import {defaultBcryptCost, isHash, utils} from './utils.js'
import {loginEmail, loginEmailField} from './login-email.js'

/** A row as the server sees it: plain data by column name. */
export type Row = Record<string, unknown>

/** Property options as MikroORM's `EntitySchema` reads them (kept loose: the mapping above is the contract). */
type PropertyOptions = Record<string, unknown>

/** The name of the filter that hides soft-deleted rows. */
export const softDeleteFilter = 'softDelete'

/** The naming MikroORM's SQL drivers use by default, and so the one the schemas below get. */
const naming = new UnderscoreNamingStrategy()

/** The column of a field, as the ORM names it: `createdAt` -> `created_at`. */
export function fieldColumn(property: string): string {
  return naming.propertyToColumnName(property)
}

/** The foreign-key column of a many-to-one relation, as the ORM names it: `author` -> `author_id`. */
export function relationColumn(relation: string, targetKey = 'id'): string {
  return naming.joinKeyColumnName(relation, targetKey)
}

/** The primary key field of an entity: its `primary` field, else `id`. */
export function primaryKeyOf(definition: EntityDefinition): string {
  const declared = Object.entries(definition.fields).find(([, field]) => field.primary)
  return declared ? declared[0] : 'id'
}

/** The table of an entity. */
export function tableOf(definition: EntityDefinition): string {
  return definition.table ?? definition.name
}

/** Options of the mapping. */
export interface SchemaOptions {
  /** bcrypt cost of `password` fields (default: 12, at least 10). */
  bcryptCost?: number
  /** The auth entity (`auth.entity`): its first `email` field is stored as {@link loginEmail} writes it. */
  authEntity?: string
}

/** One `EntitySchema` per definition; relations are resolved against all of them. */
export function entitySchemas(definitions: readonly EntityDefinition[], options: SchemaOptions = {}): Array<EntitySchema<Row>> {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]))
  return definitions.map((definition) => entitySchema(definition, byName, options))
}

/**
 * `password` fields are hashed with bcrypt before every insert and update, whoever writes (CRUD, hooks, services):
 * a value that is already a bcrypt hash is kept.
 */
function passwordHook(fields: string[], cost: number) {
  return async ({entity}: {entity: Row}) => {
    for (const name of fields) {
      const value = entity[name]
      if (typeof value === 'string' && !isHash(value)) entity[name] = await utils.hash(value, cost)
    }
  }
}

/** The auth entity's e-mail is stored trimmed and lowercased before every insert and update, whoever writes. */
function loginEmailHook(field: string) {
  return ({entity}: {entity: Row}) => {
    const value = entity[field]
    if (typeof value === 'string') entity[field] = loginEmail(value)
  }
}

/** The `EntitySchema` of one definition; `all` holds every entity of the project, for relations. */
export function entitySchema(definition: EntityDefinition, all: ReadonlyMap<string, EntityDefinition>, options: SchemaOptions = {}): EntitySchema<Row> {
  const properties: Record<string, PropertyOptions> = {}
  const primary = primaryKeyOf(definition)
  if (!definition.fields[primary]) properties[primary] = {type: 'integer', primary: true, autoincrement: true}
  for (const [name, field] of Object.entries(definition.fields)) properties[name] = fieldProperty(field, name === primary)
  for (const [name, relation] of Object.entries(definition.relations ?? {})) properties[name] = relationProperty(definition, name, relation, all)
  if (definition.timestamps) {
    properties.createdAt = {type: 'Date', nullable: false, defaultRaw: 'current_timestamp', onCreate: () => new Date()}
    // A new record's two stamps are one moment: two clocks read a millisecond apart would say it changed once.
    properties.updatedAt = {type: 'Date', nullable: false, defaultRaw: 'current_timestamp', onCreate: (entity: Row) => (entity.createdAt instanceof Date ? entity.createdAt : new Date()), onUpdate: () => new Date()}
  }
  const meta: Partial<EntitySchemaMetadata<Row>> & Record<string, unknown> = {
    name: definition.name,
    tableName: tableOf(definition),
    properties: properties as unknown as EntitySchemaMetadata<Row>['properties']
  }
  const hooks: Array<(args: {entity: Row}) => unknown> = []
  const passwords = Object.entries(definition.fields).filter(([, field]) => field.type === 'password').map(([name]) => name)
  if (passwords.length > 0) hooks.push(passwordHook(passwords, Math.max(10, options.bcryptCost ?? defaultBcryptCost)))
  const email = definition.name === options.authEntity ? loginEmailField(definition) : undefined
  if (email) hooks.push(loginEmailHook(email))
  if (hooks.length > 0) meta.hooks = {beforeCreate: hooks, beforeUpdate: hooks}
  if (definition.softDelete) {
    properties.deletedAt = {type: 'Date', nullable: true, index: true, hidden: true}
    meta.filters = {[softDeleteFilter]: {name: softDeleteFilter, cond: {deletedAt: null}, default: true}}
  }
  const indexes = (definition.indexes ?? []).map((index) => ({properties: index.fields, ...(index.name ? {name: index.name} : {}), unique: index.unique === true}))
  const plain = indexes.filter((index) => !index.unique).map(({unique: _, ...index}) => index)
  const unique = indexes.filter((index) => index.unique).map(({unique: _, ...index}) => index)
  if (plain.length > 0) meta.indexes = plain
  if (unique.length > 0) meta.uniques = unique
  return new EntitySchema<Row>(meta as EntitySchemaMetadata<Row>)
}

/**
 * MikroORM's type per field type. A moment is `Date` (a `datetime` column), not the `datetime` alias: MikroORM compares
 * a `Date` property by its time, but an aliased one as a value, and on SQLite the loaded value (a Date) and the
 * snapshot (epoch milliseconds) never match, so every flush wrote every loaded record again (a user's `updatedAt`
 * moved whenever they created a note).
 */
const columnTypes: Record<FieldDefinition['type'], string> = {
  string: 'string',
  email: 'string',
  password: 'string',
  text: 'text',
  number: 'double',
  integer: 'integer',
  boolean: 'boolean',
  date: 'date',
  datetime: 'Date',
  uuid: 'uuid',
  json: 'json',
  enum: 'string'
}

function fieldProperty(field: FieldDefinition, primary: boolean): PropertyOptions {
  const property: PropertyOptions = {type: columnTypes[field.type], nullable: !(primary || field.required)}
  if (primary) property.primary = true
  if (primary && field.type === 'uuid') property.onCreate = () => randomUUID()
  if (primary && field.type === 'integer') property.autoincrement = true
  if (['string', 'email', 'password'].includes(field.type)) property.length = field.length ?? 255
  if (field.type === 'enum') {
    property.enum = true
    property.items = [...(field.enum ?? [])]
  }
  if (field.unique && !primary) property.unique = true
  if (field.index) property.index = true
  if (field.comment) property.comment = field.comment
  if (field.hidden || field.type === 'password') property.hidden = true
  if (field.default !== undefined && field.default !== null) {
    if (field.type === 'json') {
      const value = field.default
      property.onCreate = () => structuredClone(value)
    } else {
      property.default = field.default as string | number | boolean
    }
  }
  return property
}

function relationProperty(owner: EntityDefinition, name: string, relation: RelationDefinition, all: ReadonlyMap<string, EntityDefinition>): PropertyOptions {
  const target = all.get(relation.entity)
  // Deleting a row that others still refer to is refused unless the relation says otherwise (MikroORM's own default
  // would null or delete the referring rows without a word); the API answers such a delete 409.
  const deleteRule = relation.onDelete ?? 'restrict'
  switch (relation.kind) {
    case 'many-to-one': {
      const property: PropertyOptions = {kind: 'm:1', entity: relation.entity, nullable: !relation.required}
      property.deleteRule = deleteRule
      if (relation.inverse && target?.relations?.[relation.inverse]) property.inversedBy = relation.inverse
      return property
    }
    case 'one-to-many':
      return {kind: '1:m', entity: relation.entity, mappedBy: relation.inverse ?? owner.name}
    case 'one-to-one': {
      if (!ownsRelation(owner, name, relation, target)) return {kind: '1:1', entity: relation.entity, mappedBy: relation.inverse, owner: false, nullable: true}
      const property: PropertyOptions = {kind: '1:1', entity: relation.entity, owner: true, nullable: !relation.required}
      property.deleteRule = deleteRule
      return property
    }
    case 'many-to-many': {
      if (!ownsRelation(owner, name, relation, target)) return {kind: 'm:n', entity: relation.entity, mappedBy: relation.inverse}
      return {kind: 'm:n', entity: relation.entity, owner: true, pivotTable: `${tableOf(owner)}_${name}`}
    }
  }
}

/**
 * Which side of a one-to-one or many-to-many holds the foreign key or join table: the side without an `inverse` (or
 * whose `inverse` is not a relation of the other entity); when both sides name each other, the entity whose name
 * sorts first (for a relation of an entity to itself, the relation whose name sorts first).
 */
export function ownsRelation(owner: EntityDefinition, name: string, relation: RelationDefinition, target: EntityDefinition | undefined): boolean {
  const other = relation.inverse ? target?.relations?.[relation.inverse] : undefined
  if (!other || !relation.inverse) return true
  if (other.inverse !== name) return false
  return owner.name === relation.entity ? name < relation.inverse : owner.name < relation.entity
}
