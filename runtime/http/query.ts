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

/** The condition that matches a LIKE `pattern` whose `%`, `_` and `\` stand for themselves when escaped with `\`. */
export type LikeMatch = (pattern: string) => Record<string, unknown>

/** What a list query needs to know of the database and the other entities. */
export interface QueryOptions {
  /** How the database matches `like` (default: `$like` with `\` as its escape character, as on MySQL and MariaDB). */
  likeMatch?: LikeMatch
  /** Every entity's model by name, to filter through relations (`filter[author.username]=ada`). */
  models?: ReadonlyMap<string, EntityModel>
  /** The SQL of a computed field for `sort` and `filter` (a `raw()` key), when the model has any. */
  computedSql?: (name: string) => unknown
}

/**
 * Parse the query of a list (or, with `forCount`, a count: only filters). A many-to-one or one-to-one relation
 * filters by the related key: `filter[author]=2`.
 */
/**
 * What a query is for: a `list` takes every list parameter, a `count` only `filter[…]`, and a `record` (a read, link
 * or unlink) only `fields` and `populate`; any other parameter is a 400 naming it.
 */
export type QueryTarget = 'list' | 'count' | 'record'

export function parseListQuery(query: Record<string, unknown>, model: EntityModel, target: QueryTarget = 'list', options: QueryOptions = {}): ListQuery {
  const parse: Parse = {
    model,
    options,
    problems: [],
    result: {page: 1, offset: 0, byOffset: false, limit: defaultLimit, orderBy: {}, where: {}, populate: [], count: true},
    where: {},
    fail(parameter, detail, code = 'invalid') {
      this.problems.push({pointer: `/query/${parameter}`, code, detail})
    }
  }
  for (const key of Object.keys(query)) {
    const value = query[key]
    if (Array.isArray(value)) {
      parse.fail(key, `\`${key}\` is given ${value.length} times; give it once`, 'repeated')
      continue
    }
    if (value === undefined) continue
    if (target === 'record' && key !== 'fields' && key !== 'populate') {
      parse.fail(key, `Unknown parameter \`${key}\`; a record takes fields and populate`, 'unknown-parameter')
      continue
    }
    const text = String(value)
    const filter = filterKey.exec(key)
    if (filter && filter[1].includes('.')) relationFilter(parse, key, filter[1], filter[2] ?? 'eq', text)
    else if (filter && model.computed.has(filter[1]) && options.computedSql) computedFilter(parse, key, filter[1], filter[2] ?? 'eq', text)
    else if (filter) fieldFilter(parse, key, filter[1], filter[2] ?? 'eq', text)
    else if (target === 'count') parse.fail(key, `Unknown parameter \`${key}\`; a count takes \`filter[…]\` only`, 'unknown-parameter')
    else listParameter(parse, key, text, query.page !== undefined)
  }
  const {problems, result} = parse
  if (problems.length > 0) throw badRequest(problems.map((problem) => problem.detail).join('; '), problems)
  if (!result.byOffset) result.offset = (result.page - 1) * result.limit
  result.where = parse.where as FilterQuery<Record<string, unknown>>
  return result
}

/** What the parameter parsers share while one query is read. */
interface Parse {
  model: EntityModel
  options: QueryOptions
  problems: ProblemItem[]
  result: ListQuery
  where: Record<string, unknown>
  fail(parameter: string, detail: string, code?: string): void
}

const visible = (model: EntityModel, name: string) => model.fields.get(name)?.visible === true || model.computed.has(name)

