/**
 * What `pipe generate test` and `pipe init` write. A generated test exercises the CRUD routes of one controller
 * through `createTestApp()` with sample values made from the entity's field types (and, for a required
 * many-to-one, a record created first through the related controller), so it passes on a fresh project and fails
 * when the contract breaks.
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import type {ControllerDefinition} from '../schemas/types/controller.js'
import type {EntityDefinition, FieldDefinition} from '../schemas/types/entity.js'
import {controllerDefinition, entityName, schemaOf, typeName} from './generate.js'

/** A value of a field's type that passes validation. */
export function sampleValue(name: string, field: FieldDefinition): unknown {
  switch (field.type) {
    case 'email':
      return `${name.toLowerCase()}@example.com`
    case 'password':
      return 'correct horse battery staple'
    case 'number':
      return 1.5
    case 'integer':
      return 1
    case 'boolean':
      return true
    case 'date':
      return '2024-01-31'
    case 'datetime':
      return '2024-01-31T12:00:00.000Z'
    case 'uuid':
      return '0b4c1c2e-8f4e-4c53-9c8e-2f4d7a9d3c11'
    case 'json':
      return {example: true}
    case 'enum':
      return field.enum?.[0]
    default:
      return `Example ${name}`.slice(0, field.length ?? 255)
  }
}

/** A create body: every required field, plus the first optional string (so an update has something to change). */
export function sampleBody(entity: EntityDefinition): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(entity.fields)) {
    // A generated key, and what only the server writes, is never sent.
    if ((field.primary && (field.type === 'integer' || field.type === 'uuid')) || field.readOnly) continue
    if (field.required || field.primary) body[name] = sampleValue(name, field)
  }
  return body
}

function routeOf(controller: ControllerDefinition, action: string, method?: string): string | undefined {
  return routeEntry(controller, action, method)?.[0].split(' ')[1].replace(/:([A-Za-z_]+)/g, '{$1}')
}

function routeEntry(controller: ControllerDefinition, action: string, method?: string): [string, ControllerDefinition['routes'][string]] | undefined {
  for (const [key, value] of Object.entries(controller.routes)) {
    const name = typeof value === 'string' ? value : value.action
    if (name === action && (!method || key.startsWith(`${method} `))) return [key, value]
  }
  return undefined
}

type Envelope = {single?: string; list?: string; count?: string}

/** The envelope of a controller's route (its own, else the controller's), or undefined when its bodies are bare. */
function envelopeOf(controller: ControllerDefinition, action: string, method?: string): Envelope | undefined {
  const route = routeEntry(controller, action, method)?.[1]
  const own = route && typeof route === 'object' ? (route as {envelope?: Envelope | false}).envelope : undefined
  const envelope = own ?? (controller as {envelope?: Envelope | false}).envelope
  return envelope || undefined
}

/**
 * What a route's `where` asks of a test: each path parameter it binds, with the related record and field its value
 * comes from (`{"article.slug": "params.slug"}`: the `slug` of the `article` made first; `{"shelf": "params.id"}`: that
 * record's key), and the fields and relations it sets, which a create's body never holds.
 */
export function whereOf(controller: ControllerDefinition, action: string, method?: string): {params: Map<string, {relation: string; field?: string}>; sets: Set<string>} {
  const route = routeEntry(controller, action, method)?.[1]
  const where = route && typeof route === 'object' ? (route as {where?: Record<string, unknown>}).where ?? {} : {}
  const params = new Map<string, {relation: string; field?: string}>()
  const sets = new Set<string>()
  for (const [key, value] of Object.entries(where)) {
    const [first, ...rest] = key.split('.')
    sets.add(first)
    const param = typeof value === 'string' && value.startsWith('params.') ? value.slice('params.'.length) : undefined
    if (param && !params.has(param)) params.set(param, {relation: first, field: rest.length > 0 ? rest.join('.') : undefined})
  }
  return {params, sets}
}

/** `payload` as the route reads it: inside its envelope's member, when it has one (`{club: {…}}`). */
function wrapped(payload: string, envelope: Envelope | undefined): string {
  return envelope?.single ? `{${envelope.single}: ${payload}}` : payload
}

