/**
 * The OpenAPI 3.1 document of a project (`pipe openapi`, and `GET /openapi.json` on the server): a path per route,
 * request bodies with the same JSON Schemas the server validates with, responses with the entity schemas, errors as
 * RFC 9457 problems, and bearer security on authenticated routes.
 */
import type {EntityDefinition, FieldDefinition} from '../schemas/types/entity.js'
import type {ProjectInfo, ResolvedConfig} from './config.js'
import {bodySchema, fieldSchema} from './http/body-schema.js'
import {entityModel, type EntityModel} from './http/model.js'
import {isInternal} from './events/outbox.js'
import {describeRoutes, responseFields, typeName, type DescribedController, type RouteInfo} from './routes.js'
import {defaultLimit, maxLimit} from './http/query.js'

type Json = Record<string, unknown>

const descriptions: Record<number, string> = {
  200: 'OK',
  201: 'Created; `Location` names the new record',
  204: 'No content',
  400: 'Malformed JSON or query',
  401: 'Missing or invalid token',
  403: 'A required role is missing',
  404: 'Not found',
  409: 'A unique value is taken, or the record is still referenced',
  413: 'The body is too large',
  415: 'The body is not JSON',
  422: 'Validation failed; `errors` lists each field',
  429: 'Too many requests: send again after `Retry-After` seconds'
}

/** The schemas of the list parameters the server reads as numbers and booleans (query.ts), with its bounds. */
const listParamSchemas: Record<string, Json> = {
  page: {type: 'integer', minimum: 1, default: 1},
  offset: {type: 'integer', minimum: 0},
  limit: {type: 'integer', minimum: 1, maximum: maxLimit, default: defaultLimit},
  count: {type: 'boolean', default: true}
}

/** A 429's headers: when to send again, and the limit's state (RateLimit header fields). */
const rateLimitHeaders: Json = {
  'Retry-After': {description: 'Seconds until the limit lets a request through', schema: {type: 'integer'}},
  'RateLimit-Limit': {description: 'Requests the limit allows in its window', schema: {type: 'integer'}},
  'RateLimit-Remaining': {description: 'Requests left in the window', schema: {type: 'integer'}},
  'RateLimit-Reset': {description: 'Seconds until the window starts again', schema: {type: 'integer'}}
}

/** A create's `Location` (crud.ts): the new record's address, on its controller's read route when it has one. */
function locationHeader(route: RouteInfo): Json {
  const where = route.location ? `, as \`${route.location.path}\` reads it` : ''
  return {Location: {description: `The new record's address${where}`, schema: {type: 'string', format: 'uri-reference'}}}
}

/** A field type (or a catalogue scalar such as `integer`, `datetime`) as JSON Schema, as the server validates it. */
function scalarSchema(type: string, field?: FieldDefinition): Json {
  return fieldSchema(field ?? {type: type as FieldDefinition['type']}) ?? {type: 'string'}
}

/**
 * An entity's answer as JSON Schema. A relation is its key, or the related record when populated (only its `fields`
 * when the relation names them); a relation answered `by` a field is that field's values.
 */
export function entityJsonSchema(entity: EntityDefinition, entities: ReadonlyMap<string, EntityDefinition>): Json {
  const properties: Record<string, Json> = {}
  const required: string[] = []
  for (const {name, type, required: isRequired, field} of responseFields(entity)) {
    const many = type.endsWith('[]')
    const base = many ? type.slice(0, -2) : type
    const relation = entity.relations?.[name]
    const target = relation && entities.get(relation.entity)
    const populated = relation?.fields && target ? projection(entityJsonSchema(target, new Map()), relation.fields) : {$ref: `#/components/schemas/${base}`}
    const item = relation?.by ? scalarSchema('string', target?.fields[relation.by]) : relation ? {oneOf: [{type: 'integer'}, populated]} : scalarSchema(field?.type ?? base, field)
    // An answer shows every field, a value not set as `null` (a list relation, `[]`).
    properties[name] = many ? {type: 'array', items: item} : isRequired ? item : orNull(item)
    // What only the server writes: a body may not set it (a 422), and a generated client leaves it out of requests.
    if (field?.readOnly) properties[name] = {...properties[name], readOnly: true}
    if (isRequired) required.push(name)
  }
  return {type: 'object', properties, required}
}

