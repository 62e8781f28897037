/**
 * One request through a route, in the order of 4.4: middleware -> auth -> validation -> before hook -> action ->
 * after hook -> response. The hooks and the action share one database transaction, so a throwing hook rolls the
 * action back and its error becomes the answer; reads without hooks need no transaction.
 */
import type {EntityManager} from '@mikro-orm/core'
import type {FastifyInstance, FastifyReply, FastifyRequest} from 'fastify'
import {assertPasswords, requireRoles, type AuthUser} from '../auth.js'
import type {ContextFunction, Middleware, RequestContext} from '../context.js'
import {present, runCrud, type CrudAction, type CrudContext} from '../http/crud.js'
import {cloudEvent, type CloudEvent} from '../events/cloudevent.js'
import {recordEvents, writeEvent} from '../events/outbox.js'
import {sourceValue} from '../http/scope.js'
import {missingReference, missingReferenceField, validateBody} from '../http/errors.js'
import {loginEmailField, normalizeLoginEmail} from '../login-email.js'
import {parseId, type EntityModel} from '../http/model.js'
import {HttpProblem} from '../http/problem.js'
import type {Project} from '../project.js'
import {wrapAnswer, type RouteInfo} from '../routes.js'
import {utils} from '../utils.js'
import type {BodyCheck} from './bodies.js'

/** Everything a route's handler needs, resolved once when the route is registered. */
export interface RoutePlan {
  route: RouteInfo
  model?: EntityModel
  /** The custom action of a code controller. */
  custom?: ContextFunction
  before?: ContextFunction
  after?: ContextFunction
  middleware: Middleware[]
  bodyCheck?: BodyCheck
}

/** The fastify handler of one planned route. */
export function routeHandler(app: FastifyInstance, project: Project, plan: RoutePlan) {
  const {route, model, custom, before, after, middleware, bodyCheck} = plan
  const readOnly = !before && !after && (route.kind === 'list' || route.kind === 'read' || route.kind === 'count')
  const plainCreate = !before && !after && route.crud && route.kind === 'create' && model !== undefined && app.fastWriter?.supports(model, route) === true
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const context = createContext(app, project, request, reply)
    context.route = route
    // A read without hooks publishes nothing: it gets no events of its own (one allocation less per read).
    const events = readOnly ? noEvents : eventsOf(app, route, context)
    if (app.fastReader && !before && !after) context.fast = app.fastReader
    let fastCreate = false
    let body: unknown
    await runMiddleware(middleware, context, async () => {
      try {
        await handle()
      } catch (error) {
        throw model && route.crud ? await namedReference(app, model, context.data, error) : error
      }
    })
    async function handle() {
      if (route.auth === 'optional') {
        // The user when a token is sent (a bad one is still a 401), none without one.
        context.user = request.headers.authorization === undefined ? null : await app.authenticate('bearer', context)
        if (context.user) requireRoles(context.user as AuthUser, route.roles)
      } else if (route.auth !== 'none') {
        context.user = await app.authenticate(route.auth, context)
        requireRoles(context.user as AuthUser, route.roles)
      }
      if (bodyCheck && route.envelope?.single) context.data = unwrapBody(route.envelope.single, context.data)
      if (bodyCheck && model && model === app.authSettings.users) normalizeLoginEmail(model.definition, context.data)
      if (bodyCheck) validateBody(bodyCheck, context.data)
      if (bodyCheck && model && route.crud) {
        await checkPasswords(app, model, context)
        if (route.kind === 'create') fillFromServer(model, context)
      }
      // A create that takes the prepared insert is one atomic statement, with its outbox rows in the same transaction:
      // it needs no transaction of the entity manager.
      fastCreate = plainCreate && app.fastWriter!.accepts(model!, context.data)
      if (fastCreate) {
        context.fastWrite = app.fastWriter
        if (app.events.recording && app.events.writes.get(model!.name)?.has('created')) {
          context.createdEvents = (answer) => {
            events.ofWrite(model!, 'create', answer)
            return events.pending
          }
        }
      }
      const run = async (em?: EntityManager) => {
        if (em) context.db = em
        if (before) await before(context)
        if (route.crud && model) body = await runCrud(route.kind as CrudAction, model, context as unknown as CrudContext)
        else if (custom) body = await custom(context)
        else throw new HttpProblem(500, `Route \`${route.key}\` of controller \`${route.controller}\` has no action \`${route.action}\``)
        if (after) {
          const changed = await after({...context, result: body})
          if (changed !== undefined) body = changed
        }
        // A prepared create has written its event with its row (createdEvents).
        if (model && route.crud && !context.createdEvents) events.ofWrite(model, route.kind, body)
        // In the write's transaction: a rolled-back write records nothing, a committed one cannot lose its events.
        if (app.events.recording && events.pending.length > 0 && !context.createdEvents) await recordEvents(context.db as unknown as EntityManager, events.pending)
      }
      if (readOnly || fastCreate) await run()
      else await context.db.transactional(run)
      if (events.pending.length > 0) app.events.committed()
    }
    if (reply.sent) return reply
    body = wrapAnswer(route, body)
    for (const [name, value] of Object.entries(context.headers ?? {})) reply.header(name, value)
    const status = context.status ?? route.declaredStatus
    if (status === 204 || body === undefined) return reply.code(status ?? 204).send()
    return reply.code(status ?? 200).send(body)
  }
}

