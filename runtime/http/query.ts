/**
 * The list query of 4.3: `page` or `offset`, `limit` (default 20, 1 to 100), `sort=-createdAt,title`, `filter[field]=v`,
 * `filter[field][op]=v` (eq ne gt gte lt lte in nin like null), through a relation `filter[author.username]=ada` or
 * `filter[tags.name]=dragons`, `fields=id,title`, `populate=author`, `count=false`.
 * Only declared, visible fields can be filtered, sorted or selected; anything else, a repeated key or a value of
 * the wrong type is a 400 naming the parameter (`/query/filter[age][gt]`).
 */
import type {FilterQuery} from '@mikro-orm/core'
import {badRequest, type ProblemItem} from './problem.js'
import type {FieldDefinition} from '../../schemas/types/entity.js'
import {parseScalar, type EntityModel} from './model.js'

export const defaultLimit = 20
export const maxLimit = 100

/** A parsed list query, ready for MikroORM. */
export interface ListQuery {
  page: number
  /** Rows to skip: `offset`, else `(page - 1) * limit`. */
  offset: number
  /** Whether the client paged by `offset` (the answer's `meta` then says `offset`, not `page`). */
  byOffset: boolean
  limit: number
  orderBy: Record<string, 'asc' | 'desc'>
  where: FilterQuery<Record<string, unknown>>
  fields?: string[]
  populate: string[]
  count: boolean
}

const operators = {eq: '$eq', ne: '$ne', gt: '$gt', gte: '$gte', lt: '$lt', lte: '$lte', in: '$in', nin: '$nin', like: '$like', null: 'null'} as const
type Operator = keyof typeof operators

const filterKey = /^filter\[([^\][]+)\](?:\[([^\][]+)\])?$/

/** How the database matches `like`: PostgreSQL's LIKE is case-sensitive, so it gets ILIKE like the others' LIKE. */
export interface QueryOptions {
  likeOperator?: '$like' | '$ilike'
  /** Every entity's model by name, to filter through relations (`filter[author.username]=ada`). */
  models?: ReadonlyMap<string, EntityModel>
  /** The SQL of a computed field for `sort` and `filter` (a `raw()` key), when the model has any. */
  computedSql?: (name: string) => unknown
}

/**
 * Parse the query of a list (or, with `forCount`, a count: only filters). A many-to-one or one-to-one relation
 * filters by the related key: `filter[author]=2`.
 */