/** The record in an answer of the route, as source: `created.json()`, or `created.json().club` in an envelope. */
function recordIn(answer: string, envelope: Envelope | undefined): string {
  return `${answer}.json()${envelope?.single ? `.${envelope.single}` : ''}`
}

/**
 * A route's path with its parameters taken from `record` (`/clubs/${record.name}`), or from `created.params` for
 * those the create's `where` bound to a related record (`/articles/${created.params.slug}/comments`), as a
 * template literal.
 */
function pathFor(route: string, record: string, bound: ReadonlySet<string> = new Set()): string {
  return `\`${route.replace(/\{([^}]+)\}/g, (_, name: string) => (bound.has(name) ? `\${created.params.${name}}` : `\${encodeURIComponent(String(${record}.${name}))}`))}\``
}

/** How the project authenticates, for generated tests of routes that need a token. */
export interface TestAuth {
  /** The user entity (`auth.entity`). */
  entity: EntityDefinition
  /** `auth.default`: whether routes need a token unless they say otherwise. */
  byDefault: boolean
}

/** The roles a route asks of a bearer token, or undefined when it needs none (no auth, `optional`, a provider). */
function bearerRoles(controller: ControllerDefinition, action: string, auth: TestAuth | undefined, method?: string): string[] | undefined {
  const route = routeEntry(controller, action, method)?.[1]
  const own: {auth?: boolean | string; roles?: string[]} = route && typeof route === 'object' ? route : {}
  const kind = own.auth ?? controller.auth ?? auth?.byDefault ?? false
  if (!auth || kind !== true) return undefined
  return own.roles ?? controller.roles ?? []
}

/**
 * The test helper that signs a user in: stored straight through the ORM with the role the routes ask for (roles come
 * from the user's record), then a token signed as the auth routes sign one.
 */
function signInSource(auth: TestAuth, roles: string[]): string[] {
  const fields = sampleBody(auth.entity)
  // Unique values of its own, so that a test may also create a user through the API.
  for (const [name, value] of Object.entries(fields)) {
    const field = auth.entity.fields[name]
    if (typeof value === 'string' && (field?.unique || field?.type === 'email')) fields[name] = field.type === 'email' ? `tester.${value}` : `Tester ${value}`.slice(0, field.length ?? 255)
  }
  const role = roles[0]
  if (role !== undefined && auth.entity.fields.roles) fields.roles = roles
  else if (role !== undefined && auth.entity.fields.role) fields.role = role
  const key = keyOf(auth.entity)
  return [
    '/** A user stored for the test, with the roles the routes ask for, and its token as request headers. */',
    'async function signIn(app: Awaited<ReturnType<typeof createTestApp>>) {',
    '  const em = app.orm.em.fork()',
    `  const user = em.create('${auth.entity.name}', ${tsValue(fields)}) as Record<string, unknown>`,
    '  await em.flush()',
    `  return {authorization: \`Bearer \${app.signToken({id: user.${key}, roles: ${tsValue(roles)}})}\`}`,
    '}',
    ''
  ]
}

/**
 * Which field a generated update changes: the first writable string-like field, else the first unique one (the test's
 * record is the only one, so a new value is free), else none.
 */
function updatable(entity: EntityDefinition): [string, unknown] | undefined {
  const candidates = Object.entries(entity.fields).filter(([, field]) => !field.primary && !field.readOnly && ['string', 'text'].includes(field.type))
  const [name] = candidates.find(([, field]) => !field.unique) ?? candidates[0] ?? []
  return name === undefined ? undefined : [name, `Changed ${name}`]
}

