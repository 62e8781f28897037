/**
 * Definitions as code: entities as classes whose properties are the fields, controllers with action functions. Both
 * produce the same plain definitions as the JSON files (`schemas/entity.schema.json`, `controller.schema.json`), so
 * everything after loading treats them alike.
 *
 * ```ts
 * import {defineEntity, field, relation} from 'apipe-kit/runtime'
 *
 * export default defineEntity(class Book {
 *   title = field.string({required: true, length: 200})
 *   isbn = field.string({unique: true})
 *   author = relation.manyToOne('user', {onDelete: 'cascade'})
 * }, {timestamps: true})
 * ```
 */
import type {ControllerDefinition, RouteOptions} from '../schemas/types/controller.js'
import type {ActionContext} from './context.js'
import type {EntityDefinition, FieldDefinition, RelationDefinition} from '../schemas/types/entity.js'

/** Options of a field: every key of a JSON field but its type. */
export type FieldOptions = Omit<FieldDefinition, 'type'>

const typed = (type: FieldDefinition['type']) => (options: FieldOptions = {}): FieldDefinition => ({type, ...options})

/** Field helpers, one per field type. */
export const field = {
  string: typed('string'),
  text: typed('text'),
  email: typed('email'),
  password: typed('password'),
  number: typed('number'),
  integer: typed('integer'),
  boolean: typed('boolean'),
  date: typed('date'),
  datetime: typed('datetime'),
  uuid: typed('uuid'),
  json: typed('json'),
  /** An enum field with its values. */
  enum: (values: [string, ...string[]], options: Omit<FieldOptions, 'enum'> = {}): FieldDefinition => ({type: 'enum', enum: values, ...options})
}

/** Options of a relation: every key of a JSON relation but its kind and entity. */
export type RelationOptions = Omit<RelationDefinition, 'kind' | 'entity'>

const related = (kind: RelationDefinition['kind']) => (entity: string, options: RelationOptions = {}): RelationDefinition => ({kind, entity, ...options})

/** Relation helpers, one per kind. */
export const relation = {
  manyToOne: related('many-to-one'),
  oneToMany: related('one-to-many'),
  manyToMany: related('many-to-many'),
  oneToOne: related('one-to-one')
}

/**
 * Entity-wide options of {@link defineEntity}: everything a JSON entity says beside its fields and relations
 * (`table`, `indexes`, `timestamps`, `softDelete`, `events`, `computed`, `renamedFrom`, `x-` data…), so that a code
 * entity can say all a JSON one can.
 */
export type EntityOptions = Omit<EntityDefinition, 'name' | 'fields' | 'relations'> & {
  /** Entity name (default: the class name, lower-cased first letter: `BookReview` -> `bookReview`). */
  name?: string
}

const relationKinds = new Set(['many-to-one', 'one-to-many', 'many-to-many', 'one-to-one'])

/** An entity definition from a class whose properties are fields and relations (or from a plain object of them). */
export function defineEntity(shape: (new () => object) | Record<string, FieldDefinition | RelationDefinition>, options: EntityOptions = {}): EntityDefinition {
  const instance: Record<string, unknown> = typeof shape === 'function' ? (new shape() as Record<string, unknown>) : shape
  const className = typeof shape === 'function' ? shape.name : undefined
  const name = options.name ?? (className ? className[0].toLowerCase() + className.slice(1) : undefined)
  if (!name) throw new TypeError('defineEntity needs a named class or `options.name`')
  const definition: EntityDefinition = {name, fields: {}}
  for (const [key, value] of Object.entries(instance)) {
    if (!value || typeof value !== 'object') throw new TypeError(`Unexpected value for \`${name}.${key}\`, expected a \`field.*()\` or \`relation.*()\``)
    if (relationKinds.has(String((value as {kind?: unknown}).kind))) (definition.relations ??= {})[key] = value as RelationDefinition
    else definition.fields[key] = value as FieldDefinition
  }
  const {name: _name, ...entityWide} = options
  for (const [key, value] of Object.entries(entityWide)) if (value !== undefined) (definition as Record<string, unknown>)[key] = value
  return definition
}


/** A code controller: its definition and its custom actions. */
export interface CodeController {
  definition: ControllerDefinition
  actions: Record<string, (context: ActionContext) => unknown>
}

/** A controller from code: routes as in JSON, plus custom actions by name. */
export function defineController(
  name: string,
  spec: {entity?: string; auth?: boolean | string; roles?: string[]; routes: Record<string, string | RouteOptions>; actions?: CodeController['actions']}
): CodeController {
  const {actions = {}, ...rest} = spec
  return {definition: {name, ...rest}, actions}
}

export type {ActionContext}
