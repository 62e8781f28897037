/**
 * Operations of a path item as endpoints: id from `operationId` (made unique, spaces and odd characters replaced),
 * else from method and path (`GET /pets/{petId}` -> `getPetsByPetId`); the first tag is the group, further tags stay
 * `tags`; path-level params merged with the operation's; cookie params kept as `header` with `x-in: cookie`;
 * numeric response codes as `status`, sorted; the JSON request body (else the first body) as `request`; the first 2xx
 * JSON response (else the first 2xx body) as `response`. Swagger 2 `body` and `formData` params feed the request.
 * An event (webhook, callback) has one type, its payload: the body sent to the subscriber, as `response`, and only
 * its own `security`.
 */
import type {Endpoint, Param} from '../../schemas/types/endpoints.js'
import {authOf} from './auth.js'
import {pascal, record, text} from '../shared/readers.js'
import type {Context} from './context.js'
import {contentEntries, exampleOf, isJsonMedia, preferredMedia, responsesOf} from './responses.js'

/** The URL of the first of `servers` (OpenAPI 3), its variables set to their defaults. */
export function serverUrl(servers: unknown): string | undefined {
  const server = record(Array.isArray(servers) ? servers[0] : undefined)
  if (!text(server.url)) return undefined
  let url = String(server.url)
  for (const [name, variable] of Object.entries(record(server.variables))) {
    if (record(variable).default !== undefined) url = url.split(`{${name}}`).join(String(record(variable).default))
  }
  return url
}

/** The HTTP methods a path item can hold, as catalogue methods. */
/** The operations a path item may hold that the catalogue has methods for (TRACE has none). */
export const methodNames: ReadonlySet<string> = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch'])

/** The methods a path item has operations for, in the order the document writes them (as readers of it see them). */
export function methodsOf(item: Record<string, unknown>): string[] {
  return Object.keys(item).filter((key) => methodNames.has(key) && item[key])
}

/** The endpoint for one operation. */
export function operationEndpoint(context: Context, method: string, path: string, item: Record<string, unknown>, operation: Record<string, unknown>, kind: 'route' | 'event'): Endpoint {
  const id = uniqueId(context.ids, text(operation.operationId) ? sanitize(String(operation.operationId)) : derivedId(method, path))
  const endpoint: Endpoint = {id, method: kind === 'event' ? 'EVENT' : (method.toUpperCase() as Endpoint['method']), path}
  const tags = Array.isArray(operation.tags) ? operation.tags.filter((tag): tag is string => typeof tag === 'string') : []
  if (tags[0]) endpoint.group = tags[0]
  if (text(operation.summary)) endpoint.summary = String(operation.summary).trim().replace(/\s+/g, ' ')
  // A description may be a `$ref` to a Markdown file (split descriptions do that).
  const description = context.refs.text(operation.description)
  if (description) endpoint.description = description.trim()
  // A subscriber never authenticates with the API's own schemes: an event carries only its own security.
  const {auth, alternatives} = authOf(context.document, context.refs, operation, kind !== 'event')
  if (auth) endpoint.auth = auth
  if (alternatives) endpoint['x-auth-alternatives'] = alternatives
  const status = Object.keys(record(operation.responses)).filter((code) => /^[1-5]\d\d$/.test(code)).map(Number).sort((a, b) => a - b)
  if (status.length > 0) endpoint.status = status
  const {params, bodyParams, origins, shared} = parameters(context, item, operation)
  if (params.length > 0) {
    endpoint.params = params
    paramOrigins.set(endpoint, {origins, shared})
  }
  const requestBody = context.refs.resolve(operation.requestBody).value
  const bodyParam = bodyParams.find((parameter) => parameter.in === 'body')
  if (kind === 'event') {
    // An event's payload is the body the API sends to its subscribers: its `response`, as AsyncAPI events have it.
    const payload = requestType(context, operation, bodyParams, id, 'Payload') ?? responseType(context, operation, id)
    if (payload) endpoint.response = payload
  } else {
    const request = requestType(context, operation, bodyParams, id, 'Request')
    if (request) endpoint.request = request
    if (request && requestRequired(requestBody, bodyParams)) endpoint['x-request-required'] = true
    const response = responseType(context, operation, id)
    if (response) endpoint.response = response
  }
  // OpenAPI 3 describes the request body on `requestBody`, Swagger 2 on its `body` param.
  const requestDescription = context.refs.text(requestBody?.description ?? bodyParam?.description)?.trim()
  if (requestDescription) endpoint.request_description = requestDescription
  // An operation (or its path item) served elsewhere than the document (`servers` of its own) says where.
  const server = serverUrl(operation.servers) ?? serverUrl(item.servers)
  if (server && server !== serverUrl(context.document.servers)) endpoint['x-base-url'] = server
  const {media, types: mediaTypes} = requestMedia(context, operation, requestBody, bodyParams)
  if (media) endpoint['x-request-media'] = media
  if (mediaTypes.length > 1) endpoint['x-request-media-types'] = mediaTypes
  const requestExample = requestBody ? exampleOf(context.refs, preferredMedia(context.refs, requestBody.content)) : bodyParam ? context.types.factsOf(bodyParam.schema, '').example : undefined
  if (requestExample !== undefined) endpoint.request_example = requestExample
  const responses = responsesOf(context, operation, id)
  if (responses.length > 0) endpoint.responses = responses
  if (operation.deprecated === true) endpoint.deprecated = true
  if (tags.length > 1) endpoint.tags = tags.slice(1)
  return endpoint
}