/**
 * A write that named a record that does not exist: the 422 points at the relation of the body, named by the database
 * when it says, else (SQLite, a join table) the one whose key in the body has no record (looked up after the
 * rollback, soft-deleted records counted, as the foreign key counts them). Any other error is returned as it is.
 */
async function namedReference(app: FastifyInstance, model: EntityModel, data: unknown, error: unknown): Promise<unknown> {
  const named = missingReferenceField(error, model)
  if (named === null) return error
  if (named !== undefined) return missingReference(named)
  if (!data || typeof data !== 'object') return error
  const em = app.orm.em.fork()
  for (const [name, relation] of model.relations) {
    const value = (data as Record<string, unknown>)[name]
    const keys = (Array.isArray(value) ? value : [value]).filter((key) => typeof key === 'string' || typeof key === 'number')
    const target = app.models.get(relation.entity)
    if (keys.length === 0 || !target) continue
    const found = await em.count(target.name, {[target.primaryKey]: {$in: keys}} as never, {filters: false})
    if (found < new Set(keys).size) return missingReference(name)
  }
  return error
}

const noEvents = {pending: [] as Array<{event: CloudEvent; key: string}>, ofWrite: () => undefined}

const writeEvents: Partial<Record<string, string>> = {create: 'created', update: 'updated', replace: 'updated', delete: 'deleted'}

/**
 * The events of one request: what hooks and actions publish through `ctx.events.publish(type, data)` (a type the
 * project declares, else a 500 naming it), and the write event the entity declares.
 */
function eventsOf(app: FastifyInstance, route: RoutePlan['route'], context: RequestContext) {
  const pending: Array<{event: CloudEvent; key: string}> = []
  const {source, types, writes, records} = app.events
  context.events = {
    publish(type, data) {
      if (!types.has(type)) throw new HttpProblem(500, `\`${type}\` is not a declared event; declare it in the route's \`events\` (\`${route.key}\`) or the entity's`)
      // An event that declares whose record it carries is about that record: its key is the subject, and it is sent in
      // order with the record's other events.
      const record = records.get(type)
      const key = record && data && typeof data === 'object' ? (data as Record<string, unknown>)[record.primaryKey] : undefined
      if (record && key !== undefined && key !== null) pending.push({event: cloudEvent(type, source, data, String(key)), key: `${record.entity}:${String(key)}`})
      else pending.push({event: cloudEvent(type, source, data), key: type})
    }
  }
  return {
    pending,
    ofWrite(model: EntityModel, kind: string, body: unknown) {
      const what = writeEvents[kind]
      if (!what || !writes.get(model.name)?.has(what)) return
      const record = (kind === 'delete' && context.entity ? (context.deleted ?? present(model, context.entity)) : body) as Record<string, unknown>
      pending.push(writeEvent(model.name, what, record, model.primaryKey, source))
    }
  }
}