/** A value as TypeScript source, as the generated tests write it: `{title: 'Example title', published: true}`. */
function tsValue(value: unknown): string {
  return JSON.stringify(value).replace(/"([A-Za-z_][A-Za-z0-9_]*)":/g, '$1: ').replace(/"/g, "'").replace(/,(?=\S)/g, ', ')
}

/** A create body; the user entity's roles are the server's to give (a create that names them is refused). */
function requestBody(definition: EntityDefinition, auth: TestAuth | undefined): Record<string, unknown> {
  const body = sampleBody(definition)
  if (auth && definition.name === auth.entity.name) for (const name of ['role', 'roles']) delete body[name]
  return body
}

/**
 * Which routes of the tests need a token (the roles each asks for), and the roles the signed-in user gets: every role
 * any of them asks for that a user can have. Roles come from the user's record: without a `role` or `roles` field
 * (or with a `role` enum that lacks it), no user has the role, and a route that asks for it answers every user 403.
 */
function authPlan(controller: ControllerDefinition, related: Array<{controller: ControllerDefinition}>, auth: TestAuth | undefined, updateMethod: string | undefined) {
  const needs = {
    create: bearerRoles(controller, 'create', auth),
    read: bearerRoles(controller, 'read', auth),
    list: bearerRoles(controller, 'list', auth),
    update: bearerRoles(controller, 'update', auth, updateMethod),
    delete: bearerRoles(controller, 'delete', auth),
    related: related.map((item) => bearerRoles(item.controller, 'create', auth))
  }
  const needed = [needs.create, needs.read, needs.list, needs.update, needs.delete, ...needs.related].filter((roles): roles is string[] => roles !== undefined)
  const roleField = auth?.entity.fields.role
  const canHave = (role: string) => auth?.entity.fields.roles !== undefined || (roleField !== undefined && (roleField.type !== 'enum' || (roleField.enum ?? ([] as string[])).includes(role)))
  return {
    needs,
    signedIn: auth !== undefined && needed.length > 0,
    roles: [...new Set(needed.flat())].filter(canHave),
    unreachable: (roles: string[] | undefined) => (roles?.length ?? 0) > 0 && !roles!.some(canHave)
  }
}

/**
 * The helper of the generated tests that creates a record (each related record it needs first, through its route).
 * A relation that the create's `where` sets is not sent: its record fills the path parameters it binds, which the
 * helper hands on as `created.params` for the tests of the other nested routes.
 */
function createHelperSource(entity: EntityDefinition, route: string, envelope: Envelope | undefined, body: Record<string, unknown>, related: Array<{relation: string; entity: EntityDefinition; controller: ControllerDefinition; body: Record<string, unknown>; headers: string}>, where: ReturnType<typeof whereOf>, bound: ReadonlySet<string>, signedIn: boolean, headers: string): string[] {
  const lines = [`async function create${typeName(entity.name)}(app: Awaited<ReturnType<typeof createTestApp>>${signedIn ? ', auth: Record<string, string>' : ''}) {`]
  const answer = (relation: string) => related.find((item) => item.relation === relation)
  for (const item of related) {
    const own = envelopeOf(item.controller, 'create')
    lines.push(`  const ${item.relation} = await app.inject({method: 'POST', url: '${routeOf(item.controller, 'create')!}', payload: ${wrapped(tsValue(item.body), own)}${item.headers}})`)
    lines.push(`  assert.is(${item.relation}.statusCode, 201, ${item.relation}.body)`)
  }
  const valueOf = (item: (typeof related)[number], field?: string) => `${recordIn(item.relation, envelopeOf(item.controller, 'create'))}.${field ?? keyOf(item.entity)}`
  const extra = related.filter((item) => !where.sets.has(item.relation)).map((item) => `${item.relation}: ${valueOf(item)}`)
  const payload = tsValue(body).replace(/}$/, extra.length > 0 ? `${Object.keys(body).length > 0 ? ', ' : ''}${extra.join(', ')}}` : '}')
  if (bound.size > 0) lines.push(`  const params = {${[...bound].map((name) => `${name}: encodeURIComponent(String(${valueOf(answer(where.params.get(name)!.relation)!, where.params.get(name)!.field)}))`).join(', ')}}`)
  const url = bound.size > 0 ? `\`${route.replace(/\{([^}]+)\}/g, (whole, name: string) => (bound.has(name) ? `\${params.${name}}` : whole))}\`` : `'${route}'`
  lines.push(`  const created = await app.inject({method: 'POST', url: ${url}, payload: ${wrapped(payload, envelope)}${headers}})`)
  lines.push('  assert.is(created.statusCode, 201, created.body)', bound.size > 0 ? '  return Object.assign(created, {params})' : '  return created', '}', '')
  return lines
}

/** The name of an entity's key field (`id` unless a field says `primary`). */
function keyOf(entity: EntityDefinition): string {
  return Object.entries(entity.fields).find(([, field]) => field.primary)?.[0] ?? 'id'
}