/** `filter[field]` and `filter[field][op]`; a many-to-one or one-to-one filters by the related key. */
function fieldFilter(parse: Parse, key: string, field: string, op: string, text: string): void {
  const {model, options, where} = parse
  const filterable = visible(model, field) || ['many-to-one', 'one-to-one'].includes(model.relations.get(field)?.kind ?? '')
  if (!filterable) return parse.fail(key, `Unknown field \`${field}\`; filter on ${listOf(model, true)}`, 'unknown-field')
  if (!(op in operators)) return parse.fail(key, `Unknown operator \`${op}\`; expected one of ${Object.keys(operators).join(', ')}`, 'unknown-operator')
  const type = model.fields.get(field)?.type ?? 'integer'
  const condition = filterCondition(type, op as Operator, text, options.likeMatch ?? defaultLike)
  if (condition === undefined) return parse.fail(key, `\`${text}\` is not a valid value for \`${field}\` (${type}) with \`${op}\``, 'invalid-value')
  where[field] = op === 'null' ? condition : {...((where[field] as object) ?? {}), ...(condition as object)}
}

/** `filter[relation.field]`: a visible field of the related entity, through one join. */
function relationFilter(parse: Parse, key: string, path: string, op: string, text: string): void {
  const {model, options, where} = parse
  const [relation, field] = path.split('.', 2)
  const target = model.relations.has(relation) ? options.models?.get(model.relations.get(relation)!.entity) : undefined
  if (!target || path.split('.').length !== 2 || target.fields.get(field)?.visible !== true) {
    return parse.fail(key, `Unknown field \`${path}\`; filter through a relation as \`<relation>.<field>\`: ${[...model.relations.keys()].map((name) => `\`${name}.…\``).join(', ') || 'this entity has none'}`, 'unknown-field')
  }
  if (!(op in operators)) return parse.fail(key, `Unknown operator \`${op}\`; expected one of ${Object.keys(operators).join(', ')}`, 'unknown-operator')
  const condition = filterCondition(target.fields.get(field)!.type, op as Operator, text, options.likeMatch ?? defaultLike)
  if (condition === undefined) return parse.fail(key, `\`${text}\` is not a valid value for \`${path}\` with \`${op}\``, 'invalid-value')
  const inner = ((where[relation] as Record<string, unknown>) ??= {})
  inner[field] = op === 'null' ? condition : {...((inner[field] as object) ?? {}), ...(condition as object)}
}

/** `filter[favoritesCount][gte]=1` (a whole number) or `filter[favorited]=true` (the viewer's presence). */
function computedFilter(parse: Parse, key: string, field: string, op: string, text: string): void {
  const flag = parse.model.computed.get(field)!.kind === 'viewerIn'
  const condition = flag ? (op === 'eq' && text === 'true' ? {$gt: 0} : op === 'eq' && text === 'false' ? {$eq: 0} : undefined) : filterCondition('integer', op as Operator, text, defaultLike)
  if (!(op in operators) || condition === undefined || op === 'like' || op === 'null') {
    return parse.fail(key, `\`${text}\` with \`${op}\` does not fit the computed field \`${field}\` (${flag ? 'true or false' : 'a whole number'})`, 'invalid-value')
  }
  parse.where[parse.options.computedSql!(field) as string] = condition
}

/** A paging parameter's problem: a number past its bounds (`limit=500`, `page=-1`) is out of range; anything else (`abc`) is not a number. */
const numberCode = (text: string) => (/^-?\d+$/.test(text.trim()) ? 'out-of-range' : 'invalid-value')

