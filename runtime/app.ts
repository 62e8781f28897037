/**
 * The server: a fastify 5 app from a loaded project. The ORM is one fastify plugin (a forked entity manager per
 * request); each controller is an encapsulated plugin with its routes. A request goes, as 4.4 orders it, through
 * middleware -> validation -> before hook -> action -> after hook -> response, and the hooks and the action share
 * one database transaction: a throwing hook rolls the action back and its error becomes the answer.
 */
import {Ajv} from 'ajv'
import formats from 'ajv-formats'
import Fastify, {type FastifyInstance, type FastifyReply, type FastifyRequest} from 'fastify'
import type {EntityManager} from '@mikro-orm/core'
import cors from '@fastify/cors'
import rateLimit from '@fastify/rate-limit'
import type {RouteOptions} from '../schemas/types/controller.js'
import type {RateLimit} from '../schemas/types/project.js'
import {assertPasswords, authSettings, requireRoles, rolesOf, verifyBearer, type AuthProvider, type AuthSettings, type AuthUser} from './auth.js'
import {registerAuthRoutes} from './auth-routes.js'
import {FastReader} from './http/fast-read.js'
import {securityHeaders} from './http/security-headers.js'
import {parseId} from './http/model.js'
import type {FieldDefinition} from '../schemas/types/entity.js'
import path from 'node:path'
import {openDatabase, type Orm} from './database.js'
import {openapiDocument} from './openapi.js'
import {bodySchema} from './http/body-schema.js'
import {runCrud, type CrudAction, type CrudContext} from './http/crud.js'
import {errorHandler, sendProblem, validateBody} from './http/errors.js'
import {entityModel, type EntityModel} from './http/model.js'
import {HttpProblem} from './http/problem.js'
import type {ContextFunction, Middleware, Project} from './project.js'
import {utils} from './utils.js'

declare module 'fastify' {
  interface FastifyInstance {
    orm: Orm
  }
}

/** The context of hooks, actions and middleware (4.4). */
export interface RequestContext extends CrudContext {
  request: FastifyRequest
  response: FastifyReply
  services: Record<string, unknown>
  user?: unknown
  config: Project['config']
  utils: typeof utils
  /** Free space for middleware and hooks to hand things on. */
  state: Record<string, unknown>
}

export interface AppOptions {
  /** Log requests (default: false; `pipe dev` logs pretty lines, `pipe start` JSON). */
  logger?: boolean | object
  /** A connected ORM to use instead of opening the project's database (tests share one). */
  orm?: Orm
  /** Show error messages in 500 answers (default: `NODE_ENV === 'development'`). */
  development?: boolean
  /** Largest accepted body in bytes (default: 1 MiB). */
  bodyLimit?: number
  /** Answer hook-free reads on a SQLite file with prepared statements (default: true). */
  fastReads?: boolean
}

const crudActions = new Set(['list', 'read', 'create', 'update', 'delete', 'count'])