/** What the generated tests of one controller share while they are written. */
interface TestPlan {
  entity: EntityDefinition
  related: Array<{relation: string; entity: EntityDefinition; controller: ControllerDefinition}>
  /** What the create route's `where` sets and binds. */
  where: ReturnType<typeof whereOf>
  /** The entity's create body: its sample fields, less those the create's `where` sets. */
  body: Record<string, unknown>
  /** The path parameters the create helper hands on as `created.params`. */
  bound: ReadonlySet<string>
  /**
   * The parameters of `bound` that another route's own `where` binds to the same record: only those are taken
   * from `created.params` there (`DELETE /comments/{id}` names the comment, not the post of `POST /posts/{id}/comments`).
   */
  boundIn(action: string, method?: string): ReadonlySet<string>
  /** Whether the project answers errors in a body of its own (`src/errors.ts`), whose shape only it knows. */
  ownErrorBody: boolean
  routes: {list?: string; create?: string; read?: string; update?: string; updateMethod?: 'PATCH' | 'PUT'; remove?: string}
  envelopes: Record<'create' | 'read' | 'list' | 'update', Envelope | undefined>
  needs: ReturnType<typeof authPlan>['needs']
  unreachable: (roles: string[] | undefined) => boolean
  lines: string[]
  /** The start of a test: a fresh app, and the token its routes need. */
  open(title: string): void
  /** The end of a test: its app closed. */
  close(): void
  /** `, headers: auth` for a route that needs a token. */
  headers(asked: string[] | undefined): string
  /** `, auth` for the create helper, when the tests sign in. */
  authArgument: string
  bodyOf(definition: EntityDefinition): Record<string, unknown>
  /** A comment in place of a test whose route asks for a role no user can have. */
  leftOut(route: string, asked: string[] | undefined): void
}

/** The source of `tests/<name>.test.ts` for a controller's CRUD routes. */
export function testSource(entity: EntityDefinition, controller: ControllerDefinition, related: TestPlan['related'], auth?: TestAuth, options: {ownErrorBody?: boolean} = {}): string {
  // A PATCH changes one field; a PUT (only) replaces the record, so it is sent whole.
  const updateMethod: TestPlan['routes']['updateMethod'] = routeOf(controller, 'update', 'PATCH') ? 'PATCH' : routeOf(controller, 'update', 'PUT') ? 'PUT' : undefined
  const routes = {list: routeOf(controller, 'list'), create: routeOf(controller, 'create'), read: routeOf(controller, 'read'), update: updateMethod && routeOf(controller, 'update', updateMethod), updateMethod, remove: routeOf(controller, 'delete')}
  const envelopes = {create: envelopeOf(controller, 'create'), read: envelopeOf(controller, 'read'), list: envelopeOf(controller, 'list'), update: updateMethod && envelopeOf(controller, 'update', updateMethod)}
  const {needs, signedIn, roles, unreachable} = authPlan(controller, related, auth, updateMethod)
  const signIn = signedIn ? '    const auth = await signIn(app)' : undefined
  const lines = [
    `// Tests of the ${controller.name} routes, written by \`pipe generate test\`. Run them with \`npm test\` (\`pipe test\`):`,
    '// each test app runs on its own throw-away database.',
    "import {test} from 'uvu'",
    "import * as assert from 'uvu/assert'",
    "import {createTestApp} from 'apipe-kit/runtime'",
    ''
  ]
  if (signedIn) lines.push(...signInSource(auth!, roles))
  if (routes.create && routes.read) {
    lines.push(
      '/** A record with its moments to the second, as MySQL and MariaDB store them (`…:59.280Z` is `…:59.000Z` there). */',
      'function toTheSecond(record: unknown): unknown {',
      "  return JSON.parse(JSON.stringify(record).replace(/(T\\d{2}:\\d{2}:\\d{2})\\.\\d{3}Z/g, '$1.000Z'))",
      '}',
      ''
    )
  }
  const where = whereOf(controller, 'create')
  const bound = new Set([...where.params].filter(([name, {relation}]) => routes.create?.includes(`{${name}}`) && related.some((item) => item.relation === relation)).map(([name]) => name))
  const plan: TestPlan = {
    entity,
    related,
    where,
    body: Object.fromEntries(Object.entries(requestBody(entity, auth)).filter(([name]) => !where.sets.has(name))),
    bound,
    boundIn: (action, method) => {
      const own = whereOf(controller, action, method).params
      return new Set([...bound].filter((name) => own.get(name)?.relation === where.params.get(name)?.relation && own.get(name)?.field === where.params.get(name)?.field))
    },
    ownErrorBody: options.ownErrorBody === true,
    routes,
    envelopes: {...envelopes, update: envelopes.update || undefined},
    needs,
    unreachable,
    lines,
    open: (title) => lines.push(`test('${title}', async () => {`, '  const app = await createTestApp()', '  try {', ...(signIn ? [signIn] : [])),
    close: () => lines.push('  } finally {', '    await app.close()', '  }', '})', ''),
    headers: (asked) => (asked === undefined ? '' : ', headers: auth'),
    authArgument: signedIn ? ', auth' : '',
    bodyOf: (definition) => requestBody(definition, auth),
    leftOut: (route, asked) => lines.push(`// ${route} needs the role ${asked!.join(' or ')}, which no \`${auth!.entity.name}\` can have (roles come from its \`role\` or \`roles\` field): no test.`, '')
  }
  createTests(plan)
  listTest(plan)
  updateTest(plan)
  deleteTest(plan)
  lines.push('test.run()', '')
  return lines.join('\n')
}

