/**
 * Authentication and access on fixtures/auth-app: register, login, me, tokens (expired, tampered, `alg: none`, for a
 * deleted user), roles, every password rule, mass assignment, a custom API-key provider, rate limits and their
 * headers, CORS, security headers, and the production start refusal.
 */
import path from 'node:path'
import type {FastifyInstance} from 'fastify'
import jwt from 'jsonwebtoken'
import {suite} from 'uvu'
import * as assert from 'uvu/assert'
import {createTestApp} from '../runtime/testing.js'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'

const project = path.join(root, 'fixtures/auth-app')
const secret = 'a-test-secret-that-is-long-enough-for-hs256'
type Json = Record<string, any>

const test = suite('auth')
let app: FastifyInstance

async function call(method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) {
  const response = await app.inject({method: method as 'GET', url, payload: payload as Json, headers})
  return {status: response.statusCode, headers: response.headers, raw: response.body, body: response.body ? (JSON.parse(response.body) as Json) : undefined}
}
const bearer = (token: string) => ({authorization: `Bearer ${token}`})

test.before(async () => {
  app = await createTestApp({root: project})
})
test.after(async () => {
  await app.close()
})

test('register answers 201 with a token and the user, never the password or its hash', async () => {
  const response = await call('POST', '/auth/register', {email: 'ada@example.com', password: 'analytical engine', name: 'Ada'})
  assert.is(response.status, 201, response.raw)
  assert.equal(Object.keys(response.body!).sort(), ['token', 'user'])
  assert.equal(Object.keys(response.body!.user).sort(), ['createdAt', 'email', 'id', 'name', 'role', 'updatedAt'], 'a list relation the client cannot set is not shown unless populated')
  assert.is(response.body!.user.role, 'member')
  assert.not.ok(response.raw.includes('analytical engine') || response.raw.includes('$2b$'))
  const stored = await app.orm.em.getKnex()('user').where({email: 'ada@example.com'}).first()
  assert.match(stored.password, /^\$2b\$10\$/, 'stored as a bcrypt hash with the configured cost')
  const claims = jwt.verify(response.body!.token, secret, {algorithms: ['HS256']}) as Json
  assert.equal([claims.sub, claims.roles, claims.exp - claims.iat], [String(response.body!.user.id), ['member'], 3600])
})

test('server-owned values: the author is the token\'s user, never the body\'s; lists and read-only fields are not writable', async () => {
  const grace = await call('POST', '/auth/register', {email: 'grace@example.com', password: 'cobol all the way', name: 'Grace', following: [1]})
  assert.is(grace.status, 422, 'a body cannot add the new user to a list the definition does not open')
  assert.equal(grace.body!.errors, [{pointer: '/following', code: 'unknown-field', detail: '`following` cannot be set'}])
  const registered = await call('POST', '/auth/register', {email: 'grace@example.com', password: 'cobol all the way', name: 'Grace'})
  const token = registered.body!.token as string
  const forged = await call('POST', '/notes', {text: 'mine', author: 1}, bearer(token))
  assert.equal(forged.body!.errors, [{pointer: '/author', code: 'unknown-field', detail: '`author` cannot be set'}])
  const viewed = await call('POST', '/notes', {text: 'mine', views: 1000}, bearer(token))
  assert.equal(viewed.body!.errors, [{pointer: '/views', code: 'unknown-field', detail: '`views` cannot be set'}])
  const created = await call('POST', '/notes', {text: 'mine', shareCode: 'abc'}, bearer(token))
  assert.is(created.status, 201, created.raw)
  // A read-only field nothing set yet answers null, as a read of the record does.
  assert.equal(created.body, {id: created.body!.id, text: 'mine', authorEmail: 'grace@example.com', views: 0, reviewedAt: null, author: registered.body!.user.id})
  const listed = await call('GET', '/notes', undefined, bearer(token))
  assert.equal(listed.body!.data.find((note: Json) => note.id === created.body!.id), created.body)
  const stored = await app.orm.em.getKnex()('note').where({id: created.body!.id}).first()
  assert.is(stored.share_code, 'abc', 'a write-only field is stored, never shown')
  const author = await app.orm.em.getKnex()('user').where({id: registered.body!.user.id}).first()
  assert.is(author.updated_at, author.created_at, 'writing a note leaves its author\'s record as it was')
  // PUT resets what the body may set and does not name; what the server fills stays.
  const replaced = await call('PUT', `/notes/${created.body!.id}`, {text: 'mine, again'}, bearer(token))
  assert.equal(replaced.body, {id: created.body!.id, text: 'mine, again', authorEmail: 'grace@example.com', views: 0, reviewedAt: null, author: registered.body!.user.id})
  // `author` says no `onDelete`: a user whose notes still name them cannot be deleted (restrict, not set null).
  const deleting = app.orm.em.getKnex()('user').where({id: registered.body!.user.id}).delete()
  await deleting.then(
    () => assert.unreachable('the delete went through'),
    (error: Error) => assert.match(error.message, /FOREIGN KEY constraint failed/)
  )
})