/** `page`, `offset`, `limit`, `sort`, `fields`, `populate` and `count`. */
function listParameter(parse: Parse, key: string, text: string, hasPage: boolean): void {
  const {model, options, result} = parse
  const whole = /^\d{1,9}$/.test(text) ? Number(text) : NaN
  switch (key) {
    case 'offset':
      if (Number.isNaN(whole)) return parse.fail(key, '`offset` must be a whole number from 0', numberCode(text))
      if (hasPage) return parse.fail(key, 'Give `page` or `offset`, not both', 'conflict')
      result.offset = whole
      result.byOffset = true
      return
    case 'page':
      if (!(whole >= 1)) return parse.fail(key, '`page` must be a whole number from 1', numberCode(text))
      result.page = whole
      return
    case 'limit':
      if (!(whole >= 1 && whole <= maxLimit)) return parse.fail(key, `\`limit\` must be a whole number from 1 to ${maxLimit}`, numberCode(text))
      result.limit = whole
      return
    case 'sort':
      for (const part of text.split(',')) {
        const name = part.startsWith('-') ? part.slice(1) : part
        const direction = part.startsWith('-') ? 'desc' : 'asc'
        if (!visible(model, name)) parse.fail(key, `Unknown field \`${name}\` in \`sort\`; sort on ${listOf(model)}`, 'unknown-field')
        else result.orderBy[model.computed.has(name) && options.computedSql ? (options.computedSql(name) as string) : name] = direction
      }
      return
    case 'fields': {
      const names = text.split(',').filter(Boolean)
      // A many-to-one is part of the record as its key (`author: 2`): selectable as a field is.
      const unknown = names.filter((name) => !visible(model, name) && model.relations.get(name)?.kind !== 'many-to-one')
      if (unknown.length > 0 || names.length === 0) return parse.fail(key, `Unknown field(s) ${unknown.map((name) => `\`${name}\``).join(', ') || '(none given)'} in \`fields\`; select from ${listOf(model, true)}`, 'unknown-field')
      result.fields = [...new Set([model.primaryKey, ...names])]
      return
    }
    case 'populate':
      for (const name of text.split(',').filter(Boolean)) {
        if (!model.relations.has(name)) parse.fail(key, `Unknown relation \`${name}\`; populate ${[...model.relations.keys()].map((item) => `\`${item}\``).join(', ') || 'nothing (no relations)'}`, 'unknown-relation')
        else result.populate.push(name)
      }
      return
    case 'count':
      if (text !== 'true' && text !== 'false') return parse.fail(key, '`count` must be `true` or `false`', 'invalid-value')
      result.count = text === 'true'
      return
    default:
      parse.fail(key, `Unknown parameter \`${key}\`; a list takes page, offset, limit, sort, filter[…], fields, populate and count`, 'unknown-parameter')
  }
}

/** The names a parameter takes, for its error: visible fields and computed ones, and the many-to-ones where it takes them. */
function listOf(model: EntityModel, withManyToOne = false): string {
  const manyToOne = withManyToOne ? [...model.relations].filter(([, relation]) => relation.kind === 'many-to-one').map(([name]) => name) : []
  return [...[...model.fields.values()].filter((field) => field.visible).map((field) => field.name), ...model.computed.keys(), ...manyToOne].map((name) => `\`${name}\``).join(', ')
}

/** `$like` as MySQL, MariaDB (and PostgreSQL, case-sensitively) read it: `\` escapes by default there. */
const defaultLike: LikeMatch = (pattern) => ({$like: pattern})

/** `text` as a LIKE pattern that matches it literally: `%`, `_` and the escape character `\` escaped. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`)
}

/** The MikroORM condition of one filter; `undefined` when the value does not fit the field. */
function filterCondition(type: FieldDefinition['type'], op: Operator, text: string, like: LikeMatch): unknown {
  if (op === 'null') {
    if (text !== 'true' && text !== 'false') return undefined
    return text === 'true' ? null : {$ne: null}
  }
  if (op === 'like') {
    if (text.length > 200 || text.includes('\0')) return undefined
    // `*` is the one wildcard; without one, `like` means "contains". Everything else is matched as written: SQL's
    // own wildcards `%` and `_` (`filter[title][like]=100%` finds "100% done", not every title from "100").
    const pattern = text.split('*').map(likeLiteral).join('%')
    return like(text.includes('*') ? pattern : `%${pattern}%`)
  }
  if (op === 'in' || op === 'nin') {
    const values = text.split(',').map((item) => parseScalar(type, item))
    if (values.length > 100 || values.some((value) => value === undefined)) return undefined
    return {[operators[op]]: values}
  }
  const value = parseScalar(type, text)
  return value === undefined ? undefined : {[operators[op]]: value}
}