/** Build the app of a project (not listening yet: `app.listen` or `app.inject`). */
export async function createApp(project: Project, options: AppOptions = {}): Promise<FastifyInstance> {
  const development = options.development ?? process.env.NODE_ENV === 'development'
  const config = project.config
  const models = new Map(project.entities.map((definition) => [definition.name, entityModel(definition)]))
  // Refuses to start in production without a strong jwtSecret (before anything opens).
  const auth = authSettings(config, models)
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? config.bodyLimit ?? 1024 * 1024,
    requestTimeout: config.requestTimeout ?? 30_000,
    connectionTimeout: config.requestTimeout ?? 30_000,
    // Querystrings keep `filter[title][like]` as one key; the list query parses it (and refuses repeated keys).
    routerOptions: {maxParamLength: 200},
    return503OnClosing: true,
    // Errors fastify answers before any route (a bad URL, an over-long path parameter) are problems too.
    frameworkErrors: (error, request, reply) => {
      const status = (error as {statusCode?: number}).statusCode ?? 400
      const detail = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long' : error.code === 'FST_ERR_BAD_URL' ? 'The URL is not valid' : error.message
      return sendProblem(reply, new HttpProblem(status, detail))
    }
  })
  // JSON only: any other body is a 415 (fastify would otherwise accept text/plain).
  app.removeContentTypeParser('text/plain')
  if (auth.generated && config.auth?.entity) app.log.warn('jwtSecret is not set: tokens are signed with a secret made up for this process')
  app.setErrorHandler(errorHandler(() => models.values(), development))
  app.setNotFoundHandler((request, reply) => sendProblem(reply, new HttpProblem(404, `No route \`${request.method} ${request.url.split('?')[0]}\``)))

  const orm = options.orm ?? (await openDatabase(project.config, project.entities))
  app.decorate('orm', orm)
  if (!options.orm) app.addHook('onClose', async () => orm.close())
  const sqliteFile = config.database.type === 'sqlite' && config.database.url !== ':memory:' ? (orm.config.get('dbName') as string) : undefined
  const fast = options.fastReads !== false && sqliteFile ? new FastReader(sqliteFile) : undefined
  if (fast) app.addHook('onClose', async () => fast.close())
  const likeOperator = orm.em.getPlatform().constructor.name.startsWith('PostgreSql') ? ('$ilike' as const) : ('$like' as const)

  const ajv = new Ajv({allErrors: true, coerceTypes: false, useDefaults: false, strict: false})
  ;(formats as unknown as {default: (ajv: Ajv) => void}).default(ajv)
  const keyTypes = new Map<string, FieldDefinition['type']>([...models.values()].map((model) => [model.name, model.primaryKeyType]))

  // Built-in middleware: the well-kept plugins (helmet's headers, @fastify/cors, @fastify/rate-limit), from pipe.config.json.
  const headers = securityHeaders()
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers)
    done()
  })
  await app.register(cors, {origin: config.cors === true ? true : Array.isArray(config.cors) ? config.cors : false})
  await app.register(rateLimit, {
    global: false,
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) =>
      new HttpProblem(429, `Too many requests: at most ${context.max} per ${context.after}; try again in ${Math.ceil(context.ttl / 1000)} s`, {
        headers: {'retry-after': String(Math.ceil(context.ttl / 1000))}
      })
  })
  const limitOf = (limit: RateLimit | undefined) => (limit ? {rateLimit: {max: limit.max, timeWindow: limit.window ?? '1 minute'}} : undefined)
  const providers = project.providers ?? new Map<string, AuthProvider>()
  const authenticate = async (kind: string, context: RequestContext): Promise<AuthUser> => {
    if (kind === 'bearer') {
      const users = auth.users
      if (!users) throw new HttpProblem(500, 'Routes with `auth: true` need `auth: {entity}` in pipe.config.json')
      const subject = verifyBearer(auth, context.request.headers.authorization)
      const id = parseId(users, subject)
      const record = id === undefined ? null : await context.db.findOne(users.name, {[users.primaryKey]: id} as never)
      if (!record) throw new HttpProblem(401, 'The user of this token no longer exists', {headers: {'www-authenticate': 'Bearer'}})
      return {id, roles: rolesOf(record as Record<string, unknown>), record: record as Record<string, unknown>}
    }
    const provider = providers.get(kind)
    if (!provider) throw new HttpProblem(500, `Unknown auth provider \`${kind}\`; known: bearer${[...providers.keys()].map((name) => `, ${name}`).join('')}`)
    const user = await provider(context)
    if (!user) throw new HttpProblem(401, `This route needs ${kind} authentication`, {headers: {'www-authenticate': kind}})
    return user
  }
  const protectedFields = (model: EntityModel | undefined, route: RouteOptions) =>
    new Set(model && model === auth.users ? ['roles', 'role'].filter((name) => !(route.assign ?? []).includes(name)) : [])
  if (auth.users) await registerAuthRoutes(app, {auth, orm, ajv, keyTypes: () => keyTypes, limit: limitOf(config.auth?.rateLimit ?? {max: 10, window: '1 minute'}), authenticate: (context) => authenticate('bearer', context), project})

  const declared = new Set(project.controllers.flatMap(({definition}) => Object.keys(definition.routes)))
  if (!declared.has('GET /openapi.json')) {
    const document = openapiDocument(project.config, project.entities, project.controllers.map(({definition}) => definition), path.basename(project.root))
    app.get('/openapi.json', async () => document)
  }

  for (const controller of project.controllers) {
    const definition = controller.definition
    const model = models.get(definition.entity ?? definition.name)
    const hooks = project.hooks.get(definition.name) ?? new Map<string, ContextFunction>()
    await app.register(async (scope) => {
      for (const [key, value] of Object.entries(definition.routes)) {
        const route: RouteOptions = typeof value === 'string' ? {action: value} : value
        const [method, rawPath] = key.split(' ')
        const url = rawPath.replace(/\{([^}]+)\}/g, ':$1')
        const action = route.action
        const custom = controller.actions?.[action]
        const crud: CrudAction | undefined = !custom && crudActions.has(action) ? (action === 'update' && method === 'PUT' ? 'replace' : (action as CrudAction)) : undefined
        const validator = model && (crud === 'create' || crud === 'update' || crud === 'replace') ? ajv.compile(bodySchema(model, crud, keyTypes, protectedFields(model, route))) : undefined
        const authKind = routeAuth(route.auth ?? definition.auth ?? config.auth?.default ?? false)
        const roles = route.roles ?? definition.roles ?? []
        const chain = [...(project.config.middleware ?? []), ...(route.middleware ?? [])].map((name) => middlewareOf(project, name))
        const hookName = (when: 'before' | 'after') => `${when}${action[0].toUpperCase()}${action.slice(1)}`
        const before = hooks.get(hookName('before'))
        const after = hooks.get(hookName('after'))
        scope.route({
          method: method as 'GET',
          url,
          config: limitOf(route.rateLimit ?? config.rateLimit),
          handler: async (request, reply) => {
            const context = createContext(project, request, reply, orm)
            if (fast && !before && !after) context.fast = fast
            context.likeOperator = likeOperator
            let body: unknown
            await runMiddleware(chain, context, async () => {
              if (authKind) {
                context.user = await authenticate(authKind, context)
                requireRoles(context.user as AuthUser, roles)
              }
              if (validator) {
                validateBody(validator, context.data)
                await checkPasswords(model!, context, auth)
              }
              const run = async (em?: EntityManager) => {
                if (em) context.db = em
                if (before) await before(context)
                if (crud && model) body = await runCrud(crud, model, context)
                else if (custom) body = await custom(context)
                else throw new HttpProblem(500, `Route \`${key}\` of controller \`${definition.name}\` has no action \`${action}\``)
                if (after) {
                  const changed = await after({...context, result: body})
                  if (changed !== undefined) body = changed
                }
              }
              // Reads without hooks need no transaction; everything else runs in one.
              if (!before && !after && (crud === 'list' || crud === 'read' || crud === 'count')) await run()
              else await context.db.transactional(run)
            })
            if (reply.sent) return reply
            for (const [name, value] of Object.entries(context.headers ?? {})) reply.header(name, value)
            if (context.status === 204 || body === undefined) return reply.code(context.status ?? 204).send()
            return reply.code(context.status ?? 200).send(body)
          }
        })
      }
    })
  }
  return app
}