export function parseListQuery(query: Record<string, unknown>, model: EntityModel, forCount = false, options: QueryOptions = {}): ListQuery {
  const problems: ProblemItem[] = []
  const fail = (parameter: string, detail: string, code = 'invalid') => problems.push({pointer: `/query/${parameter}`, code, detail})
  const single = (key: string): string | undefined => {
    const value = query[key]
    if (Array.isArray(value)) {
      fail(key, `\`${key}\` is given ${value.length} times; give it once`, 'repeated')
      return undefined
    }
    return value === undefined ? undefined : String(value)
  }
  const visible = (name: string) => model.fields.get(name)?.visible === true || model.computed.has(name)
  const filterable = (name: string) => visible(name) || ['many-to-one', 'one-to-one'].includes(model.relations.get(name)?.kind ?? '')
  const result: ListQuery = {page: 1, offset: 0, byOffset: false, limit: defaultLimit, orderBy: {}, where: {}, populate: [], count: true}
  const where: Record<string, Record<string, unknown> | unknown> = {}

  for (const key of Object.keys(query)) {
    const text = single(key)
    if (text === undefined) continue
    const filter = filterKey.exec(key)
    if (filter && filter[1].includes('.')) {
      const [, path, op = 'eq'] = filter
      const [relation, field] = path.split('.', 2)
      const target = model.relations.has(relation) ? options.models?.get(model.relations.get(relation)!.entity) : undefined
      if (!target || path.split('.').length !== 2 || target.fields.get(field)?.visible !== true) {
        fail(key, `Unknown field \`${path}\`; filter through a relation as \`<relation>.<field>\`: ${[...model.relations.keys()].map((name) => `\`${name}.…\``).join(', ') || 'this entity has none'}`, 'unknown-field')
      } else if (!(op in operators)) fail(key, `Unknown operator \`${op}\`; expected one of ${Object.keys(operators).join(', ')}`, 'unknown-operator')
      else {
        const condition = filterCondition(target.fields.get(field)!.type, op as Operator, text, options.likeOperator ?? '$like')
        if (condition === undefined) fail(key, `\`${text}\` is not a valid value for \`${path}\` with \`${op}\``, 'invalid-value')
        else {
          const inner = ((where[relation] as Record<string, unknown>) ??= {})
          inner[field] = op === 'null' ? condition : {...((inner[field] as object) ?? {}), ...(condition as object)}
        }
      }
      continue
    }
    if (filter && model.computed.has(filter[1]) && options.computedSql) {
      const [, field, op = 'eq'] = filter
      const flag = model.computed.get(field)!.kind === 'viewerIn'
      const condition = flag ? (text === 'true' && op === 'eq' ? {$gt: 0} : text === 'false' && op === 'eq' ? {$eq: 0} : undefined) : filterCondition('integer', op as Operator, text, '$like')
      if (!(op in operators) || condition === undefined || op === 'like' || op === 'null') fail(key, `\`${text}\` with \`${op}\` does not fit the computed field \`${field}\` (${flag ? 'true or false' : 'a whole number'})`, 'invalid-value')
      else where[options.computedSql(field) as string] = condition
      continue
    }
    if (filter) {
      const [, field, op = 'eq'] = filter
      if (!filterable(field)) fail(key, `Unknown field \`${field}\`; filter on ${listOf(model)}`, 'unknown-field')
      else if (!(op in operators)) fail(key, `Unknown operator \`${op}\`; expected one of ${Object.keys(operators).join(', ')}`, 'unknown-operator')
      else {
        const type = model.fields.get(field)?.type ?? 'integer'
        const condition = filterCondition(type, op as Operator, text, options.likeOperator ?? '$like')
        if (condition === undefined) fail(key, `\`${text}\` is not a valid value for \`${field}\` (${type}) with \`${op}\``, 'invalid-value')
        else where[field] = op === 'null' ? condition : {...((where[field] as object) ?? {}), ...(condition as object)}
      }
      continue
    }
    if (forCount) {
      fail(key, `Unknown parameter \`${key}\`; a count takes \`filter[…]\` only`, 'unknown-parameter')
      continue
    }
    switch (key) {
      case 'offset': {
        const value = /^\d{1,9}$/.test(text) ? Number(text) : NaN
        if (Number.isNaN(value)) fail(key, '`offset` must be a whole number from 0', 'out-of-range')
        else if (query.page !== undefined) fail(key, 'Give `page` or `offset`, not both', 'conflict')
        else {
          result.offset = value
          result.byOffset = true
        }
        break
      }
      case 'page':
      case 'limit': {
        const value = /^\d{1,9}$/.test(text) ? Number(text) : NaN
        if (key === 'page' && !(value >= 1)) fail(key, '`page` must be a whole number from 1', 'out-of-range')
        else if (key === 'limit' && !(value >= 1 && value <= maxLimit)) fail(key, `\`limit\` must be a whole number from 1 to ${maxLimit}`, 'out-of-range')
        else result[key] = value
        break
      }
      case 'sort':
        for (const part of text.split(',')) {
          const name = part.startsWith('-') ? part.slice(1) : part
          if (!visible(name)) fail(key, `Unknown field \`${name}\` in \`sort\`; sort on ${listOf(model)}`, 'unknown-field')
          else if (model.computed.has(name) && options.computedSql) result.orderBy[options.computedSql(name) as string] = part.startsWith('-') ? 'desc' : 'asc'
          else result.orderBy[name] = part.startsWith('-') ? 'desc' : 'asc'
        }
        break
      case 'fields': {
        const names = text.split(',').filter(Boolean)
        const unknown = names.filter((name) => !visible(name))
        if (unknown.length > 0 || names.length === 0) fail(key, `Unknown field(s) ${unknown.map((name) => `\`${name}\``).join(', ') || '(none given)'} in \`fields\`; select from ${listOf(model)}`, 'unknown-field')
        else result.fields = [...new Set([model.primaryKey, ...names])]
        break
      }
      case 'populate':
        for (const name of text.split(',').filter(Boolean)) {
          if (!model.relations.has(name)) fail(key, `Unknown relation \`${name}\`; populate ${[...model.relations.keys()].map((item) => `\`${item}\``).join(', ') || 'nothing (no relations)'}`, 'unknown-relation')
          else result.populate.push(name)
        }
        break
      case 'count':
        if (text !== 'true' && text !== 'false') fail(key, '`count` must be `true` or `false`', 'invalid-value')
        else result.count = text === 'true'
        break
      default:
        fail(key, `Unknown parameter \`${key}\`; a list takes page, offset, limit, sort, filter[…], fields, populate and count`, 'unknown-parameter')
    }
  }
  if (problems.length > 0) throw badRequest(problems.map((problem) => problem.detail).join('; '), problems)
  if (!result.byOffset) result.offset = (result.page - 1) * result.limit
  result.where = where as FilterQuery<Record<string, unknown>>
  return result
}

function listOf(model: EntityModel): string {
  return [...[...model.fields.values()].filter((field) => field.visible).map((field) => field.name), ...model.computed.keys()].map((name) => `\`${name}\``).join(', ')
}

/** The MikroORM condition of one filter; `undefined` when the value does not fit the field. */
function filterCondition(type: FieldDefinition['type'], op: Operator, text: string, like: '$like' | '$ilike'): unknown {
  if (op === 'null') {
    if (text !== 'true' && text !== 'false') return undefined
    return text === 'true' ? null : {$ne: null}
  }
  if (op === 'like') {
    if (text.length > 200) return undefined
    // `*` (or SQL's `%`) is a wildcard; without one, `like` means "contains".
    const pattern = text.replace(/\*/g, '%')
    return {[like]: pattern.includes('%') ? pattern : `%${pattern}%`}
  }
  if (op === 'in' || op === 'nin') {
    const values = text.split(',').map((item) => parseScalar(type, item))
    if (values.length > 100 || values.some((value) => value === undefined)) return undefined
    return {[operators[op]]: values}
  }
  const value = parseScalar(type, text)
  return value === undefined ? undefined : {[operators[op]]: value}
}
