/**
 * `auth: {entity: 'user'}` mounts `POST /auth/register`, `POST /auth/login` and `GET /auth/me`, limited per client
 * (`auth.rateLimit`, default 10 per minute). Login answers the same 401 for an unknown e-mail and a wrong password,
 * after the same bcrypt work (an unknown e-mail is compared against a dummy hash of the same cost).
 */
import type {FastifyInstance} from 'fastify'
import {assertPasswords, passwordProblems, rolesOf, signTokenWith, unauthorized, type AuthSettings, type AuthUser} from '../auth.js'
import type {ResolvedConfig} from '../config.js'
import {authRouteKeys} from '../routes.js'
import type {RequestContext} from '../context.js'
import {present, withDefaults} from '../http/crud.js'
import type {EntityModel} from '../http/model.js'
import {validateBody, validationItems} from '../http/errors.js'
import {HttpProblem} from '../http/problem.js'
import {utils} from '../utils.js'
import {loginEmail, loginEmailField, normalizeLoginEmail} from '../login-email.js'
import {recordEvents, writeEvent} from '../events/outbox.js'

interface AuthRouteOptions {
  config: Pick<ResolvedConfig, 'auth'>
  auth: AuthSettings
  limit: {rateLimit: {max: number; timeWindow: string | number}} | undefined
  authenticate: (context: Pick<RequestContext, 'request' | 'db'>) => Promise<AuthUser>
}

/** Register the auth routes (three unless `auth.routes` moves or removes them). */
export async function registerAuthRoutes(app: FastifyInstance, options: AuthRouteOptions): Promise<void> {
  const {auth} = options
  const orm = app.orm
  const users = auth.users!
  const emailField = loginEmailField(users.definition)
  const passwordField = [...users.fields.values()].find((field) => field.type === 'password')?.name
  if (!emailField || !passwordField) throw new HttpProblem(500, `The auth entity \`${users.name}\` needs an \`email\` field and a \`password\` field`)
  const register = app.bodyCheck(users, 'create', new Set(['roles', 'role']))
  const login = app.compileSchema({
    type: 'object',
    properties: {[emailField]: {type: 'string', maxLength: 320}, [passwordField]: {type: 'string', maxLength: 1000}},
    required: [emailField, passwordField],
    additionalProperties: false
  })
  // Compared against when the e-mail is unknown, so that both failures cost the same bcrypt work.
  const dummyHash = utils.hash('not a password of anyone', auth.cost)
  const envelope = options.config.auth?.envelope
  // `{token, user}`, or with an envelope the user and its token in one member: `{user: {…, token}}`.
  const answer = (record: object) => {
    const user: AuthUser = {id: (record as Record<string, unknown>)[users.primaryKey], roles: rolesOf(record as Record<string, unknown>)}
    const token = signTokenWith(auth, user)
    return envelope ? {[envelope]: {...present(users, record), token}} : {token, user: present(users, record)}
  }
  const bodyOf = (request: {body: unknown}) => {
    const body = (request.body ?? {}) as Record<string, unknown>
    if (!envelope) return body
    const inner = body[envelope]
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) return inner as Record<string, unknown>
    throw new HttpProblem(422, '1 field(s) failed validation', {errors: [{pointer: `/${envelope}`, code: 'envelope', detail: `\`${envelope}\` is required: send {"${envelope}": {…}}`}]})
  }
  const keys = authRouteKeys(options.config)
  const route = (key: string) => {
    const [method, url] = key.split(' ')
    return {method: method as 'POST', url: url.replace(/\{([^}]+)\}/g, ':$1')}
  }

  if (keys.register) app.route({...route(keys.register), config: options.limit, handler: async (request, reply) => {
    const data = bodyOf(request)
    normalizeLoginEmail(users.definition, data)
    // One answer names every problem of a sign-up: a bad e-mail and a weak password together, not one per attempt.
    if (!register(data)) {
      const errors = [...validationItems((register.errors ?? []) as Parameters<typeof validationItems>[0]), ...passwordProblems(users, data, undefined, auth.passwordRules)]
      throw new HttpProblem(422, `${errors.length} field(s) failed validation`, {errors})
    }
    assertPasswords(users, data, undefined, auth.passwordRules)
    return reply.code(201).send(answer(await storeUser(app, users, data)))
  }})

  if (keys.login) app.route({...route(keys.login), config: options.limit, handler: async (request) => {
    const data = bodyOf(request) as Record<string, string>
    validateBody(login, data)
    const em = orm.em.fork()
    // Stored lowercased (entity-schema.ts); an account written before that keeps its case, and is found as written.
    const email = loginEmail(data[emailField])
    const find = (value: string) => em.findOne(users.name, {[emailField]: value} as never) as Promise<Record<string, unknown> | null>
    const record = (await find(email)) ?? (email === data[emailField] ? null : await find(data[emailField]))
    const hash = typeof record?.[passwordField] === 'string' ? (record[passwordField] as string) : await dummyHash
    const matches = await utils.verify(data[passwordField], hash)
    if (!record || !matches) throw unauthorized(auth, 'Unknown e-mail or wrong password')
    return answer(record)
  }})

  if (keys.me) app.route({...route(keys.me), handler: async (request) => {
    const user = await options.authenticate({request, db: orm.em.fork()})
    if (!envelope) return present(users, user.record!)
    return {[envelope]: {...present(users, user.record!), token: request.headers.authorization?.split(/\s+/)[1]}}
  }})
}

/**
 * Store a new user, every field shown as a create route answers it (`bio: null` too). A sign-up is a create of the
 * auth entity: its `created` event, when it declares one, is recorded in the same transaction, as a CRUD create's is
 * (what sends the welcome e-mail).
 */
async function storeUser(app: FastifyInstance, users: EntityModel, data: Record<string, unknown>): Promise<object> {
  const em = app.orm.em.fork()
  const create = (manager: typeof em) => manager.create(users.name, withDefaults(users, data)) as object
  const {events} = app
  if (!events.recording || !events.writes.get(users.name)?.has('created')) {
    const record = create(em)
    await em.flush()
    return record
  }
  const record = await em.transactional(async (transaction) => {
    const created = create(transaction)
    await transaction.flush()
    await recordEvents(transaction, [writeEvent(users.name, 'created', present(users, created) as Record<string, unknown>, users.primaryKey, events.source)])
    return created
  })
  events.committed()
  return record
}