/**
 * Where each param of an endpoint is declared, for the places of findings about it (a diff's `param-required-added`
 * on the param's own line): its index in the path item's `parameters` and then the operation's, as one list of which
 * the first `shared` are the path item's. Kept beside the endpoint, not in the catalogue.
 */
export const paramOrigins = new WeakMap<Endpoint, {origins: number[]; shared: number}>()

function parameters(context: Context, item: Record<string, unknown>, operation: Record<string, unknown>) {
  const merged = new Map<string, Record<string, unknown>>()
  const declared = new Map<Record<string, unknown>, number>()
  const shared = asArray(item.parameters).length
  for (const [index, raw] of [...asArray(item.parameters), ...asArray(operation.parameters)].entries()) {
    const parameter = context.refs.resolve(raw).value
    if (!parameter || !text(parameter.name)) continue
    merged.set(`${parameter.in}:${parameter.name}`, parameter)
    declared.set(parameter, index)
  }
  const params: Param[] = []
  const origins: number[] = []
  const bodyParams: Array<Record<string, unknown>> = []
  for (const parameter of merged.values()) {
    const location = String(parameter.in)
    if (location === 'body' || location === 'formData') {
      bodyParams.push(parameter)
      if (location === 'body') continue
    }
    const param: Param = {name: String(parameter.name), in: location === 'cookie' || location === 'formData' ? (location === 'cookie' ? 'header' : 'body') : (location as Param['in'])}
    if (!['path', 'query', 'header', 'body'].includes(param.in)) continue
    // OpenAPI 3 describes a param by `schema`, or by `content` (one media type: a JSON-encoded filter); Swagger 2 by
    // the param itself.
    const schema = parameter.schema ?? preferredMedia(context.refs, parameter.content)?.schema ?? (parameter.type ? parameter : undefined)
    param.type = schema ? context.types.typeOf(schema, () => pascal(`${String(parameter.name)} param`)) : 'string'
    param.required = parameter.required === true || location === 'path'
    if (schema && param.type.endsWith('[]') && context.types.itemsNullable(schema)) param['x-items-nullable'] = true
    // A param's description, else its schema's (some descriptions write every one there).
    const description = text(parameter.description) ?? text(context.refs.resolve(schema).value?.description)
    if (description) param.description = description.trim()
    Object.assign(param, context.types.factsOf(schema, param.type))
    if (parameter.example !== undefined) param.example = parameter.example
    if (location === 'cookie') param['x-in'] = 'cookie'
    if (parameter.deprecated === true) param['x-deprecated'] = true
    params.push(param)
    origins.push(declared.get(parameter)!)
  }
  return {params, bodyParams, origins, shared}
}

