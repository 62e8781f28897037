/**
 * The six auto-CRUD actions of 4.3, as functions of the request context, so hooks and middleware wrap them like
 * custom actions. Reads go through MikroORM's forked entity manager (`ctx.db`); `populate` loads each relation with
 * one query (`select-in`), never one per row.
 */
import {wrap, type EntityManager, type FilterQuery} from '@mikro-orm/core'
import type {EntityModel} from './model.js'
import {parseId, visibleFields} from './model.js'
import {notFound} from './problem.js'
import {computedSql as computedSql_, fillComputed} from './computed.js'
import {parseListQuery, type ListQuery, type QueryOptions} from './query.js'
import type {FastReader} from './fast-read.js'

type Row = Record<string, unknown>

/** What an action needs from the context. */
export interface CrudContext {
  db: EntityManager
  params: Record<string, string>
  query: Record<string, unknown>
  data: Row
  entity?: Row
  /** Set by an action for the response: status and headers. */
  status?: number
  headers?: Record<string, string>
  /** The request path, for `Location`. */
  path: string
  /** Prepared-statement reads (SQLite file, no hook on the route): see fast-read.ts. */
  fast?: FastReader
  /** `$ilike` on PostgreSQL, whose LIKE is case-sensitive; `$like` elsewhere. */
  likeOperator?: '$like' | '$ilike'
  /** Every entity's model, for filters through relations. */
  models?: ReadonlyMap<string, EntityModel>
  /** Who asks (`{id}`), for computed fields that depend on the viewer. */
  user?: unknown
}

export type CrudAction = 'list' | 'read' | 'create' | 'update' | 'replace' | 'delete' | 'count'

/**
 * Serialize an entity as the API shows it: no hidden or password fields, selected `fields` only. A list relation
 * (one-to-many, many-to-many) shows only when populated or writable: a `followers` list a client cannot set would
 * otherwise grow every answer with keys nobody asked for.
 */
export function present(model: EntityModel, entity: object, fields?: string[], populate: string[] = []): Row {
  const plain = wrap(entity).toObject() as Row
  const related = [...model.relations].filter(([name, relation]) => relation.kind === 'many-to-one' || relation.kind === 'one-to-one' || model.writableRelations.has(name)).map(([name]) => name)
  const shown = new Set(fields ?? [...visibleFields(model), ...related])
  const out: Row = {}
  for (const [key, value] of Object.entries(plain)) {
    if (!shown.has(key) && !populate.includes(key)) continue
    const field = model.fields.get(key)
    if (field && !field.visible) continue
    // A many-to-one that is not populated is its key, even when the related entity happens to be loaded already
    // (the authenticated user that `from: "user"` put there).
    const relation = model.relations.get(key)
    const related = (entity as Row)[key]
    if (relation && !populate.includes(key) && value && typeof value === 'object' && !Array.isArray(value) && related && typeof related === 'object') {
      out[key] = wrap(related, true).getPrimaryKey()
      continue
    }
    out[key] = value
  }
  return out
}

function idOf(model: EntityModel, context: CrudContext): unknown {
  const id = parseId(model, context.params.id ?? '')
  if (id === undefined) throw notFound(`No ${model.name} \`${context.params.id}\``)
  return id
}

async function findOne(model: EntityModel, context: CrudContext, populate: string[] = []): Promise<object> {
  const id = idOf(model, context)
  const entity = await context.db.findOne(model.name, {[model.primaryKey]: id} as FilterQuery<object>, {populate: populate as never[]})
  if (!entity) throw notFound(`No ${model.name} \`${context.params.id}\``)
  return entity
}

