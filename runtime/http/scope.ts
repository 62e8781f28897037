/**
 * What a route declares about the records it works on, applied to one request:
 * - `where`: conditions by field path whose values come from the current user (`user`, `user.<field>`), a path
 *   parameter (`params.slug`) or the definition itself; a filter for reads and writes, assignments for a create;
 * - `query` and `defaults`: plain parameter names and default values, turned into the list query of query.ts;
 * - the lookup: the field the last path parameter names a record by (`{id}`, or a unique field such as `{slug}`).
 */
import type {EntityManager, FilterQuery} from '@mikro-orm/core'
import {parseId, parseScalar, type EntityModel} from './model.js'
import {HttpProblem, notFound} from './problem.js'
import type {FieldDefinition} from '../../schemas/types/entity.js'

type Row = Record<string, unknown>

/** The parts of a described route (routes.ts) that decide which records a request reaches. */
export interface RouteScope {
  lookup?: {param: string; field: string}
  where?: Record<string, string | number | boolean>
  queryNames?: Record<string, string>
  defaults?: Record<string, string | undefined>
  relation?: string
  location?: {path: string; field: string}
  /** The route's envelope: a `count` member answers a list's total, which is then always counted. */
  envelope?: {count?: string}
}

/** What resolving a scope needs from the request context. */
export interface ScopeContext {
  params: Record<string, string>
  query: Record<string, unknown>
  data: Row
  user?: unknown
  models?: ReadonlyMap<string, EntityModel>
}

/** The request's list query with the route's parameter names resolved and its defaults filled in. */
export function routeQuery(scope: RouteScope | undefined, query: Record<string, unknown>): Record<string, unknown> {
  if (!scope?.queryNames && !scope?.defaults) return query
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(query)) {
    const target = scope.queryNames?.[key] ?? key
    // A parameter given both by its plain name and as itself is given twice: query.ts refuses that by name.
    out[target] = out[target] === undefined ? value : [out[target], value].flat()
  }
  for (const [key, value] of Object.entries(scope.defaults ?? {})) if (out[key] === undefined && value !== undefined) out[key] = value
  return out
}

/** The filter of a route's `where` for this request (`{author: {followers: 7}}`), or undefined without one. */
export function scopeFilter(scope: RouteScope | undefined, model: EntityModel, context: ScopeContext): FilterQuery<Row> | undefined {
  if (!scope?.where) return undefined
  const filter: Row = {}
  for (const [path, source] of Object.entries(scope.where)) {
    const segments = path.split('.')
    let node = filter
    for (const segment of segments.slice(0, -1)) node = (node[segment] ??= {}) as Row
    node[segments.at(-1)!] = typedValue(model, segments, sourceValue(source, context), context.models)
  }
  return filter as FilterQuery<Row>
}

/** The condition finding a route's one record: its lookup field and its `where`; undefined when nothing can match. */
export function recordFilter(scope: RouteScope | undefined, model: EntityModel, context: ScopeContext): FilterQuery<Row> | undefined {
  const lookup = scope?.lookup ?? (context.params.id === undefined ? undefined : {param: 'id', field: model.primaryKey})
  const where = scopeFilter(scope, model, context) as Row | undefined
  if (!lookup) return where
  const text = context.params[lookup.param] ?? ''
  const value = lookup.field === model.primaryKey ? parseId(model, text) : text.length > 1000 ? undefined : parseScalar(model.fields.get(lookup.field)?.type ?? 'string', text)
  if (value === undefined) return undefined
  return {...where, [lookup.field]: value} as FilterQuery<Row>
}

/**
 * On create, set what the route's `where` names: a field or a relation's key directly (`{"author": "user"}`), a
 * many-to-one through a field of its target (`{"article.slug": "params.slug"}`: the article with that slug, 404 when
 * there is none).
 */
export async function applyScopeToCreate(scope: RouteScope | undefined, model: EntityModel, context: ScopeContext, em: EntityManager): Promise<void> {
  const {direct, byRelation} = scopeConditions(scope, model, context)
  for (const [path, value] of direct) context.data[path] = value
  for (const [name, conditions] of byRelation) context.data[name] = (await relatedRecord(conditions, em))[conditions.target.primaryKey]
}

/**
 * The records a route's path names through its `where` exist: the article of `GET /articles/{slug}/comments`
 * (`{"article.slug": "params.slug"}`), 404 when there is none, as a create under it answers. Asked by a list or a
 * count that found nothing, so that a missing parent is not an empty list.
 */