/** The create helper, and the tests of a create and of a create with an empty body. */
function createTests({entity, related, where, body, bound, boundIn, ownErrorBody, routes: {create, read}, envelopes, needs, lines, open, close, headers, authArgument, bodyOf}: TestPlan): void {
  if (!create) return
  lines.push(...createHelperSource(entity, create, envelopes.create, body, related.map((item, index) => ({...item, body: bodyOf(item.entity), headers: headers(needs.related[index])})), where, bound, authArgument !== '', headers(needs.create)))
  open(`POST ${create} answers 201 with the record and its Location`)
  lines.push(`    const created = await create${typeName(entity.name)}(app${authArgument})`, `    const record = ${recordIn('created', envelopes.create)}`)
  for (const [name, value] of Object.entries(body)) {
    if (entity.fields[name]?.type !== 'password') lines.push(`    assert.equal(record.${name}, ${tsValue(value)})`)
  }
  // Location names the record as the read route finds it (by its key, or a unique field such as a slug).
  // Without a read route, Location is the create's own path and the key (crud.ts).
  const location = read ? pathFor(read, 'record', boundIn('read')) : `${pathFor(create, 'record', bound).slice(0, -1)}/\${encodeURIComponent(String(record.${keyOf(entity)}))}\``
  lines.push(`    assert.is(created.headers.location, ${location})`)
  if (read) {
    lines.push(`    const read = await app.inject({method: 'GET', url: created.headers.location as string${headers(needs.read)}})`, '    assert.is(read.statusCode, 200)')
    // MySQL and MariaDB keep datetimes to the second: a read shows the moment as stored, so both are compared so.
    lines.push(`    assert.equal(toTheSecond(${recordIn('read', envelopes.read)}), toTheSecond(record))`)
  }
  close()
  open(`POST ${create} with an empty body answers 422 naming the required fields`)
  // A nested create answers 404 for a parent that does not exist: the records it is nested in are made first.
  if (bound.size > 0) lines.push(`    const created = await create${typeName(entity.name)}(app${authArgument})`)
  lines.push(`    const response = await app.inject({method: 'POST', url: ${pathFor(create, 'created', bound)}, payload: ${wrapped('{}', envelopes.create)}${headers(needs.create)}})`)
  // What the route's `where` sets is the server's to fill, never a missing field.
  const required = Object.entries(entity.fields).filter(([name, field]) => !where.sets.has(name) && !field.readOnly && (field.required || field.primary) && field.default === undefined && !(field.primary && ['integer', 'uuid'].includes(field.type))).length + related.filter((item) => !where.sets.has(item.relation)).length
  if (required > 0 && ownErrorBody) {
    lines.push('    // The body is the one src/errors.ts makes of the problem: its shape is the project\'s to test.', '    assert.is(response.statusCode, 422)')
  } else if (required > 0) {
    lines.push('    assert.is(response.statusCode, 422)', "    assert.is(response.headers['content-type'], 'application/problem+json; charset=utf-8')")
    lines.push(`    assert.is(response.json().errors.length, ${required})`)
  } else {
    lines.push('    assert.is(response.statusCode, 201)')
  }
  close()
}