/** `schema`, or null. */
function orNull(schema: Json): Json {
  if (typeof schema.type === 'string') return {...schema, type: [schema.type, 'null'], ...(Array.isArray(schema.enum) ? {enum: [...schema.enum, null]} : {})}
  return {anyOf: [schema, {type: 'null'}]}
}

/** A record schema cut to some of its fields (a populated relation's `fields`, a route's default `fields`). */
function projection(schema: Json, fields: readonly string[]): Json {
  const properties = schema.properties as Record<string, Json>
  const kept = fields.filter((name) => properties[name])
  return {type: 'object', properties: Object.fromEntries(kept.map((name) => [name, properties[name]])), required: (schema.required as string[]).filter((name) => kept.includes(name))}
}

/** A list's `meta`: `page` and `pages` when the client pages by number, `offset` when by offset (`?offset=`). */
const pageMeta = {type: 'object', properties: {page: {type: 'integer'}, offset: {type: 'integer'}, limit: {type: 'integer'}, total: {type: 'integer'}, pages: {type: 'integer'}}}

/**
 * `schema` as the component `name`, referenced: an envelope or session that many routes answer is one type for
 * clients (and for the catalogue the document imports into), not a copy per operation. Inline when another schema
 * already has the name.
 */
function named(schemas: Record<string, Json>, name: string, schema: Json): Json {
  if (schemas[name] === undefined) schemas[name] = schema
  else if (JSON.stringify(schemas[name]) !== JSON.stringify(schema)) return schema
  return {$ref: `#/components/schemas/${name}`}
}

/**
 * The schema of a route's success answer: the record, a list page or a list, in the route's envelope if it has one.
 * Envelopes are components named after their member (`ArticleEnvelope`, `ArticlesEnvelope`, `ProfileEnvelope`), the
 * auth routes' answer is `AuthSession`.
 */
function answerSchema(route: RouteInfo, schemas: Record<string, Json>, envelope?: string): Json {
  // A route whose `defaults` choose the fields answers only those (and the key).
  const name = typeName(route.response!)
  const fields = route.defaults?.fields?.split(',')
  const item = fields && schemas[name] ? projection(schemas[name], ['id', ...fields]) : {$ref: `#/components/schemas/${name}`}
  // Routes that answer alike share the component; one whose `defaults` answer other fields keeps its own inline.
  const shared = (component: string, schema: Json) => named(schemas, component, schema)
  if (route.authAnswer) {
    const token = {type: 'string', description: 'A JWT for `Authorization`'}
    return shared('AuthSession', envelope ? {type: 'object', properties: {[envelope]: {allOf: [item, {type: 'object', properties: {token}, required: ['token']}]}}, required: [envelope]} : {type: 'object', properties: {token, user: item}, required: ['token', 'user']})
  }
  const {single, list, count} = route.envelope ?? {}
  const object = (properties: Record<string, Json>) => ({type: 'object', properties, required: Object.keys(properties)})
  if (route.kind === 'list') {
    const records = {type: 'array', items: item}
    if (!list) return object({data: records, meta: pageMeta})
    return shared(`${typeName(list)}Envelope`, object(count ? {[list]: records, [count]: {type: 'integer'}} : {[list]: records, meta: pageMeta}))
  }
  if (route.responseList) return list ? shared(`${typeName(list)}Envelope`, object({[list]: {type: 'array', items: item}, ...(count ? {[count]: {type: 'integer'}} : {})})) : {type: 'array', items: item}
  return single ? shared(`${typeName(single)}Envelope`, object({[single]: item})) : item
}

