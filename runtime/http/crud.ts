/**
 * The six auto-CRUD actions of 4.3, as functions of the request context, so hooks and middleware wrap them like
 * custom actions. Reads go through MikroORM's forked entity manager (`ctx.db`); `populate` loads each relation with
 * one query (`select-in`), never one per row.
 */
import {wrap, type Collection, type EntityManager, type FilterQuery} from '@mikro-orm/core'
import type {EntityModel} from './model.js'
import {answeredRelations, parseId, visibleFields} from './model.js'
import {HttpProblem, notFound} from './problem.js'
import {computedSql as computedSql_, fillComputed} from './computed.js'
import {parseListQuery, type LikeMatch, type ListQuery, type QueryOptions} from './query.js'
import type {FastReader} from './fast-read.js'
import type {OutboxEvent} from '../events/outbox.js'
import type {FastWriter} from './fast-write.js'
import {applyScopeToCreate, requireScopeParents, recordFilter, routeQuery, scopeFilter, type RouteScope} from './scope.js'
import {answeredBy, resolveByRelations} from './relations-by.js'

type Row = Record<string, unknown>

/** What an action needs from the context. */
export interface CrudContext {
  db: EntityManager
  params: Record<string, string>
  query: Record<string, unknown>
  data: Row
  entity?: Row
  /** The record a delete removed as a read showed it, computed fields filled (for its `deleted` event). */
  deleted?: Row
  /** Set by an action for the response: status and headers. */
  status?: number
  headers?: Record<string, string>
  /** The request path, for `Location`. */
  path: string
  /** Prepared-statement reads (SQLite file or PostgreSQL, no hook on the route): see fast-read.ts. */
  fast?: FastReader
  /** A prepared-statement create (SQLite file, a plain model, no hook on the route): see fast-write.ts. */
  fastWrite?: FastWriter
  /** The events of a prepared create's answer, written to the outbox in its transaction. */
  createdEvents?: (answer: Row) => ReadonlyArray<OutboxEvent>
  /** How the database matches `like` (orm.ts). */
  likeMatch?: LikeMatch
  /** Every entity's model, for filters through relations. */
  models?: ReadonlyMap<string, EntityModel>
  /** Who asks (`{id}`), for computed fields that depend on the viewer. */
  user?: unknown
  /** What the route declares about its records: lookup field, `where`, `query` names, `defaults`, link relation. */
  route?: RouteScope
}

export type CrudAction = 'list' | 'read' | 'create' | 'update' | 'replace' | 'delete' | 'count' | 'link' | 'unlink'

/**
 * Serialize an entity as the API shows it: no hidden or password fields, selected `fields` only. A list relation
 * (one-to-many, many-to-many) shows only when populated or writable: a `followers` list a client cannot set would
 * otherwise grow every answer with keys nobody asked for.
 */
export function present(model: EntityModel, entity: object, fields?: string[], populate: string[] = []): Row {
  const plain = wrap(entity).toObject() as Row
  const related = [...model.relations].filter(([name, relation]) => relation.kind === 'many-to-one' || relation.kind === 'one-to-one' || relation.by || model.writableRelations.has(name)).map(([name]) => name)
  const shown = new Set(fields ?? [...visibleFields(model), ...related])
  const out: Row = {}
  for (const [key, value] of Object.entries(plain)) {
    if (!shown.has(key) && !populate.includes(key)) continue
    const field = model.fields.get(key)
    if (field && !field.visible) continue
    const relation = model.relations.get(key)
    const related = (entity as Row)[key]
    if (relation?.by) {
      out[key] = answeredBy(relation, related)
      continue
    }
    if (relation?.fields && populate.includes(key) && value && typeof value === 'object') {
      const target = (item: unknown) => wrap(item as object, true).getPrimaryKey()
      out[key] = Array.isArray(value) ? (related as Collection<object>).getItems().map((item) => pickFields(wrap(item).toObject() as Row, relation.fields!, target(item))) : pickFields(value as Row, relation.fields, target(related))
      continue
    }
    // A many-to-one that is not populated is its key, even when the related entity happens to be loaded already
    // (the authenticated user that `from: "user"` put there); a writable list not populated, its keys.
    if (relation && !populate.includes(key) && value && typeof value === 'object' && related && typeof related === 'object') {
      out[key] = Array.isArray(value) ? (related as Collection<object>).getItems().map((item) => wrap(item, true).getPrimaryKey()) : wrap(related, true).getPrimaryKey()
      continue
    }
    out[key] = value
  }
  return out
}