/** Run one auto-CRUD action; resolves to the response body (undefined for 204). */
export async function runCrud(action: CrudAction, model: EntityModel, context: CrudContext): Promise<unknown> {
  // The entity manager is forked on first use: the prepared-statement reads never need it.
  const db = () => context.db
  const viewer = (context.user as {id?: unknown} | null | undefined)?.id
  const computedSql = model.computed.size > 0 ? (name: string) => computedSql_(db(), model, model.computed.get(name)!, viewer) : undefined
  const options = {likeOperator: context.likeOperator, models: context.models, computedSql}
  // Answers carry the computed fields a `fields` selection keeps (all of them without one), one query per field.
  const finish = async <T extends Row | Row[]>(answer: T, fields?: string[]): Promise<T> => {
    if (model.computed.size > 0) await fillComputed(db(), model, Array.isArray(answer) ? answer : [answer], viewer, fields)
    return answer
  }
  const stored = (fields?: string[]) => fields?.filter((name) => !model.computed.has(name))
  switch (action) {
    case 'list':
      return listAction(model, context, options, finish, stored)
    case 'count': {
      const query = parseListQuery(context.query, model, true, options)
      return {count: await db().count(model.name, query.where)}
    }
    case 'read': {
      const populate = context.query.populate === undefined && context.query.fields === undefined ? {populate: [] as string[], fields: undefined} : parseListQuery(pick(context.query, ['populate', 'fields']), model)
      if (context.fast?.supports(model) && model.computed.size === 0 && !populate.fields && populate.populate.length === 0) {
        const row = context.fast.read(model, idOf(model, context))
        if (!row) throw notFound(`No ${model.name} \`${context.params.id}\``)
        return row
      }
      const entity = await findOne(model, context, populate.populate)
      context.entity = entity as Row
      return finish(present(model, entity, populate.fields, populate.populate), populate.fields)
    }
    case 'create': {
      const em = db()
      const entity = em.create(model.name, withDefaults(model, context.data))
      context.entity = entity as Row
      await em.flush()
      const id = (entity as Row)[model.primaryKey]
      context.status = 201
      context.headers = {location: `${context.path.replace(/\/+$/, '')}/${encodeURIComponent(String(id))}`}
      return finish(present(model, entity))
    }
    case 'update':
    case 'replace': {
      const em = db()
      const entity = await findOne(model, context)
      context.entity = entity as Row
      const data = action === 'replace' ? replacement(model, context.data) : context.data
      em.assign(entity, data)
      await em.flush()
      return finish(present(model, entity))
    }
    case 'delete': {
      const em = db()
      const entity = await findOne(model, context)
      context.entity = entity as Row
      if (model.softDelete) {
        ;(entity as Row).deletedAt = new Date()
      } else {
        em.remove(entity)
      }
      await em.flush()
      context.status = 204
      return undefined
    }
  }
}

/** The list action: one page of records (prepared statements when nothing needs the ORM), with its `meta`. */
async function listAction(
  model: EntityModel,
  context: CrudContext,
  options: QueryOptions,
  finish: <T extends Row | Row[]>(answer: T, fields?: string[]) => Promise<T>,
  stored: (fields?: string[]) => string[] | undefined
): Promise<unknown> {
  const db = () => context.db
  const query = parseListQuery(context.query, model, false, options)
  if (context.fast?.supports(model) && model.computed.size === 0 && Object.keys(query.where).length === 0 && !query.fields && query.populate.length === 0) {
    const {rows, total} = context.fast.list(model, {limit: query.limit, offset: query.offset, orderBy: query.orderBy, count: query.count})
    return {data: rows, meta: pageMeta(query, total)}
  }
  const findOptions = {
    limit: query.limit,
    offset: query.offset,
    orderBy: Object.keys(query.orderBy).length > 0 ? query.orderBy : {[model.primaryKey]: 'asc' as const},
    fields: stored(query.fields) as never[] | undefined,
    populate: query.populate as never[],
    strategy: 'select-in' as const
  }
  if (!query.count) {
    const rows = await db().find(model.name, query.where, findOptions)
    return {data: await finish(rows.map((row) => present(model, row, query.fields, query.populate)), query.fields), meta: pageMeta(query)}
  }
  const [rows, total] = await db().findAndCount(model.name, query.where, findOptions)
  return {data: await finish(rows.map((row) => present(model, row, query.fields, query.populate)), query.fields), meta: pageMeta(query, total)}
}

/** A list answer's `meta`: `{page, limit, total, pages}`, or `{offset, limit, total}` for a client that pages by offset. */
function pageMeta(query: ListQuery, total?: number): Record<string, number> {
  const position: Record<string, number> = query.byOffset ? {offset: query.offset} : {page: query.page}
  if (total === undefined) return {...position, limit: query.limit}
  return query.byOffset ? {...position, limit: query.limit, total} : {...position, limit: query.limit, total, pages: Math.ceil(total / query.limit)}
}

/** A create body with every writable field not given set to its default (or null), so the answer shows them all. */
function withDefaults(model: EntityModel, data: Row): Row {
  const full: Row = {}
  for (const field of model.fields.values()) {
    if (field.writable && !field.definition.primary && data[field.name] === undefined) full[field.name] = structuredClone(field.definition.default) ?? null
  }
  return {...full, ...data}
}

/** A PUT body: every writable field not given is reset (to its default, or null). */
function replacement(model: EntityModel, data: Row): Row {
  const full: Row = {}
  for (const field of model.fields.values()) {
    if (!field.writable || field.definition.primary) continue
    full[field.name] = field.definition.default ?? null
  }
  for (const [name, relation] of model.relations) {
    if (relation.kind === 'many-to-one' || relation.kind === 'one-to-one') full[name] = null
    if (relation.kind === 'many-to-many') full[name] = []
  }
  return {...full, ...data}
}

function pick(query: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([key]) => keys.includes(key)))
}