/** The test of a list: a page with the record made before, its total in `meta` or the envelope's count. */
function listTest({entity, boundIn, routes: {list, create}, envelopes, needs, lines, open, close, headers, authArgument}: TestPlan): void {
  if (!list) return
  // A nested list is reached through the records its create was nested in; without them, by no test.
  const bound = boundIn('list')
  if ([...list.matchAll(/\{([^}]+)\}/g)].some(([, name]) => !create || !bound.has(name))) return void lines.push(`// GET ${list} needs its path parameters from a record this controller does not create: no test.`, '')
  open(`GET ${list} answers a page of records`)
  if (create) lines.push(`    ${bound.size > 0 ? 'const created = ' : ''}await create${typeName(entity.name)}(app${authArgument})`)
  lines.push(`    const response = await app.inject({method: 'GET', url: ${pathFor(`${list}?page=1&limit=10`, 'created', bound)}${headers(needs.list)}})`, '    assert.is(response.statusCode, 200)')
  const total = create ? 1 : 0
  if (envelopes.list?.count) lines.push(`    assert.is(response.json().${envelopes.list.count}, ${total})`)
  else lines.push(`    assert.equal(response.json().meta, {page: 1, limit: 10, total: ${total}, pages: ${total}})`)
  if (envelopes.list?.list) lines.push(`    assert.is(response.json().${envelopes.list.list}.length, ${total})`)
  close()
}

/** The test of an update: one field changed by a PATCH, or the whole record sent again by a PUT. */
function updateTest({entity, related, where, body, boundIn, routes: {create, update, updateMethod}, envelopes, needs, unreachable, lines, open, close, headers, authArgument, leftOut}: TestPlan): void {
  const change = updatable(entity)
  if (!create || !update) return
  if (!change) return void lines.push(`// ${updateMethod} ${update}: \`${entity.name}\` has no text field a test can change: no test.`, '')
  if (unreachable(needs.update)) return leftOut(`${updateMethod} ${update}`, needs.update)
  open(`${updateMethod} ${update} changes a field`)
  lines.push(`    const created = await create${typeName(entity.name)}(app${authArgument})`, `    const record = ${recordIn('created', envelopes.create)}`)
  const sent = updateMethod === 'PUT' ? tsValue({...body, [change[0]]: change[1]}) : `{${change[0]}: ${tsValue(change[1])}}`
  const relatedKeys = updateMethod === 'PUT' ? related.filter((item) => !where.sets.has(item.relation)).map((item) => `${item.relation}: record.${item.relation}`) : []
  const payload = relatedKeys.length > 0 ? sent.replace(/}$/, `, ${relatedKeys.join(', ')}}`) : sent
  lines.push(`    const response = await app.inject({method: '${updateMethod}', url: ${pathFor(update, 'record', boundIn('update', updateMethod))}, payload: ${wrapped(payload, envelopes.update)}${headers(needs.update)}})`)
  lines.push('    assert.is(response.statusCode, 200, response.body)', `    assert.is(${recordIn('response', envelopes.update)}.${change[0]}, ${tsValue(change[1])})`)
  close()
}

/** The test of a delete: 204, then the record is gone. */
function deleteTest({entity, boundIn, routes: {create, read, remove}, envelopes, needs, unreachable, lines, open, close, headers, authArgument, leftOut}: TestPlan): void {
  if (!create || !remove) return
  if (unreachable(needs.delete)) return leftOut(`DELETE ${remove}`, needs.delete)
  open(`DELETE ${remove} answers 204, then the record is gone`)
  lines.push(`    const created = await create${typeName(entity.name)}(app${authArgument})`, `    const record = ${recordIn('created', envelopes.create)}`)
  lines.push(`    const url = ${pathFor(remove, 'record', boundIn('delete'))}`)
  lines.push(`    assert.is((await app.inject({method: 'DELETE', url${headers(needs.delete)}})).statusCode, 204)`)
  if (read) lines.push(`    assert.is((await app.inject({method: 'GET', url${headers(needs.read)}})).statusCode, 404)`)
  close()
}