test('optional auth: the user with a valid token in either scheme, null without one, 401 for a bad one', async () => {
  const registered = await call('POST', '/auth/register', {email: 'linus@example.com', password: 'a kernel of my own', name: 'Linus'})
  const {token, user} = registered.body!
  assert.equal((await call('GET', '/whoami')).body, {user: null})
  assert.equal((await call('GET', '/whoami', undefined, bearer(token))).body, {user: user.id})
  assert.equal((await call('GET', '/whoami', undefined, {authorization: `Token ${token}`})).body, {user: user.id}, 'the Token scheme of auth.schemes')
  const bad = await call('GET', '/whoami', undefined, {authorization: 'Token not-a-token'})
  assert.is(bad.status, 401)
  assert.is(bad.headers['www-authenticate'], 'Bearer, Token')
  const other = await call('GET', '/whoami', undefined, {authorization: `Basic ${token}`})
  assert.equal([other.status, other.body!.detail], [401, 'This route needs a token: `Authorization: Bearer <token>` or `Authorization: Token <token>`'])
})

test('signToken and verifyPassword from apipe-kit/runtime sign what the auth routes accept', async () => {
  const session = await call('POST', '/sessions', {email: 'linus@example.com', password: 'a kernel of my own'})
  assert.match(session.body!.token, /^ey/)
  const me = await call('GET', '/auth/me', undefined, bearer(session.body!.token))
  assert.is(me.body!.email, 'linus@example.com')
  assert.equal((await call('POST', '/sessions', {email: 'linus@example.com', password: 'wrong'})).body, {token: null})
})

test('auth.routes moves the auth routes or leaves them out', async () => {
  const {cpSync, readFileSync, writeFileSync} = await import('node:fs')
  const dir = (await import('./helpers/databases.js')).temporaryProject('auth-routes')
  cpSync(project, dir, {recursive: true})
  const configFile = path.join(dir, 'pipe.config.json')
  const config = JSON.parse(readFileSync(configFile, 'utf8'))
  config.auth.routes = {register: 'POST /users', login: 'POST /users/login', me: false}
  writeFileSync(configFile, JSON.stringify(config))
  // The copy imports `apipe-kit/runtime` as an installed project does: this checkout, linked.
  const {mkdirSync, symlinkSync} = await import('node:fs')
  mkdirSync(path.join(dir, 'node_modules'))
  symlinkSync(root, path.join(dir, 'node_modules', 'apipe-kit'))
  const moved = await createTestApp({root: dir})
  try {
    const registered = await moved.inject({method: 'POST', url: '/users', payload: {email: 'kay@example.com', password: 'smalltalk rules ok'}})
    assert.is(registered.statusCode, 201, registered.body)
    const login = await moved.inject({method: 'POST', url: '/users/login', payload: {email: 'kay@example.com', password: 'smalltalk rules ok'}})
    assert.is(login.statusCode, 200)
    assert.is((await moved.inject({method: 'POST', url: '/auth/register', payload: {}})).statusCode, 404)
    assert.is((await moved.inject({method: 'GET', url: '/auth/me'})).statusCode, 404, 'me: false leaves it out')
  } finally {
    await moved.close()
  }
})