/** `true` -> bearer, a provider name -> itself, `false` -> none. */
function routeAuth(value: boolean | string): string | undefined {
  return value === true ? 'bearer' : value === false ? undefined : value
}

/** Password strength of a create or update body (the e-mail comes from the body, else from the stored record). */
async function checkPasswords(model: EntityModel, context: RequestContext, auth: AuthSettings): Promise<void> {
  const fields = [...model.fields.values()]
  if (!fields.some((field) => field.type === 'password' && typeof context.data[field.name] === 'string')) return
  // The stored record is read only when the body does not carry the e-mail the rules compare with.
  const email = fields.find((field) => field.type === 'email')
  const id = context.params.id === undefined ? undefined : parseId(model, context.params.id)
  const needed = email && context.data[email.name] === undefined && id !== undefined
  const existing = needed ? (((await context.db.findOne(model.name, {[model.primaryKey]: id} as never)) as Record<string, unknown> | null) ?? undefined) : undefined
  assertPasswords(model, context.data, existing, auth.passwordRules)
}

function middlewareOf(project: Project, name: string): Middleware {
  const middleware = project.middleware.get(name)
  if (!middleware) throw new HttpProblem(500, `Unknown middleware \`${name}\`; known: ${[...project.middleware.keys()].join(', ') || 'none'}`)
  return middleware
}

/** The request context; `db` (a fork of the entity manager) is made on first use, so reads that skip it cost nothing. */
function createContext(project: Project, request: FastifyRequest, reply: FastifyReply, orm: Orm): RequestContext {
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
      em ??= orm.em.fork()
      return em
    },
    set db(value: EntityManager) {
      em = value
    },
    services: project.services,
    config: project.config,
    utils,
    state: {},
    path: request.url.split('?')[0]
  }
}

/** Run middleware in order; each calls `next()` to go on (not calling it ends the request there). */
async function runMiddleware(chain: Middleware[], context: RequestContext, last: () => Promise<void>): Promise<void> {
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

export type {EntityModel}