/** The fields a populated relation shows (its `fields`); computed ones are filled later, by {@link fillNested}. */
function pickFields(record: Row, fields: readonly string[], key: unknown): Row {
  const picked = Object.fromEntries(fields.filter((name) => name in record).map((name) => [name, record[name]]))
  nestedKeys.set(picked, key)
  return picked
}

/** The key of each nested record that shows only its relation's `fields`, for filling their computed fields. */
const nestedKeys = new WeakMap<Row, unknown>()

/** How a request names its record, for a 404's detail. */
function named(model: EntityModel, context: CrudContext): string {
  const param = context.route?.lookup?.param ?? 'id'
  return `No ${model.name} \`${context.params[param] ?? ''}\``
}

/** The key of the route's record when the key alone finds it (the prepared-statement read), else undefined. */
function plainId(model: EntityModel, context: CrudContext): unknown {
  if (context.route?.where || (context.route?.lookup && context.route.lookup.field !== model.primaryKey)) return undefined
  const id = parseId(model, context.params[context.route?.lookup?.param ?? 'id'] ?? '')
  if (id === undefined) throw notFound(named(model, context))
  return id
}

async function findOne(model: EntityModel, context: CrudContext, populate: string[] = []): Promise<object> {
  const where = recordFilter(context.route, model, context)
  if (!where) throw notFound(named(model, context))
  const entity = await context.db.findOne(model.name, where as FilterQuery<object>, {populate: [...new Set([...populate, ...answeredRelations(model)])] as never[]})
  if (!entity) throw notFound(named(model, context))
  return entity
}