/** The record inside an enveloped request body (`{"article": {…}}`); a body without it is a 422 naming the member. */
function unwrapBody(member: string, data: Record<string, unknown>): Record<string, unknown> {
  const inner = data[member]
  if (inner && typeof inner === 'object' && !Array.isArray(inner) && Object.keys(data).length === 1) return inner as Record<string, unknown>
  const detail = inner === undefined ? `\`${member}\` is required: send {"${member}": {…}}` : `\`${member}\` must be the only member, an object`
  throw new HttpProblem(422, '1 field(s) failed validation', {errors: [{pointer: `/${member}`, code: 'envelope', detail}]})
}

/** Set the values the definition says the server fills on create (`from: "user"`, `from: "user.<field>"`). */
function fillFromServer(model: EntityModel, context: RequestContext): void {
  const sources = [
    ...[...model.fields.values()].filter((field) => field.from).map((field) => [field.name, field.from!] as const),
    ...[...model.relations].filter(([, relation]) => relation.from).map(([name, relation]) => [name, relation.from!] as const)
  ]
  if (sources.length === 0) return
  if (!context.user) throw new HttpProblem(401, `Creating a ${model.name} needs an authenticated user: \`${sources[0][0]}\` is filled from it`, {headers: {'www-authenticate': 'Bearer'}})
  for (const [name, source] of sources) context.data[name] = sourceValue(source, context)
}

/** Password strength of a create or update body (the e-mail comes from the body, else from the stored record). */
async function checkPasswords(app: FastifyInstance, model: EntityModel, context: RequestContext): Promise<void> {
  const fields = [...model.fields.values()]
  if (!fields.some((field) => field.type === 'password' && typeof context.data[field.name] === 'string')) return
  // The stored record is read only when the body does not carry the e-mail the rules compare with.
  const email = loginEmailField(model.definition)
  const id = context.params.id === undefined ? undefined : parseId(model, context.params.id)
  const needed = email !== undefined && context.data[email] === undefined && id !== undefined
  const existing = needed ? (((await context.db.findOne(model.name, {[model.primaryKey]: id} as never)) as Record<string, unknown> | null) ?? undefined) : undefined
  assertPasswords(model, context.data, existing, app.authSettings.passwordRules)
}

/** The request context; `db` (a fork of the entity manager) is made on first use, so reads that skip it cost nothing. */
function createContext(app: FastifyInstance, project: Project, request: FastifyRequest, reply: FastifyReply): RequestContext {
  const body = request.body
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body)) && request.method !== 'GET') {
    throw new HttpProblem(422, 'The body must be a JSON object', {errors: [{pointer: '/', code: 'type', detail: 'expected an object'}]})
  }
  let em: EntityManager | undefined
  return {
    request,
    response: reply,
    params: (request.params ?? {}) as Record<string, string>,
    query: (request.query ?? {}) as Record<string, unknown>,
    data: (body ?? {}) as Record<string, unknown>,
    get db(): EntityManager {
      em ??= app.orm.em.fork()
      return em
    },
    set db(value: EntityManager) {
      em = value
    },
    services: project.services,
    config: project.config,
    utils,
    state: {},
    // Replaced by the route's own (eventsOf) before anything runs.
    events: {publish: () => undefined},
    validate(data, schema) {
      const model = typeof schema === 'string' ? app.models.get(schema) : undefined
      if (typeof schema === 'string' && !model) throw new HttpProblem(500, `\`ctx.validate\` names no entity \`${schema}\`; known: ${[...app.models.keys()].join(', ')}`)
      validateBody(model ? app.bodyCheck(model, 'create') : app.compileSchema(schema as object), data)
    },
    path: request.url.split('?')[0],
    likeMatch: app.likeMatch,
    models: app.models
  }
}

/** Run middleware in order; each calls `next()` to go on (not calling it ends the request there). */
async function runMiddleware(chain: readonly Middleware[], context: RequestContext, last: () => Promise<void>): Promise<void> {
  const step = async (index: number): Promise<void> => {
    if (index === chain.length) return last()
    let called = false
    await chain[index](context, async () => {
      if (called) throw new Error('next() called twice')
      called = true
      await step(index + 1)
    })
  }
  await step(0)
}