test('custom actions: a declared request is checked first, a declared status answers, ctx.validate gives the same 422', async () => {
  const registered = await call('POST', '/auth/login', {email: 'linus@example.com', password: 'a kernel of my own'})
  const auth = bearer(registered.body!.token)
  const refused = await call('POST', '/notes/1/copies', {text: 7}, auth)
  assert.equal([refused.status, refused.body!.errors], [422, [{pointer: '/text', code: 'type', detail: '`text` must be a string'}]])
  const copied = await call('POST', '/notes/1/copies', {text: 'again'}, auth)
  assert.equal([copied.status, copied.body!.text], [201, 'again'])
  const echoed = await call('POST', '/echo', {word: 'far too long a word'})
  assert.equal([echoed.status, echoed.body!.errors], [422, [{pointer: '/word', code: 'maxLength', detail: '`word` must NOT have more than 10 characters'}]])
  assert.equal((await call('POST', '/echo', {word: 'short'})).body, {text: 'short'})
})

test('register refuses a taken e-mail (409), a bad e-mail, roles, and each password rule (422 naming it)', async () => {
  const taken = await call('POST', '/auth/register', {email: 'ada@example.com', password: 'another long one'})
  assert.is(taken.status, 409)
  assert.equal(taken.body!.errors, [{pointer: '/email', code: 'unique', detail: '`email` is already taken'}])
  const cases: Array<[Json, string[]]> = [
    [{email: 'not-an-email', password: 'long enough pass'}, ['/email format']],
    [{email: 'bob@example.com', password: 'short'}, ['/password password-length']],
    [{email: 'bob@example.com', password: 'password123'}, ['/password password-common']],
    [{email: 'bobby@example.com', password: 'i-am-bobby-42'}, ['/password password-email']],
    // A name too short to look for (`jo` is in many words), but the whole address is refused.
    [{email: 'jo@example.com', password: 'jo@example.com'}, ['/password password-email']],
    [{email: 'bob@example.com', password: 'fine password', role: 'admin'}, ['/role unknown-field']],
    // Every problem of a sign-up at once: a bad e-mail and a weak password are one answer, not two attempts.
    [{email: 'not-an-email', password: 'short'}, ['/email format', '/password password-length']]
  ]
  for (const [body, expected] of cases) {
    const response = await call('POST', '/auth/register', body)
    assert.is(response.status, 422, JSON.stringify(body))
    assert.equal(response.body!.errors.map((error: Json) => `${error.pointer} ${error.code}`), expected)
  }
})

test('the e-mail of an account is one whatever its case: stored lowercased, taken in any case, signed in with in any case', async () => {
  const taken = await call('POST', '/auth/register', {email: 'Ada@Example.COM', password: 'another long one'})
  assert.equal([taken.status, taken.body!.errors], [409, [{pointer: '/email', code: 'unique', detail: '`email` is already taken'}]])
  // Trimmed before its format is checked, as it will be stored.
  const registered = await call('POST', '/auth/register', {email: ' Barbara.Liskov@Example.com ', password: 'substitution principle'})
  assert.is(registered.status, 201, registered.raw)
  assert.is(registered.body!.user.email, 'barbara.liskov@example.com')
  for (const email of ['barbara.liskov@example.com', 'BARBARA.LISKOV@EXAMPLE.COM', ' Barbara.Liskov@example.com ']) {
    const login = await call('POST', '/auth/login', {email, password: 'substitution principle'})
    assert.equal([login.status, login.body!.user?.email], [200, 'barbara.liskov@example.com'], email)
  }
  // Whoever writes: an update through a CRUD route stores the e-mail as the auth routes do.
  const id = registered.body!.user.id
  await app.orm.em.getKnex()('user').where({id}).update({role: 'admin'})
  const changed = await call('PATCH', `/users/${id}`, {email: 'B.Liskov@MIT.edu '}, bearer(registered.body!.token))
  assert.equal([changed.status, changed.body!.email], [200, 'b.liskov@mit.edu'], changed.raw)
  // A row written before e-mails were lowercased keeps its case, and signs in as written.
  const {utils} = await import('../runtime/utils.js')
  await app.orm.em.getKnex()('user').insert({email: 'Old.Timer@Example.com', password: await utils.hash('written long ago', 10), role: 'member'})
  assert.is((await call('POST', '/auth/login', {email: 'Old.Timer@Example.com', password: 'written long ago'})).status, 200)
})