/** `Bearer` is HTTP bearer auth; another scheme of `auth.schemes` (`Token <jwt>`) is the Authorization header as a key. */
function tokenSchemesOf(config: ResolvedConfig): Array<{name: string; scheme: Json}> {
  return (config.auth?.schemes ?? ['Bearer']).map((word) =>
    word.toLowerCase() === 'bearer'
      ? {name: 'bearerAuth', scheme: {type: 'http', scheme: 'bearer', bearerFormat: 'JWT'}}
      : {name: `${word.toLowerCase()}Auth`, scheme: {type: 'apiKey', in: 'header', name: 'Authorization', description: `\`Authorization: ${word} <jwt>\``}}
  )
}

/** What a project's code adds to its documents (runtime/project.ts loads them). */
export interface DocumentParts {
  /** The JSON Schema of the project's own error body (`src/errors.ts`). */
  errorSchema?: object
  /** The security scheme of each custom auth provider that declares one, by provider name. */
  authSchemes?: ReadonlyMap<string, object>
}

/**
 * The OpenAPI 3.1 document of a project. `errorSchema` is the JSON Schema of the project's own error body (`export
 * const schema` beside the formatter in `src/errors.ts`): errors are then described as that, as `application/json`.
 */
export function openapiDocument(config: ResolvedConfig, entities: readonly EntityDefinition[], controllers: readonly DescribedController[], info: ProjectInfo, {errorSchema, authSchemes}: DocumentParts = {}): Json {
  const routes = describeRoutes(config, entities, controllers)
  const tokenSchemes = tokenSchemesOf(config)
  const models = new Map(entities.map((entity) => [entity.name, entityModel(entity)]))
  const schemas: Record<string, Json> = {
    Problem: errorSchema ? (errorSchema as Json) : {
      type: 'object',
      description: 'RFC 9457 problem details',
      properties: {
        type: {type: 'string'},
        title: {type: 'string'},
        status: {type: 'integer'},
        detail: {type: 'string'},
        errors: {type: 'array', items: {type: 'object', properties: {pointer: {type: 'string'}, code: {type: 'string'}, detail: {type: 'string'}}, required: ['pointer', 'code', 'detail']}}
      },
      required: ['type', 'title', 'status', 'detail']
    }
  }
  for (const entity of entities.filter((item) => !isInternal(item))) {
    schemas[typeName(entity.name)] = entityJsonSchema(entity, new Map(entities.map((item) => [item.name, item])))
    schemas[`${typeName(entity.name)}Input`] = bodySchema(models.get(entity.name)!, 'create', models)
    schemas[`${typeName(entity.name)}Patch`] = bodySchema(models.get(entity.name)!, 'update', models)
  }
  const paths: Record<string, Record<string, Json>> = {}
  const ids = new Set<string>()
  for (const route of routes) {
    let operationId = `${route.controller}.${route.action}`
    if (ids.has(operationId)) operationId = `${operationId}.${route.method.toLowerCase()}`
    ids.add(operationId)
    const operation = operationOf(route, operationId, {config, models, schemas, tokenSchemes, errorType: errorSchema ? 'application/json' : 'application/problem+json'})
    ;(paths[route.path] ??= {})[route.method.toLowerCase()] = operation
  }
  const document: Json = {
    openapi: '3.1.0',
    info: {title: info.title, version: info.version},
    servers: [{url: `http://localhost:${config.port}`}],
    paths,
    components: {schemas}
  }
  // Every scheme a route names is defined: bearer JWT, and each custom provider, as the provider declares it
  // (`export const scheme`); one that does not is described as a header named after it, which only its code reads.
  const schemes: Record<string, Json> = {}
  const described = (name: string) => `The custom auth provider \`src/auth/${name}.ts\``
  for (const route of routes) {
    if (route.auth === 'bearer' || route.auth === 'optional') for (const scheme of tokenSchemes) schemes[scheme.name] = scheme.scheme
    else if (route.auth !== 'none') {
      const declared = authSchemes?.get(route.auth) as Json | undefined
      schemes[route.auth] = declared ? {description: described(route.auth), ...declared} : {type: 'apiKey', in: 'header', name: route.auth, description: `${described(route.auth)}, which declares no \`scheme\``}
    }
  }
  if (Object.keys(schemes).length > 0) (document.components as Json).securitySchemes = schemes
  return document
}

