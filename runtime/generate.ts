/**
 * Scaffolding for framework projects: entity and controller definitions written as files, valid against
 * `schemas/entity.schema.json` and `schemas/controller.schema.json`. Names: `BookReview` -> entity `book_review`
 * (lower case, words joined by `_`), routes on the plural path `/book_reviews`.
 */
import type {ControllerDefinition} from '../schemas/types/controller.js'
import type {EntityDefinition, FieldDefinition} from '../schemas/types/entity.js'

const fieldTypes = new Set(['string', 'text', 'email', 'password', 'number', 'integer', 'boolean', 'date', 'datetime', 'uuid', 'json', 'enum'])
const modifiers = new Set(['required', 'unique', 'index', 'hidden'])

/**
 * The `$schema` a definition file in `src/entities/` or `src/controller/` names, so that an editor checks and
 * completes it from the installed package's schema (as the files `pipe init` writes do).
 */
export function schemaOf(kind: 'entity' | 'controller'): string {
  return `../../node_modules/apipe-kit/schemas/${kind}.schema.json`
}

/** `BookReview`, `book-review`, `bookReview` -> `book_review`. */
export function entityName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase()
}

/** `book_review` -> `BookReview`: the type (and class) name of an entity. */
export function typeName(entity: string): string {
  return entity.replace(/(^|_)([a-z0-9])/g, (_, _separator: string, letter: string) => letter.toUpperCase())
}

/** `book` -> `books`, `category` -> `categories`, `box` -> `boxes`, `book_review` -> `book_reviews`. */
export function plural(name: string): string {
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`
  if (/(s|x|z|ch|sh)$/.test(name)) return `${name}es`
  return `${name}s`
}

/**
 * Parse `--fields title:string:required,isbn:string:unique,status:enum(draft|published)`: name, type (default
 * `string`), then modifiers `required`, `unique`, `index`, `hidden`. Throws a `TypeError` naming the bad part.
 */
export function parseFields(spec: string): Record<string, FieldDefinition> {
  const fields: Record<string, FieldDefinition> = {}
  for (const part of spec.split(',').map((item) => item.trim()).filter(Boolean)) {
    const [name, rawType = 'string', ...flags] = part.split(':')
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) throw new TypeError(`Unexpected field name \`${name}\` in \`${part}\`, expected letters, digits and \`_\``)
    const enumMatch = /^enum\((.+)\)$/.exec(rawType)
    const type = enumMatch ? 'enum' : rawType
    if (!fieldTypes.has(type)) throw new TypeError(`Unexpected type \`${rawType}\` in \`${part}\`, expected one of ${[...fieldTypes].join(', ')}`)
    const field: FieldDefinition = {type: type as FieldDefinition['type']}
    if (type === 'enum') {
      if (!enumMatch) throw new TypeError(`Unexpected \`enum\` without values in \`${part}\`, expected \`enum(a|b)\``)
      field.enum = enumMatch[1].split('|') as [string, ...string[]]
    }
    for (const flag of flags) {
      if (!modifiers.has(flag)) throw new TypeError(`Unexpected modifier \`${flag}\` in \`${part}\`, expected one of ${[...modifiers].join(', ')}`)
      ;(field as Record<string, unknown>)[flag] = true
    }
    fields[name] = field
  }
  return fields
}

/** The entity definition `pipe generate entity` writes (a `title` string field when none are given). */
export function entityDefinition(name: string, fields: Record<string, FieldDefinition>): EntityDefinition {
  return {name: entityName(name), fields: Object.keys(fields).length > 0 ? fields : {title: {type: 'string', required: true}}, timestamps: true}
}

/** The same entity as a TypeScript class for `--code`. */
export function entitySource(definition: EntityDefinition): string {
  const className = typeName(definition.name)
  const lines = Object.entries(definition.fields).map(([key, field]) => {
    const {type, enum: values, ...options} = field
    const rest = Object.keys(options).length > 0 ? `{${Object.entries(options).map(([option, value]) => `${option}: ${literal(value)}`).join(', ')}}` : ''
    const call = type === 'enum' ? `field.enum(${literal(values)}${rest ? `, ${rest}` : ''})` : `field.${type}(${rest})`
    return `  ${key} = ${call}`
  })
  return [
    "import {defineEntity, field} from 'apipe-kit/runtime'",
    '',
    `export default defineEntity(class ${className} {`,
    ...lines,
    `}, {name: ${literal(definition.name)}, timestamps: true})`,
    ''
  ].join('\n')
}

/** A value as TypeScript source in the project's style (single quotes). */
function literal(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`
  return String(value)
}

/** The controller definition `pipe generate controller` writes: the six auto-CRUD routes (update as PATCH and PUT) with `crud`, else none. */
export function controllerDefinition(name: string, crud: boolean): ControllerDefinition {
  const entity = entityName(name)
  const base = `/${plural(entity)}`
  const routes: ControllerDefinition['routes'] = crud
    ? {
        [`GET ${base}`]: 'list',
        [`GET ${base}/count`]: 'count',
        [`GET ${base}/{id}`]: 'read',
        [`POST ${base}`]: 'create',
        [`PATCH ${base}/{id}`]: 'update',
        [`PUT ${base}/{id}`]: 'update',
        [`DELETE ${base}/{id}`]: 'delete'
      }
    : {}
  return {name: entity, entity, routes}
}