test('login: a token for the right password; the same 401 for an unknown e-mail and a wrong password', async () => {
  const ok = await call('POST', '/auth/login', {email: 'ada@example.com', password: 'analytical engine'})
  assert.is(ok.status, 200)
  assert.is(ok.body!.user.email, 'ada@example.com')
  const wrong = await call('POST', '/auth/login', {email: 'ada@example.com', password: 'difference engine'})
  const unknown = await call('POST', '/auth/login', {email: 'nobody@example.com', password: 'difference engine'})
  assert.is(wrong.status, 401)
  assert.equal(wrong.body, unknown.body)
  assert.equal(wrong.body, {type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'Unknown e-mail or wrong password'})
  assert.is(wrong.headers['www-authenticate'], 'Bearer, Token', 'every scheme of auth.schemes is named')
})

test('me: the user of a valid token; 401 with WWW-Authenticate for none, tampered, alg none, expired, never expiring, deleted user', async () => {
  const {body} = await call('POST', '/auth/login', {email: 'ada@example.com', password: 'analytical engine'})
  const me = await call('GET', '/auth/me', undefined, bearer(body!.token))
  assert.is(me.status, 200)
  assert.is(me.body!.email, 'ada@example.com')
  assert.not.ok('password' in me.body!)
  const [header, payload, signature] = (body!.token as string).split('.')
  const forged = Buffer.from(JSON.stringify({...JSON.parse(Buffer.from(payload, 'base64url').toString()), roles: ['admin']})).toString('base64url')
  const none = `${Buffer.from(JSON.stringify({alg: 'none', typ: 'JWT'})).toString('base64url')}.${payload}.`
  const expired = jwt.sign({roles: []}, secret, {algorithm: 'HS256', subject: String(me.body!.id), expiresIn: -10})
  const otherKey = jwt.sign({roles: []}, 'another secret of the right length, but not ours', {algorithm: 'HS256', subject: String(me.body!.id)})
  // Signed with the secret, but never to expire: not a token the server made.
  const forever = jwt.sign({roles: ['admin']}, secret, {algorithm: 'HS256', subject: String(me.body!.id)})
  const leaving = await call('POST', '/auth/register', {email: 'leaving@example.com', password: 'soon to be gone'})
  await app.orm.em.getKnex()('user').where({id: leaving.body!.user.id}).delete()
  const ghost = leaving.body!.token as string
  const cases: Array<[Record<string, string>, string]> = [
    [{}, 'This route needs a token: `Authorization: Bearer <token>` or `Authorization: Token <token>`'],
    [bearer(`${header}.${forged}.${signature}`), 'The token is not valid'],
    [bearer(none), 'The token is not valid'],
    [bearer(otherKey), 'The token is not valid'],
    [bearer(expired), 'The token has expired; log in again'],
    [bearer(forever), 'The token is not valid'],
    [bearer(ghost), 'The user of this token no longer exists'],
    [{authorization: 'Basic YWRhOnB3'}, 'This route needs a token: `Authorization: Bearer <token>` or `Authorization: Token <token>`']
  ]
  for (const [headers, detail] of cases) {
    const response = await call('GET', '/auth/me', undefined, headers)
    assert.is(response.status, 401, detail)
    assert.is(response.headers['www-authenticate'], 'Bearer, Token')
    assert.is(response.body!.detail, detail)
  }
})

test('routes: auth: true needs a token (401), roles need the role (403); a public route needs nothing', async () => {
  const member = (await call('POST', '/auth/login', {email: 'ada@example.com', password: 'analytical engine'})).body!.token
  assert.is((await call('POST', '/notes', {text: 'hello'})).status, 401)
  const created = await call('POST', '/notes', {text: 'hello'}, bearer(member))
  assert.is(created.status, 201)
  const forbidden = await call('DELETE', `/notes/${created.body!.id}`, undefined, bearer(member))
  assert.equal(forbidden.body, {type: 'about:blank', title: 'Forbidden', status: 403, detail: 'This route needs the role `admin`'})
  await app.orm.em.getKnex()('user').where({email: 'ada@example.com'}).update({role: 'admin'})
  const admin = (await call('POST', '/auth/login', {email: 'ada@example.com', password: 'analytical engine'})).body!.token
  assert.is((await call('DELETE', `/notes/${created.body!.id}`, undefined, bearer(admin))).status, 204)
  assert.is((await call('GET', '/notes')).status, 200)
})