/** Run one auto-CRUD action; resolves to the response body (undefined for 204). */
export async function runCrud(action: CrudAction, model: EntityModel, context: CrudContext): Promise<unknown> {
  // The entity manager is forked on first use: the prepared-statement reads never need it.
  const db = () => context.db
  const viewer = (context.user as {id?: unknown} | null | undefined)?.id
  const computedSql = model.computed.size > 0 ? (name: string) => computedSql_(db(), model, model.computed.get(name)!, viewer) : undefined
  const options = {likeMatch: context.likeMatch, models: context.models, computedSql}
  // Answers carry the computed fields a `fields` selection keeps (all of them without one), one query per field.
  const finish = async <T extends Row | Row[]>(answer: T, fields?: string[], populate: string[] = []): Promise<T> => {
    const rows = (Array.isArray(answer) ? answer : [answer]) as Row[]
    if (model.computed.size > 0) await fillComputed(db(), model, rows, viewer, fields)
    await fillNested(db(), model, rows, populate, viewer, context.models)
    return answer
  }
  const stored = (fields?: string[]) => fields?.filter((name) => !model.computed.has(name))
  // A write answers the record as the route's reads show it: with the relations its `defaults` populate.
  const answerWrite = async (entity: object) => {
    const populate = context.route?.defaults?.populate ? parseListQuery({populate: context.route.defaults.populate}, model).populate : []
    if (populate.length > 0) await db().populate(entity, populate as never[], {refresh: false})
    return finish(present(model, entity, undefined, populate), undefined, populate)
  }
  const query = routeQuery(context.route, context.query)
  switch (action) {
    case 'list':
      return listAction(model, context, query, options, finish, stored)
    case 'count': {
      const parsed = parseListQuery(query, model, 'count', options)
      const count = await db().count(model.name, withScope(parsed.where, scopeFilter(context.route, model, context)))
      if (count === 0) await requireScopeParents(context.route, model, context, db())
      return {count}
    }
    case 'read':
    case 'link':
    case 'unlink': {
      // A record is shaped by `fields` and `populate` only (the parser refuses anything else).
      const populate = Object.keys(query).length === 0 ? {populate: [] as string[], fields: undefined} : parseListQuery(query, model, 'record')
      const id = action === 'read' ? plainId(model, context) : undefined
      if (id !== undefined && context.fast?.supports(model) && model.computed.size === 0 && !populate.fields && populate.populate.length === 0) {
        const row = await context.fast.read(model, id)
        if (!row) throw notFound(named(model, context))
        return row
      }
      const entity = await findOne(model, context, populate.populate)
      context.entity = entity as Row
      if (action !== 'read') await linkViewer(db(), model, entity, action, context)
      return finish(present(model, entity, populate.fields, populate.populate), populate.fields, populate.populate)
    }
    case 'create':
      return createAction(model, context, answerWrite)
    case 'update':
    case 'replace': {
      const em = db()
      const entity = await findOne(model, context)
      context.entity = entity as Row
      const data = action === 'replace' ? replacement(model, context.data) : context.data
      await resolveByRelations(em, model, data)
      em.assign(entity, data)
      touchForLists(model, entity, data)
      await em.flush()
      return answerWrite(entity)
    }
    case 'delete': {
      const em = db()
      const entity = await findOne(model, context)
      context.entity = entity as Row
      // Computed fields (`favoritesCount`) are read from the database: before the record leaves it.
      if (model.computed.size > 0) context.deleted = await finish(present(model, entity))
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

/** The create action: a prepared insert when the route allows one (see fast-write.ts), else through the entity. */
async function createAction(model: EntityModel, context: CrudContext, answerWrite: (entity: object) => Promise<Row>): Promise<Row> {
  if (context.fastWrite?.accepts(model, context.data)) {
    const row = await context.fastWrite.create(model, withDefaults(model, context.data), context.createdEvents)
    context.entity = row
    context.status = 201
    context.headers = {location: locationOf(model, row, context)}
    return row
  }
  const em = context.db
  await applyScopeToCreate(context.route, model, context, em)
  await resolveByRelations(em, model, context.data)
  const entity = em.create(model.name, withDefaults(model, context.data))
  context.entity = entity as Row
  await em.flush()
  context.status = 201
  context.headers = {location: locationOf(model, entity as Row, context)}
  return answerWrite(entity)
}

/**
 * A write that changes only a many-to-many list (`tags`) changes the record to its readers: the ORM bumps
 * `updatedAt` (and sees an update, which its `updated` event follows) only for a change to the record's own columns.
 */
function touchForLists(model: EntityModel, entity: object, data: Record<string, unknown>): void {
  if (!model.definition.timestamps) return
  const changed = Object.keys(data).some((name) => model.relations.get(name)?.kind === 'many-to-many' && (entity as Record<string, Collection<object>>)[name]?.isDirty?.())
  if (changed) (entity as Row).updatedAt = new Date()
}

/** Add or remove the current user in the route's many-to-many relation of the record (a favorite, a follow). */
async function linkViewer(em: EntityManager, model: EntityModel, entity: object, action: 'link' | 'unlink', context: CrudContext): Promise<void> {
  const name = context.route?.relation ?? ''
  const relation = model.relations.get(name)
  const user = context.user as {id?: unknown} | null | undefined
  if (!relation) throw new HttpProblem(500, `The ${action} route of ${model.name} names no relation of it: \`${name}\``)
  if (!user?.id) throw new HttpProblem(401, `Only a signed-in user can ${action} this ${model.name}`, {headers: {'www-authenticate': 'Bearer'}})
  const list = (entity as Record<string, Collection<object>>)[name]
  if (!list.isInitialized()) await list.init()
  const reference = em.getReference(relation.entity, user.id as never)
  if (action === 'link' && !list.contains(reference, false)) list.add(reference)
  if (action === 'unlink') list.remove(reference)
  await em.flush()
}

/** `Location` of a created record: the controller's read route by its lookup field, else the create path and key. */
function locationOf(model: EntityModel, entity: Row, context: CrudContext): string {
  const location = context.route?.location
  if (!location) return `${context.path.replace(/\/+$/, '')}/${encodeURIComponent(String(entity[model.primaryKey]))}`
  const last = [...location.path.matchAll(/\{([^}]+)\}/g)].at(-1)?.[1]
  return location.path.replace(/\{([^}]+)\}/g, (_, param: string) => encodeURIComponent(String(param === last ? entity[location.field] : context.params[param])))
}

/** Combine a list query's filter with the route's `where`. */
function withScope(where: FilterQuery<Row>, scope: FilterQuery<Row> | undefined): FilterQuery<Row> {
  if (!scope) return where
  return Object.keys(where).length === 0 && Object.getOwnPropertySymbols(where).length === 0 ? scope : ({$and: [where, scope]} as FilterQuery<Row>)
}

/** The computed fields a populated relation's `fields` name, filled for the nested records of the answer. */
async function fillNested(em: EntityManager, model: EntityModel, rows: Row[], populate: string[], viewer: unknown, models?: ReadonlyMap<string, EntityModel>): Promise<void> {
  for (const name of populate) {
    const relation = model.relations.get(name)
    const target = relation?.fields && models?.get(relation.entity)
    if (!target || !relation.fields!.some((field) => target.computed.has(field))) continue
    const nested = rows.flatMap((row) => (row[name] ?? []) as Row[]).filter((item) => nestedKeys.has(item))
    // The nested rows show only the relation's `fields`; the computed query goes by the key each came from.
    const keyed = nested.map((item) => ({[target.primaryKey]: nestedKeys.get(item)}) as Row)
    await fillComputed(em, target, keyed, viewer, relation.fields)
    nested.forEach((item, index) => {
      for (const field of relation.fields!) if (target.computed.has(field)) item[field] = keyed[index][field]
    })
  }
}

/** The list action: one page of records (prepared statements when nothing needs the ORM), with its `meta`. */
async function listAction(
  model: EntityModel,
  context: CrudContext,
  given: Record<string, unknown>,
  options: QueryOptions,
  finish: <T extends Row | Row[]>(answer: T, fields?: string[], populate?: string[]) => Promise<T>,
  stored: (fields?: string[]) => string[] | undefined
): Promise<unknown> {
  const db = () => context.db
  const query = parseListQuery(given, model, 'list', options)
  // A list whose envelope answers its total (`articlesCount`) always counts: `count=false` is a hint it cannot take,
  // where the page's length would pose as the total.
  if (context.route?.envelope?.count) query.count = true
  query.where = withScope(query.where, scopeFilter(context.route, model, context))
  if (context.fast?.supports(model) && model.computed.size === 0 && Object.keys(query.where).length === 0 && !query.fields && query.populate.length === 0) {
    const {rows, total} = await context.fast.list(model, {limit: query.limit, offset: query.offset, orderBy: query.orderBy, count: query.count})
    return {data: rows, meta: pageMeta(query, total)}
  }
  const findOptions = {
    limit: query.limit,
    offset: query.offset,
    orderBy: Object.keys(query.orderBy).length > 0 ? query.orderBy : {[model.primaryKey]: 'asc' as const},
    // With `populate` too, whole rows: the ORM's partial loading would load the populated records as their keys only
    // (or not at all), where a read answers them whole; the answer is cut to `fields` after.
    fields: (query.populate.length > 0 ? undefined : stored(query.fields)) as never[] | undefined,
    // Relations every answer shows are loaded with the records, unless `fields` leaves them out.
    populate: [...new Set([...query.populate, ...(query.fields ? [] : answeredRelations(model))])] as never[],
    strategy: 'select-in' as const
  }
  const [rows, total] = query.count ? await db().findAndCount(model.name, query.where, findOptions) : [await db().find(model.name, query.where, findOptions), undefined]
  // Nothing under a parent that is not there (`GET /articles/nope/comments`) is a 404, not an empty list.
  if (rows.length === 0) await requireScopeParents(context.route, model, context, db())
  return {data: await finish(rows.map((row) => present(model, row, query.fields, query.populate)), query.fields, query.populate), meta: pageMeta(query, total)}
}

/** A list answer's `meta`: `{page, limit, total, pages}`, or `{offset, limit, total}` for a client that pages by offset. */
function pageMeta(query: ListQuery, total?: number): Record<string, number> {
  const position: Record<string, number> = query.byOffset ? {offset: query.offset} : {page: query.page}
  if (total === undefined) return {...position, limit: query.limit}
  return query.byOffset ? {...position, limit: query.limit, total} : {...position, limit: query.limit, total, pages: Math.ceil(total / query.limit)}
}

/**
 * A create body with every writable or `readOnly` field not given set to its default (or null), and every many-to-one
 * it may set and does not to null, so the answer (and the `created` event) shows them all, as a read of the record does
 * (`"assignee": null`, `"reviewedAt": null`).
 */
export function withDefaults(model: EntityModel, data: Row): Row {
  const full: Row = {}
  for (const field of model.fields.values()) {
    if ((field.writable || field.definition.readOnly === true) && !field.definition.primary && data[field.name] === undefined) full[field.name] = structuredClone(field.definition.default) ?? null
  }
  for (const [name, relation] of model.relations) {
    if (relation.kind === 'many-to-one' && model.writableRelations.has(name) && data[name] === undefined) full[name] = null
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
    // What the body may not set (a relation the server fills, `from: "user"`) is no part of a replacement: it keeps.
    if (!model.writableRelations.has(name)) continue
    if (relation.kind === 'many-to-one' || relation.kind === 'one-to-one') full[name] = null
    if (relation.kind === 'many-to-many') full[name] = []
  }
  return {...full, ...data}
}