/** One route as an OpenAPI operation: its parameters, body, answers by status and security. */
/**
 * `filter[title]=Dune`, `filter[year][gte]=1965`: OpenAPI's `deepObject` style, so that a generated client sends
 * `filter[…]` keys rather than one `filter` parameter, which the server refuses.
 */
function filterParameter(description: string): Json {
  const condition = {oneOf: [{type: 'string'}, {type: 'object', additionalProperties: {type: 'string'}}]}
  return {name: 'filter', in: 'query', required: false, description, style: 'deepObject', explode: true, schema: {type: 'object', additionalProperties: condition}}
}

function operationOf(route: RouteInfo, operationId: string, {config, models, schemas, tokenSchemes, errorType}: {config: ResolvedConfig; models: ReadonlyMap<string, EntityModel>; schemas: Record<string, Json>; tokenSchemes: Array<{name: string; scheme: Json}>; errorType: string}): Json {
  const responses: Record<string, Json> = {}
  for (const status of route.status) {
    const response: Json = {description: descriptions[status] ?? 'Answer'}
    if (status >= 400) response.content = {[errorType]: {schema: {$ref: '#/components/schemas/Problem'}}}
    if (status === 429) response.headers = rateLimitHeaders
    else if (route.response && status < 300 && status !== 204) {
      response.content = {'application/json': {schema: answerSchema(route, schemas, config.auth?.envelope)}}
    } else if (route.action === 'count' && status < 300) {
      response.content = {'application/json': {schema: {type: 'object', properties: {count: {type: 'integer'}}, required: ['count']}}}
    }
    if (status === 201 && route.kind === 'create') response.headers = locationHeader(route)
    responses[String(status)] = response
  }
  const operation: Json = {operationId, summary: route.summary, tags: [route.controller], responses}
  const parameters = [
    ...route.pathParams.map((param) => ({name: param.name, in: 'path', required: true, schema: scalarSchema(param.type)})),
    ...route.queryParams.map((param) => (param.name === 'filter' ? filterParameter(param.description) : {name: param.name, in: 'query', required: false, description: param.description, schema: (route.crud && listParamSchemas[param.name]) || {type: 'string'}}))
  ]
  if (parameters.length > 0) operation.parameters = parameters
  if (route.authAnswer && route.action === 'login') {
    const credentials = {type: 'object', properties: {email: {type: 'string'}, password: {type: 'string'}}, required: ['email', 'password']}
    const envelope = config.auth?.envelope
    operation.requestBody = {required: true, content: {'application/json': {schema: envelope ? {type: 'object', properties: {[envelope]: credentials}, required: [envelope]} : credentials}}}
  }
  if (route.request) {
    // A route whose `where` sets fields (a comment's `article` from the path) takes a body without them.
    const scoped = new Set(Object.keys(route.where ?? {}).map((path) => path.split('.')[0]))
    const model = models.get(route.request)
    const bodyName = `${typeName(route.request)}${route.kind === 'update' ? 'Patch' : 'Input'}`
    const scopedBody = route.crud && model && scoped.size > 0
    const body: Json = scopedBody ? bodySchema(model, route.kind === 'update' ? 'update' : 'create', models, scoped) : {$ref: `#/components/schemas/${bodyName}`}
    const single = route.envelope?.single
    const enveloped = single && {type: 'object', properties: {[single]: body}, required: [single], additionalProperties: false}
    // The envelope of an entity's body is a component, as its answer's (`ArticleInputEnvelope`); a scoped body's is the route's.
    const schema = enveloped ? (scopedBody ? enveloped : named(schemas, `${bodyName}Envelope`, enveloped)) : body
    operation.requestBody = {required: true, content: {'application/json': {schema}}}
  }
  if (route.auth === 'bearer' || route.auth === 'optional') {
    // One requirement per accepted scheme (any one will do); an optional route also takes none.
    operation.security = [...tokenSchemes.map((scheme) => ({[scheme.name]: route.roles})), ...(route.auth === 'optional' ? [{}] : [])]
  } else if (route.auth !== 'none') operation.security = [{[route.auth]: route.roles}]
  return operation
}