test('mass assignment: protected fields are refused unless the route opts in; passwords are hashed on update', async () => {
  const admin = (await call('POST', '/auth/login', {email: 'ada@example.com', password: 'analytical engine'})).body!.token
  const bob = (await call('POST', '/auth/register', {email: 'bob@example.com', password: 'fine password'})).body!.user
  for (const body of [{role: 'admin'}, {id: 7}, {createdAt: '2020-01-01T00:00:00Z'}, {updatedAt: '2020-01-01T00:00:00Z'}]) {
    const response = await call('PATCH', `/users/${bob.id}`, body, bearer(admin))
    assert.is(response.status, 422, JSON.stringify(body))
    assert.is(response.body!.errors[0].code, 'unknown-field')
  }
  const promoted = await call('PUT', `/users/${bob.id}`, {email: 'bob@example.com', password: 'finer password', role: 'admin'}, bearer(admin))
  assert.is(promoted.status, 200, promoted.raw)
  assert.is(promoted.body!.role, 'admin', 'PUT lists `role` in `assign`')
  const changed = await call('PATCH', `/users/${bob.id}`, {password: 'the finest password'}, bearer(admin))
  assert.is(changed.status, 200)
  assert.not.ok(changed.raw.includes('$2b$'))
  const stored = await app.orm.em.getKnex()('user').where({id: bob.id}).first()
  assert.match(stored.password, /^\$2b\$10\$/)
  assert.is((await call('POST', '/auth/login', {email: 'bob@example.com', password: 'the finest password'})).status, 200)
  const planted = await call('PATCH', `/users/${bob.id}`, {password: stored.password}, bearer(admin))
  assert.equal(planted.body!.errors.map((error: Json) => error.code), ['password-hash'], 'a hash cannot be planted through a body')
  const registeredHash = await call('POST', '/auth/register', {email: 'eve@example.com', password: stored.password})
  assert.is(registeredHash.status, 422)
  const weak = await call('PATCH', `/users/${bob.id}`, {password: 'bob12345'}, bearer(admin))
  assert.equal(weak.body!.errors.map((error: Json) => error.code), ['password-email'], 'the e-mail comes from the stored record')
})

test('a custom provider (API key) through the same interface', async () => {
  assert.is((await call('GET', '/reports')).status, 401)
  assert.is((await call('GET', '/reports', undefined, {'x-api-key': 'wrong'})).status, 401)
  const ok = await call('GET', '/reports', undefined, {'x-api-key': 'key-123'})
  assert.equal([ok.status, ok.body], [200, {by: 'reporting'}])
})