/**
 * Whether a request must carry its body: OpenAPI 3's `requestBody.required` (false when absent, as the specification
 * says), Swagger 2's `body` param `required`, or any required `formData` field.
 */
function requestRequired(requestBody: Record<string, unknown> | undefined, bodyParams: Array<Record<string, unknown>>): boolean {
  if (bodyParams.length > 0) return bodyParams.some((parameter) => parameter.required === true)
  return requestBody?.required === true
}

/** The type of the request body; an inline schema is named `<Id><suffix>` (`CreatePetRequest`, `PetAddedPayload`). */
function requestType(context: Context, operation: Record<string, unknown>, bodyParams: Array<Record<string, unknown>>, id: string, suffix: string): string | undefined {
  const body = bodyParams.find((parameter) => parameter.in === 'body')
  if (body?.schema) return context.types.bodyTypeOf(body.schema, () => `${pascal(id)}${suffix}`)
  const requestBody = context.refs.resolve(operation.requestBody)
  const schema = preferredSchema(context, requestBody.value?.content)
  if (schema === undefined) return undefined
  return context.types.bodyTypeOf(schema, requestBody.name ?? (() => `${pascal(id)}${suffix}`))
}

function responseType(context: Context, operation: Record<string, unknown>, id: string): string | undefined {
  const responses = record(operation.responses)
  const success = Object.keys(responses).filter((code) => /^2(\d\d|XX)$/i.test(code)).sort()
  for (const code of success) {
    const response = context.refs.resolve(responses[code])
    // Swagger 2 puts the schema on the response; OpenAPI 3 under a media type.
    const schema = response.value?.schema ?? preferredSchema(context, response.value?.content)
    if (schema !== undefined) return context.types.bodyTypeOf(schema, response.name ?? (() => `${pascal(id)}Response`))
  }
  return undefined
}

/**
 * The media types of a request body. `media`: the one that is not JSON (`multipart/form-data`,
 * `application/octet-stream`), which the page's curl line sends as such: the first of `requestBody.content` when
 * none is JSON; Swagger 2 `formData` params as multipart when the operation (or the document) consumes it, else as a
 * URL-encoded form. `types`: every media type the body may be sent as (`requestBody.content`; Swagger 2: the
 * `consumes` of a `body` param), kept when there are several so that `pipe diff` tells clients when one goes.
 */
function requestMedia(context: Context, operation: Record<string, unknown>, requestBody: Record<string, unknown> | undefined, bodyParams: Array<Record<string, unknown>>): {media?: string; types: string[]} {
  if (requestBody) {
    const types = contentEntries(context.refs, requestBody.content, context.drop).map(([type]) => type)
    return {media: types.length > 0 && !types.some(isJsonMedia) ? types[0] : undefined, types}
  }
  const consumes = ([operation.consumes, context.document.consumes].find(Array.isArray) ?? []).filter((type): type is string => typeof type === 'string')
  if (bodyParams.some((parameter) => parameter.in === 'body')) return {types: consumes}
  if (!bodyParams.some((parameter) => parameter.in === 'formData')) return {types: []}
  return {media: consumes.includes('multipart/form-data') ? 'multipart/form-data' : 'application/x-www-form-urlencoded', types: []}
}

/** The schema of the JSON media type (`application/json`, `*\/*+json`), else of the first one. */
function preferredSchema(context: Context, content: unknown): unknown {
  return preferredMedia(context.refs, content)?.schema
}

/** `getPetsByPetId` for `GET /pets/{petId}`. */
export function derivedId(method: string, path: string): string {
  const words = path.split('/').filter(Boolean).map((segment) => (/^\{.+\}$/.test(segment) ? `By ${segment.slice(1, -1)}` : segment))
  return method.toLowerCase() + (pascal(words.join(' ')) || 'Root')
}

function sanitize(id: string): string {
  return id.trim().replace(/[^\w.-]+/g, '_') || 'operation'
}

/** `id`, or `id-2`, `id-3`… when taken. */
export function uniqueId(ids: Set<string>, id: string): string {
  let candidate = id
  for (let counter = 2; ids.has(candidate); counter++) candidate = `${id}-${counter}`
  ids.add(candidate)
  return candidate
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}
