/**
 * The routes of a project as data: what `pipe map` (the catalogue) and `pipe openapi` (OpenAPI 3.1, also served at
 * `/openapi.json`) describe. One place decides each route's summary, auth, parameters and status codes, so the
 * catalogue, the OpenAPI document and the server agree.
 */
import type {ControllerDefinition, Envelope, RouteOptions} from '../schemas/types/controller.js'
import type {EntityDefinition, FieldDefinition} from '../schemas/types/entity.js'
import type {ResolvedConfig} from './config.js'
import {primaryKeyOf, tableOf} from './entity-schema.js'
import {plural, typeName} from './generate.js'

/**
 * The built-in actions a route may name: the six auto-CRUD ones of 4.3, and `link` / `unlink`, which add or remove
 * the current user in a relation of one record (a favorite, a follow).
 */
export const crudActions = ['list', 'read', 'create', 'update', 'delete', 'count', 'link', 'unlink'] as const

/** What a route does: an auto-CRUD action (`update` by PUT is `replace`), or a custom action of a code controller. */
export type RouteKind = 'list' | 'read' | 'create' | 'update' | 'replace' | 'delete' | 'count' | 'link' | 'unlink' | 'custom'

/** A controller as routes are described from it: its definition and, for a code controller, its custom actions. */
export interface DescribedController {
  definition: ControllerDefinition
  actions?: Record<string, unknown>
}

/** One route, described. */
export interface RouteInfo {
  controller: string
  key: string
  method: string
  /** With `{id}` style parameters. */
  path: string
  action: string
  crud: boolean
  kind: RouteKind
  summary: string
  /** `none`, `bearer` or a provider name. */
  auth: string
  roles: string[]
  status: number[]
  pathParams: Array<{name: string; type: FieldDefinition['type']}>
  queryParams: Array<{name: string; description: string}>
  /** Entity name of the request body, of the response, and whether the response is a list. */
  request?: string
  response?: string
  responseList?: boolean
  entity?: EntityDefinition
  /** Middleware names of the route (after the config's global ones). */
  middleware: string[]
  rateLimit?: RouteOptions['rateLimit']
  /** Fields of the auth entity a body may set (`roles` only when listed here). */
  assign: string[]
  /** A custom action's declared success status (`status` on the route). */
  declaredStatus?: number
  /** The members bodies are wrapped in (the route's `envelope`, else the controller's). */
  envelope?: Exclude<Envelope, false>
  /** One of the auth routes (4.5): its answer is the user and a token (`{token, user}`, or in `auth.envelope`). */
  authAnswer?: boolean
  /**
   * The field that the last path parameter names a record by: the key (`{id}`), or a unique field (`{slug}`).
   * None when the route finds its record by `where` alone (`PUT /user` with `{"id": "user"}`).
   */
  lookup?: {param: string; field: string}
  /** The route's `where` conditions, `query` parameter names, `defaults` and `link` relation, as declared. */
  where?: RouteOptions['where']
  queryNames?: RouteOptions['query']
  defaults?: RouteOptions['defaults']
  relation?: string
  /** A create route's `Location`: the path of the controller's read route, its parameter filled from the record. */
  location?: {path: string; field: string}
}

const summaries: Record<string, (entity: string, plural: string) => string> = {
  list: (_, plural) => `List ${plural}`,
  read: (entity) => `Read a ${entity}`,
  create: (entity) => `Create a ${entity}`,
  update: (entity) => `Update a ${entity}`,
  replace: (entity) => `Replace a ${entity}`,
  delete: (entity) => `Delete a ${entity}`,
  count: (_, plural) => `Count ${plural}`,
  link: (entity) => `Add the current user to a ${entity}`,
  unlink: (entity) => `Remove the current user from a ${entity}`
}

const listParams = [
  {name: 'page', description: 'Page number, from 1 (default 1)'},
  {name: 'offset', description: 'Records to skip, from 0, instead of `page`'},
  {name: 'limit', description: 'Records per page, 1 to 100 (default 20)'},
  {name: 'sort', description: 'Fields to sort by, `-` for descending: `-createdAt,title`'},
  {name: 'filter', description: '`filter[field]=v` or `filter[field][op]=v` with eq ne gt gte lt lte in nin like null'},
  {name: 'fields', description: 'Fields to return: `id,title` (the answer then holds only those and the key, so fields the schema requires may be absent)'},
  {name: 'populate', description: 'Relations to load: `author,tags`'},
  {name: 'count', description: '`false` skips the total (default true)'}
]