export async function requireScopeParents(scope: RouteScope | undefined, model: EntityModel, context: ScopeContext, em: EntityManager): Promise<void> {
  for (const conditions of scopeConditions(scope, model, context).byRelation.values()) if (conditions.fromPath) await relatedRecord(conditions, em)
}

/** A route's `where` conditions through a many-to-one relation, together: the one record they name. */
interface RelationConditions {
  target: EntityModel
  filter: Record<string, unknown>
  /** The values as given, for the 404's words. */
  named: unknown[]
  /** Whether a path parameter gives one of them (`params.slug`). */
  fromPath: boolean
}

/**
 * A route's `where` as a create applies it: fields and relation keys set as they are, and the conditions through
 * each many-to-one relation together (`order.id` and `order.customer`: the one order that meets them all).
 */
function scopeConditions(scope: RouteScope | undefined, model: EntityModel, context: ScopeContext): {direct: Array<[string, unknown]>; byRelation: Map<string, RelationConditions>} {
  const direct: Array<[string, unknown]> = []
  const byRelation = new Map<string, RelationConditions>()
  for (const [path, source] of Object.entries(scope?.where ?? {})) {
    const segments = path.split('.')
    const given = sourceValue(source, context)
    const value = typedValue(model, segments, given, context.models)
    const relation = model.relations.get(segments[0])
    const target = relation && ['many-to-one', 'one-to-one'].includes(relation.kind) ? context.models?.get(relation.entity) : undefined
    // A relation set from the path (`{"post": "params.id"}`) is looked up as `post.id` is: 404 when there is none,
    // not a write that the database refuses for its foreign key. One set to the user, or a literal, is set as it is.
    const fromPath = typeof source === 'string' && source.startsWith('params.')
    if (segments.length === 1 && !(target && fromPath)) {
      direct.push([path, value])
      continue
    }
    if (!target || segments.length > 2) continue
    const conditions = byRelation.get(segments[0]) ?? {target, filter: {}, named: [], fromPath: false}
    conditions.filter[segments[1] ?? target.primaryKey] = value
    conditions.named.push(given)
    conditions.fromPath ||= fromPath
    byRelation.set(segments[0], conditions)
  }
  return {direct, byRelation}
}

/** The one record `conditions` name; 404 when there is none. */
async function relatedRecord({target, filter, named}: RelationConditions, em: EntityManager): Promise<Row> {
  const found = Object.values(filter).includes(undefined) ? null : ((await em.findOne(target.name, filter as FilterQuery<object>)) as Row | null)
  if (!found) throw notFound(`No ${target.name} \`${String(named[0])}\``)
  return found
}

/**
 * The value a source names — the current user's key or a field of theirs (`user`, `user.<field>`), a path parameter
 * (`params.<name>`), or a literal — for a route's `where` and a definition's `from` alike.
 */
export function sourceValue(source: string | number | boolean, context: ScopeContext): unknown {
  if (typeof source !== 'string') return source
  if (source === 'user' || source.startsWith('user.')) {
    const user = context.user as {id: unknown; record?: Row} | null | undefined
    if (!user) throw new HttpProblem(401, 'This route needs an authenticated user', {headers: {'www-authenticate': 'Bearer'}})
    return source === 'user' ? user.id : user.record?.[source.slice('user.'.length)]
  }
  if (source.startsWith('params.')) return context.params[source.slice('params.'.length)]
  return source
}

/** A text value (a path parameter) as the type of the field it is compared with (a key through a relation when it ends on one). */
function typedValue(model: EntityModel, segments: string[], value: unknown, models?: ReadonlyMap<string, EntityModel>): unknown {
  if (typeof value !== 'string') return value
  let current: EntityModel | undefined = model
  let type: FieldDefinition['type'] = 'string'
  for (const segment of segments) {
    const relation: {entity: string} | undefined = current?.relations.get(segment)
    if (relation) {
      current = models?.get(relation.entity)
      type = current?.primaryKeyType ?? 'integer'
    } else {
      type = current?.fields.get(segment)?.type ?? 'string'
      current = undefined
    }
  }
  const typed = parseScalar(type, value)
  // A path parameter that cannot be the field's type matches no record, as an `{id}` of letters does.
  if (typed === undefined) throw notFound(`No record \`${value}\``)
  return typed
}