test('CORS preflight for an allowed origin only; security headers on every answer', async () => {
  const allowed = await app.inject({method: 'OPTIONS', url: '/notes', headers: {origin: 'https://app.example.com', 'access-control-request-method': 'POST'}})
  assert.is(allowed.statusCode, 204)
  assert.is(allowed.headers['access-control-allow-origin'], 'https://app.example.com')
  // A browser asks before each update and delete: the preflight names the methods the auto-CRUD answers.
  const update = await app.inject({method: 'OPTIONS', url: '/notes/1', headers: {origin: 'https://app.example.com', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization,content-type'}})
  assert.equal([update.statusCode, update.headers['access-control-allow-methods'], update.headers['access-control-allow-headers']], [204, 'GET, HEAD, POST, PUT, PATCH, DELETE', 'authorization,content-type'])
  const read = await app.inject({method: 'GET', url: '/notes', headers: {origin: 'https://app.example.com'}})
  assert.is(read.headers['access-control-expose-headers'], 'Location, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id')
  const other = await app.inject({method: 'OPTIONS', url: '/notes', headers: {origin: 'https://evil.example', 'access-control-request-method': 'POST'}})
  assert.is(other.headers['access-control-allow-origin'], undefined)
  // An OPTIONS that is no preflight (curl's, or a client asking what a path takes) is the routes' 204 with `Allow`.
  for (const headers of [{}, {origin: 'https://app.example.com'}, {'access-control-request-method': 'PATCH'}]) {
    const asked = await app.inject({method: 'OPTIONS', url: '/notes/1', headers})
    assert.equal([asked.statusCode, asked.headers.allow, asked.body], [204, 'PUT, DELETE, OPTIONS', ''], JSON.stringify(headers))
  }
  const plain = await call('GET', '/notes')
  assert.is(plain.headers['x-content-type-options'], 'nosniff')
  assert.ok(plain.headers['content-security-policy'])
  assert.ok(plain.headers['strict-transport-security'])
  assert.is(plain.headers['x-frame-options'], 'SAMEORIGIN')
})

test('rate limits: per route, and on login by default; 429 problem+json with Retry-After and RateLimit headers', async () => {
  const limited = await createTestApp({root: project})
  try {
    const statuses: number[] = []
    let last
    const now = Date.now
    try {
      for (let index = 0; index < 4; index++) {
        // The last request comes 12 s into the window (the clock the limiter reads is moved, not waited for).
        if (index === 3) Date.now = () => now() + 12_000
        last = await limited.inject({method: 'GET', url: '/notes'})
        statuses.push(last.statusCode)
      }
    } finally {
      Date.now = now
    }
    assert.equal(statuses, [200, 200, 200, 429])
    assert.is(last!.headers['content-type'], 'application/problem+json; charset=utf-8')
    assert.is(JSON.parse(last!.body).status, 429)
    assert.ok(Number(last!.headers['retry-after']) > 0)
    assert.is(last!.headers['ratelimit-limit'], '3')
    assert.is(last!.headers['ratelimit-remaining'], '0')
    assert.ok(last!.headers['ratelimit-reset'])
    assert.match(JSON.parse(last!.body).detail, /^Too many requests: at most 3 per 1 minute; try again in 4\d s$/, 'the window as configured (60000 ms), not the time left')
    const logins: number[] = []
    for (let index = 0; index < 21; index++) {
      logins.push((await limited.inject({method: 'POST', url: '/auth/login', payload: {email: 'x@example.com', password: 'whatever it is'}})).statusCode)
    }
    assert.equal(logins, [...Array(20).fill(401), 429], 'auth.rateLimit: 20 per minute')
  } finally {
    await limited.close()
  }
})

test('the catalogue and OpenAPI of the app show each route\'s auth scheme and roles', async () => {
  const out = path.join((await import('./helpers/databases.js')).temporaryProject('auth-map'), 'map')
  const mapped = await runPipe(['map', project, '--output', out])
  assert.is(mapped.code, 0, mapped.stderr)
  const spec = JSON.parse((await import('node:fs')).readFileSync(path.join(out, 'api.endpoints.json'), 'utf8')) as Json
  const auth = Object.fromEntries(spec.endpoints.map((endpoint: Json) => [endpoint.id, [endpoint.auth, endpoint.tags ?? []]]))
  assert.equal(auth, {
    'auth.register': ['none', []],
    'auth.login': ['none', []],
    'auth.me': ['bearer', []],
    'note.list': ['none', []],
    'note.create': ['bearer', []],
    'note.delete': ['bearer', ['role:admin']],
    'note.update': ['bearer', []],
    'report.summary': ['apiKey', []],
    // Optional, as the app's OpenAPI document says it and any import reads it: open, or with a token of either scheme.
    'report.whoami': ['none', []],
    'report.session': ['none', []],
    'report.copy': ['bearer', []],
    'report.echo': ['none', []],
    'user.update': ['bearer', ['role:admin']],
    'user.update.put': ['bearer', ['role:admin']]
  })
  const alternatives = Object.fromEntries(spec.endpoints.map((endpoint: Json) => [endpoint.id, endpoint['x-auth-alternatives']]))
  assert.equal([alternatives['report.whoami'], alternatives['note.create'], alternatives['report.summary']], [['bearer', 'tokenAuth'], ['tokenAuth'], undefined])
  const served = await call('GET', '/openapi.json')
  assert.equal(served.body!.paths['/notes/{id}'].delete.security, [{bearerAuth: ['admin']}, {tokenAuth: ['admin']}])
  assert.equal(served.body!.paths['/reports'].get.security, [{apiKey: []}])
  const login = served.body!.paths['/auth/login'].post
  assert.equal(login.responses['200'].content['application/json'].schema, {$ref: '#/components/schemas/AuthSession'})
  assert.equal(served.body!.components.schemas.AuthSession, {type: 'object', properties: {token: {type: 'string', description: 'A JWT for `Authorization`'}, user: {$ref: '#/components/schemas/User'}}, required: ['token', 'user']})
  assert.equal(Object.keys(served.body!.paths['/auth/register'].post.responses), ['201', '400', '409', '413', '415', '422', '429'])
  assert.equal(spec.endpoints.find((endpoint: Json) => endpoint.id === 'auth.register').response, 'AuthSession')
  const copy = served.body!.paths['/notes/{id}/copies'].post
  assert.equal(Object.keys(copy.responses), ['201', '400', '401', '403', '404', '422'], 'the declared status, not 200')
  assert.equal(copy.requestBody.content['application/json'].schema, {$ref: '#/components/schemas/NoteInput'})
  assert.equal(copy.responses['201'].content['application/json'].schema, {$ref: '#/components/schemas/Note'})
  const copyEndpoint = spec.endpoints.find((endpoint: Json) => endpoint.id === 'report.copy')
  assert.equal([copyEndpoint.request, copyEndpoint.response, copyEndpoint.status], ['NoteInput', 'Note', [201, 400, 401, 403, 404, 422]])
  assert.is(served.body!.info.title, 'auth-app', 'the folder names a project without package.json')
  assert.equal(served.body!.paths['/whoami'].get.security, [{bearerAuth: []}, {tokenAuth: []}, {}], 'optional: any scheme, or none')
  assert.equal(served.body!.paths['/notes'].post.security, [{bearerAuth: []}, {tokenAuth: []}])
  assert.equal(served.body!.components.securitySchemes.tokenAuth, {type: 'apiKey', in: 'header', name: 'Authorization', description: '`Authorization: Token <jwt>`'})
  assert.equal(Object.keys(served.body!.components.securitySchemes).sort(), ['apiKey', 'bearerAuth', 'tokenAuth'])
  // A custom provider as it declares itself (`export const scheme`), in the document and so in the catalogue.
  assert.equal(served.body!.components.securitySchemes.apiKey, {description: 'The custom auth provider `src/auth/apiKey.ts`', type: 'apiKey', in: 'header', name: 'X-Api-Key'})
  assert.equal(spec.meta['x-auth-schemes'].apiKey, {type: 'apiKey', in: 'header', name: 'X-Api-Key'})
  assert.is(served.body!.paths['/notes'].get.security, undefined)
  // What the server answers and takes, as a generated client needs it: 429 behind a route's limit, `offset`, and
  // `filter[…]` keys (deepObject), not one `filter` parameter the server would refuse.
  const list = served.body!.paths['/notes'].get
  assert.equal(Object.keys(list.responses), ['200', '400', '429'])
  assert.equal(list.parameters.map((param: Json) => param.name), ['page', 'offset', 'limit', 'sort', 'filter', 'fields', 'populate', 'count'])
  assert.equal(list.parameters.find((param: Json) => param.name === 'filter').style, 'deepObject')
  assert.equal(Object.fromEntries(list.parameters.filter((param: Json) => ['page', 'offset', 'limit', 'count'].includes(param.name)).map((param: Json) => [param.name, param.schema])), {
    page: {type: 'integer', minimum: 1, default: 1},
    offset: {type: 'integer', minimum: 0},
    limit: {type: 'integer', minimum: 1, maximum: 100, default: 20},
    count: {type: 'boolean', default: true}
  })
  assert.equal(Object.keys(list.responses['429'].headers), ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
  // What only the server writes is marked so, for generated clients and the page.
  assert.equal([served.body!.components.schemas.Note.properties.views.readOnly, served.body!.components.schemas.Note.properties.reviewedAt.readOnly, served.body!.components.schemas.Note.properties.text.readOnly], [true, true, undefined])
  assert.equal(Object.keys(served.body!.paths['/notes'].post.responses), ['201', '400', '401', '403', '409', '413', '415', '422'])
})

test('the server refuses to start in production without a strong jwtSecret, and says how to set one', async () => {
  const result = await runPipe(['start', '--project', project], {env: {NODE_ENV: 'production', APIPE_TEST_JWT_SECRET: 'short', PORT: '0'}})
  assert.is(result.code, 1)
  assert.match(result.stderr, /^pipe: Cannot start: `jwtSecret` is 5 characters; it needs at least 32\. Set it from the environment: "jwtSecret": "\$\{JWT_SECRET\}"/)
})

test.run()