function listParamsNamed(...names: string[]): RouteInfo['queryParams'] {
  return listParams.filter((param) => names.includes(param.name))
}

/** Describe every route of a project's controllers. */
export function describeRoutes(config: Pick<ResolvedConfig, 'auth' | 'rateLimit'>, entities: readonly EntityDefinition[], controllers: readonly DescribedController[]): RouteInfo[] {
  const byName = new Map(entities.map((entity) => [entity.name, entity]))
  const routes: RouteInfo[] = describeAuthRoutes(config, byName)
  for (const {definition: controller, actions} of controllers) {
    for (const [key, value] of Object.entries(controller.routes)) {
      const options: RouteOptions = typeof value === 'string' ? {action: value} : value
      const [method, rawPath] = key.split(' ')
      const path = rawPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}')
      // A code controller's own action wins over the auto-CRUD one of the same name.
      const crud = !actions?.[options.action] && (crudActions as readonly string[]).includes(options.action)
      const entity = crud ? byName.get(controller.entity ?? controller.name) : undefined
      const name = entity?.name ?? controller.name
      const kind: RouteKind = !crud ? 'custom' : options.action === 'update' && method === 'PUT' && !options.partial ? 'replace' : (options.action as RouteKind)
      const auth = options.auth ?? controller.auth ?? config.auth?.default ?? false
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1])
      const lookup = entity && kind !== 'list' && kind !== 'create' && kind !== 'count' ? lookupOf(entity, names.at(-1)) : undefined
      // A custom action's parameters are text: its own code reads them.
      const keyType: FieldDefinition['type'] = entity ? fieldTypeOf(entity, primaryKeyOf(entity)) : 'string'
      const pathParams = names.map((param) => ({name: param, type: param === lookup?.param ? fieldTypeOf(entity!, lookup.field) : param === 'id' ? keyType : ('string' as const)}))
      const relation = kind === 'link' || kind === 'unlink' ? options.relation : undefined
      routes.push({
        controller: controller.name,
        key,
        method,
        path,
        action: options.action,
        crud,
        kind,
        summary: options.summary ?? (crud ? summaries[kind](name.replace(/_/g, ' '), plural(name).replace(/_/g, ' ')) + (relation ? `'s ${relation}` : '') : `${options.action[0].toUpperCase()}${options.action.slice(1)} (${controller.name})`),
        auth: auth === true ? 'bearer' : auth === false ? 'none' : auth,
        roles: options.roles ?? controller.roles ?? [],
        status: statusOf(kind, auth !== false, kind === 'create' ? findsRelated(kind, entity, options.where) : kind === 'list' || kind === 'count' ? findsParent(entity, options.where) : pathParams.length > 0, options.status, Boolean(options.rateLimit ?? config.rateLimit)),
        pathParams,
        queryParams: [...queryNamesOf(options.query), ...(!crud ? [] : kind === 'list' ? listParams : kind === 'count' ? listParamsNamed('filter') : kind === 'read' ? listParamsNamed('fields', 'populate') : [])],
        request: crud ? (['create', 'update', 'replace'].includes(kind) ? name : undefined) : options.request,
        response: crud ? (['list', 'read', 'create', 'update', 'replace', 'link', 'unlink'].includes(kind) ? name : undefined) : options.response?.replace(/\[\]$/, ''),
        responseList: crud ? kind === 'list' : options.response?.endsWith('[]') === true,
        entity,
        middleware: options.middleware ?? [],
        rateLimit: options.rateLimit,
        assign: options.assign ?? [],
        declaredStatus: crud ? undefined : options.status,
        envelope: envelopeOf(options.envelope ?? controller.envelope),
        lookup,
        where: options.where,
        queryNames: options.query,
        defaults: options.defaults,
        relation
      })
    }
  }
  return withLocations(routes)
}