/** Where a new project's apipe-kit comes from: the registry, the checkout pipe runs from, or the package file it came in. */
export type ApipeSource = 'registry' | 'checkout' | 'package file'

/**
 * Where a new project gets apipe-kit from, as the running apipe-kit came. Run from a checkout (not inside a
 * `node_modules` folder): a `file:` link to it. Installed: how the installing project's lock resolved it, a package
 * file (`npm install ./apipe-kit-0.1.0.tgz` locks `file:apipe-kit-0.1.0.tgz`) as a `file:` link to that file, which the
 * registry may not have; else the registry version. `read` reads a file, or gives undefined when there is none.
 */
export function apipeDependency(packageRoot: string, version: string, read: (file: string) => string | undefined = readIfThere): {spec: string; source: ApipeSource} {
  const parts = packageRoot.split(/[\\/]/)
  const last = parts.lastIndexOf('node_modules')
  if (last === -1) return {spec: `file:${packageRoot}`, source: 'checkout'}
  const project = parts.slice(0, last).join('/') || '/'
  const installedAt = parts.slice(last).join('/')
  let resolved: unknown
  try {
    resolved = JSON.parse(read(`${project}/package-lock.json`) ?? '{}')?.packages?.[installedAt]?.resolved
  } catch {
    resolved = undefined
  }
  if (typeof resolved === 'string' && resolved.startsWith('file:')) return {spec: `file:${path.resolve(project, resolved.slice('file:'.length))}`, source: 'package file'}
  return {spec: `^${version}`, source: 'registry'}
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

/**
 * The packages under apipe-kit whose install scripts a project needs: the native bindings of bcrypt and
 * better-sqlite3 (prebuilt or compiled on install) and esbuild's binary, which loads the project's TypeScript.
 * test/init.test.ts checks the list against apipe-kit's dependencies.
 */
export const installScriptPackages = ['bcrypt', 'better-sqlite3', 'esbuild']

/**
 * npm's `allowScripts` of a new project: the packages above by name (any version), and apipe-kit itself when it is
 * a `file:` link, whose `prepare` builds it. npm 11 warns after each install about install scripts without an entry
 * there, and documents that it skips them; older npm versions ignore the field.
 */
export function allowedScripts(apipeSpec: string): Record<string, true> {
  const allowed: Record<string, true> = {}
  if (apipeSpec.startsWith('file:')) allowed[apipeSpec] = true
  for (const name of installScriptPackages) allowed[name] = true
  return allowed
}

/** The example hook of a new project: it trims the title a client sent and checks it again. */
const exampleHook = [
  "import type {ActionContext} from 'apipe-kit/runtime'",
  '',
  '/**',
  ' * Runs before every `POST /posts`, after the body passed its checks, in the same transaction: trims the title a',
  ' * client sent and checks it again, so that a title of spaces is refused (422) rather than saved empty.',
  ' */',
  'export default function beforeCreate(ctx: ActionContext) {',
  "  if (typeof ctx.data.title !== 'string') return",
  '  ctx.data.title = ctx.data.title.trim()',
  "  ctx.validate(ctx.data, {type: 'object', properties: {title: {type: 'string', minLength: 1}}})",
  '}',
  ''
].join('\n')

/** The files of a new project, by path; `apipeSpec` is the version or `file:` link its package.json depends on. */
export function projectFiles(name: string, apipeSpec: string, uvuVersion: string): Record<string, string> {
  const post: EntityDefinition = {
    $schema: schemaOf('entity'),
    name: 'post',
    fields: {
      title: {type: 'string', required: true, length: 200},
      body: {type: 'text'},
      published: {type: 'boolean', required: true, default: false}
    },
    timestamps: true
  }
  const controller = {$schema: schemaOf('controller'), ...controllerDefinition('post', true)}
  const packageName = entityName(name).replace(/_/g, '-') || 'app'
  return {
    'package.json': JSON.stringify(
      {
        name: packageName,
        version: '0.1.0',
        private: true,
        type: 'module',
        scripts: {dev: 'pipe dev', start: 'pipe start', test: 'pipe test', migrate: 'pipe migrate'},
        dependencies: {'apipe-kit': apipeSpec},
        devDependencies: {uvu: uvuVersion},
        allowScripts: allowedScripts(apipeSpec)
      },
      null,
      2
    ),
    'pipe.config.json': JSON.stringify({$schema: './node_modules/apipe-kit/schemas/project.schema.json', port: 3000, database: {type: 'sqlite', url: './data/app.sqlite'}, middleware: ['requestId']}, null, 2),
    'src/entities/post.json': JSON.stringify(post, null, 2),
    'src/controller/post.json': JSON.stringify(controller, null, 2),
    'tests/post.test.ts': testSource(post, controller, []),
    'src/hooks/post/beforeCreate.ts': exampleHook,
    'src/middleware/requestId.ts': [
      "import {randomUUID} from 'node:crypto'",
      "import type {ActionContext} from 'apipe-kit/runtime'",
      '',
      '/**',
      ' * Every answer of a route carries `X-Request-Id`: the one the client sent, else a new one. Listed in pipe.config.json,',
      ' * middleware runs for each route the app serves; what the server answers before any route (an unknown path, a body',
      ' * that is not JSON) comes without it.',
      ' */',
      'export default async function requestId(ctx: ActionContext, next: () => Promise<void>) {',
      "  const id = ctx.request.headers['x-request-id']",
      "  ctx.response.header('x-request-id', typeof id === 'string' && id.length <= 200 ? id : randomUUID())",
      '  await next()',
      '}',
      ''
    ].join('\n'),
    '.gitignore': 'node_modules/\ndata/\n.env\n',
    'README.md': [
      `# ${name}`,
      '',
      'A backend built with [apipe-kit](https://github.com/apipe/apipe): entities in `src/entities/`, routes in',
      '`src/controller/`, hooks in `src/hooks/<controller>/`, middleware in `src/middleware/`.',
      '',
      '```sh',
      'npm install',
      'npm run migrate     # create the tables (SQLite at ./data/app.sqlite)',
      'npm run dev         # http://localhost:3000/posts, reloads on change',
      'npm test            # the tests in tests/, each on a throw-away database',
      '```',
      '',
      'Change an entity, then `npx pipe migrate create <name>` writes the migration and `npm run migrate` applies it.',
      ''
    ].join('\n')
  }
}

const fieldTypes: Record<FieldDefinition['type'], string> = {
  string: 'string',
  text: 'string',
  email: 'string',
  password: 'string',
  uuid: 'string',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
  date: 'string',
  datetime: 'Date',
  json: 'unknown',
  enum: 'string'
}

/**
 * The source of `src/apipe-types.d.ts` (`pipe generate types`): the entities' records as the request's entity manager
 * holds them, and the auth entity, merged into `apipe-kit/runtime`'s `Entities` and `AuthEntity`.
 */
export function typesSource(entities: readonly EntityDefinition[], authEntity: string | undefined): string {
  const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name))
  const lines = [
    '// Written by `pipe generate types` from the entity definitions: run it again after changing them.',
    "import type {Collection} from '@mikro-orm/core'",
    '',
    "declare module 'apipe-kit/runtime' {",
    '  interface Entities {'
  ]
  for (const entity of entities) {
    lines.push(`    ${key(entity.name)}: {`)
    if (!Object.values(entity.fields).some((field) => field.primary)) lines.push('      id: number')
    for (const [name, field] of Object.entries(entity.fields)) {
      const type = field.type === 'enum' ? (field.enum ?? []).map((value) => JSON.stringify(value)).join(' | ') || 'string' : fieldTypes[field.type]
      const optional = !(field.required || field.primary)
      lines.push(`      ${key(name)}: ${type}${optional ? ' | null' : ''}`)
    }
    if (entity.timestamps) lines.push('      createdAt: Date', '      updatedAt: Date')
    for (const [name, relation] of Object.entries(entity.relations ?? {})) {
      const target = `Entities[${JSON.stringify(relation.entity)}]`
      const many = relation.kind === 'one-to-many' || relation.kind === 'many-to-many'
      lines.push(`      ${key(name)}: ${many ? `Collection<${target}>` : `${target}${relation.required ? '' : ' | null'}`}`)
    }
    lines.push('    }')
  }
  lines.push('  }')
  if (authEntity) lines.push('  interface AuthEntity {', `    entity: ${JSON.stringify(authEntity)}`, '  }')
  lines.push('}', '')
  return lines.join('\n')
}