/** The field a path parameter names a record by: the key (`{id}` or the key's own name) or a unique field. */
function lookupOf(entity: EntityDefinition, param: string | undefined): RouteInfo['lookup'] {
  if (param === undefined) return undefined
  const key = primaryKeyOf(entity)
  if (param === 'id' || param === key) return {param, field: key}
  return entity.fields[param]?.unique ? {param, field: param} : undefined
}

function fieldTypeOf(entity: EntityDefinition, field: string): FieldDefinition['type'] {
  return entity.fields[field]?.type ?? 'integer'
}

/** A route's own query parameters (`?tag=` for `filter[tagList.name]`), as the catalogue and OpenAPI list them. */
function queryNamesOf(names: RouteOptions['query']): RouteInfo['queryParams'] {
  return Object.entries(names ?? {}).map(([name, target]) => ({name, description: `Same as \`${target}\``}))
}

/** Give each create route the `Location` of its controller's read route (`/articles/{slug}` by the slug). */
function withLocations(routes: RouteInfo[]): RouteInfo[] {
  for (const route of routes) {
    if (route.kind !== 'create') continue
    const read = routes.find((other) => other.controller === route.controller && other.kind === 'read' && other.lookup && !other.where)
    if (read?.lookup) route.location = {path: read.path, field: read.lookup.field}
  }
  return routes
}

/** The auth routes of a project by action (`POST /auth/register` …), as `auth.routes` moves or removes them. */
export function authRouteKeys(config: Pick<ResolvedConfig, 'auth'>): Partial<Record<'register' | 'login' | 'me', string>> {
  const routes = config.auth?.routes
  if (!config.auth?.entity || routes === false) return {}
  const chosen = routes === true || routes === undefined ? {} : routes
  const keys: Partial<Record<'register' | 'login' | 'me', string>> = {}
  const defaults = {register: 'POST /auth/register', login: 'POST /auth/login', me: 'GET /auth/me'} as const
  for (const action of ['register', 'login', 'me'] as const) {
    const value = chosen[action]
    if (value !== false) keys[action] = typeof value === 'string' ? value : defaults[action]
  }
  return keys
}

/** An envelope that wraps something, or none (`false`, or no member named). */
function envelopeOf(envelope: Envelope | undefined): Exclude<Envelope, false> | undefined {
  return envelope && (envelope.single || envelope.list) ? envelope : undefined
}

/** Wrap an answer in a route's envelope: one record in `single`, a list page in `list` (and `count` for its total). */
export function wrapAnswer(route: Pick<RouteInfo, 'envelope' | 'kind' | 'responseList' | 'response'>, body: unknown): unknown {
  const envelope = route.envelope
  if (!envelope || body === undefined) return body
  if (route.kind === 'list') {
    const {data, meta} = body as {data: unknown[]; meta: {total?: number}}
    if (!envelope.list) return body
    return envelope.count ? {[envelope.list]: data, [envelope.count]: meta.total ?? data.length} : {[envelope.list]: data, meta}
  }
  if (route.kind === 'custom' && !route.response) return body
  if (route.responseList) return envelope.list ? {[envelope.list]: body, ...(envelope.count && Array.isArray(body) ? {[envelope.count]: body.length} : {})} : body
  if (route.kind === 'count' || route.kind === 'delete') return body
  return envelope.single ? {[envelope.single]: body} : body
}

/** The auth routes (4.5) as routes like any other, so that the catalogue and the OpenAPI document list them. */
function describeAuthRoutes(config: Pick<ResolvedConfig, 'auth'>, entities: ReadonlyMap<string, EntityDefinition>): RouteInfo[] {
  const users = config.auth?.entity ? entities.get(config.auth.entity) : undefined
  if (!users) return []
  const shapes = {
    register: {summary: 'Register a user and sign them in', status: [201, 400, 409, 413, 415, 422, 429], request: users.name, auth: 'none'},
    login: {summary: 'Sign in: a token for an e-mail and password', status: [200, 400, 401, 415, 422, 429], request: undefined, auth: 'none'},
    me: {summary: 'The user of the token', status: [200, 401], request: undefined, auth: 'bearer'}
  } as const
  return Object.entries(authRouteKeys(config)).map(([action, key]) => {
    const shape = shapes[action as keyof typeof shapes]
    const [method, path] = key!.split(' ')
    return {
      controller: 'auth',
      key: key!,
      method,
      path: path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}'),
      action,
      crud: false,
      kind: 'custom' as const,
      summary: shape.summary,
      auth: shape.auth,
      roles: [],
      status: [...shape.status],
      pathParams: [],
      queryParams: [],
      request: shape.request,
      response: users.name,
      responseList: false,
      middleware: [],
      assign: [],
      authAnswer: action !== 'me' || config.auth?.envelope !== undefined
    }
  })
}

/**
 * Whether a create's `where` names a relation: the create sets it to the record that meets the condition, and
 * answers 404 when none does (`POST /articles/{slug}/comments` for an article that is not there).
 */
function findsRelated(kind: RouteKind, entity: EntityDefinition | undefined, where: RouteOptions['where']): boolean {
  return kind === 'create' && Object.keys(where ?? {}).some((path) => entity?.relations?.[path.split('.')[0]] !== undefined)
}

/**
 * Whether a list's or a count's `where` names a relation by a path parameter: the route answers 404 when no record
 * meets it (`GET /articles/{slug}/comments` for an article that is not there), not an empty list.
 */
function findsParent(entity: EntityDefinition | undefined, where: RouteOptions['where']): boolean {
  return Object.entries(where ?? {}).some(([path, source]) => typeof source === 'string' && source.startsWith('params.') && path.split('.').length <= 2 && ['many-to-one', 'one-to-one'].includes(entity?.relations?.[path.split('.')[0]]?.kind ?? ''))
}

/**
 * The statuses a route answers: its kind's, 401 and 403 behind auth, 429 behind a rate limit (its own or the
 * project's), and 404 where it looks a record up (`finds`: a path parameter, a create's related record, or the
 * record a list's or a count's path names).
 */
function statusOf(kind: string, authenticated: boolean, finds: boolean, declared: number | undefined, limited: boolean): number[] {
  const codes: Record<string, number[]> = {
    list: [200, 400],
    count: [200, 400],
    // `fields` and `populate` that name nothing, or a parameter a record does not take.
    read: [200, 400, 404],
    create: [201, 400, 409, 413, 415, 422],
    update: [200, 400, 404, 409, 413, 415, 422],
    replace: [200, 400, 404, 409, 413, 415, 422],
    delete: [204, 404, 409],
    link: [200, 400, 404],
    unlink: [200, 400, 404],
    custom: [declared ?? 200, 400, ...(finds ? [404] : []), 422]
  }
  const list = [...codes[kind], ...(['create', 'list', 'count'].includes(kind) && finds ? [404] : []), ...(authenticated ? [401, 403] : []), ...(limited ? [429] : [])]
  return [...new Set(list)].sort((a, b) => a - b)
}


/** The fields of an entity as a response shows them: name, catalogue type, required. */
export function responseFields(entity: EntityDefinition): Array<{name: string; type: string; required: boolean; field?: FieldDefinition}> {
  const fields: Array<{name: string; type: string; required: boolean; field?: FieldDefinition}> = []
  const key = primaryKeyOf(entity)
  if (!entity.fields[key]) fields.push({name: key, type: 'integer', required: true})
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.hidden || field.writeOnly || field.type === 'password') continue
    // What the server fills on create (`from: "user"`) is always there, as a required field is.
    fields.push({name, type: field.type === 'enum' ? (field.enum ?? []).map((value) => JSON.stringify(value)).join(' | ') : field.type, required: Boolean(field.required || field.primary || field.from), field})
  }
  if (entity.timestamps) fields.push({name: 'createdAt', type: 'datetime', required: true}, {name: 'updatedAt', type: 'datetime', required: true})
  for (const [name, spec] of Object.entries(entity.computed ?? {})) fields.push({name, type: 'count' in spec ? 'integer' : 'boolean', required: true})
  for (const [name, relation] of Object.entries(entity.relations ?? {})) {
    // A relation answered `by` a field of its target shows that field's values (`string[]`).
    const target = relation.by ? 'string' : typeName(relation.entity)
    const many = relation.kind === 'one-to-many' || relation.kind === 'many-to-many'
    fields.push({name, type: many ? `${target}[]` : target, required: Boolean(relation.required || relation.from)})
  }
  return fields
}

export {tableOf, typeName}
