/**
 * Compare two catalogues as a client sees them. Endpoints are matched by method and route (REST and event paths
 * with their placeholders made anonymous, REST ones under their base URL's path, GraphQL operations by name), then
 * leftovers by id (a changed method or path). Types are compared structurally from where endpoints use them, in
 * the direction of the data: what clients send (params, request bodies, GraphQL arguments) may only widen, what they
 * receive (responses, event payloads and an event's params) may only narrow. Each change has a code; the rules
 * (rules.ts) decide which count as breaking.
 */
import {isDeepStrictEqual} from 'node:util'
import type {Catalogue} from '../../schemas/types/endpoints.js'
import {codeSpan} from '../../pipeline/errors.js'
import {routeKey} from '../shared/route-key.js'

type Endpoint = Catalogue['endpoints'][number]
type Param = NonNullable<Endpoint['params']>[number]
type Response = NonNullable<Endpoint['responses']>[number]
type TypeDef = NonNullable<Catalogue['types']>[number]
type Field = NonNullable<TypeDef['fields']>[number]

/** Where each type of the new catalogue is in its `types`, for the places of the changes found in it. */
const newTypeIndex = new WeakMap<TypeDef, number>()

/**
 * The place of a change in a type of the new catalogue: the type (`types[3]`), or one of its fields
 * (`types[3].fields[1]`), which an import translates to its source (a schema's property, with a line).
 */
function typePlace(type: TypeDef, fieldIndex = -1): Array<string | number> {
  const index = newTypeIndex.get(type)
  if (index === undefined) return ['types']
  return fieldIndex >= 0 ? ['types', index, 'fields', fieldIndex] : ['types', index]
}

/** One change: its code (a rule id), where (see the README's `pipe diff`), and what, in a sentence. */
export interface Change {
  code: string
  location: string
  message: string
  /** Path of the changed thing in the new catalogue, when it is there (for line and column). */
  path: Array<string | number>
}

/** Which way data flows: `request` (clients send it), `response` (clients receive it), `event` (subscribers receive it). */
type Direction = 'request' | 'response' | 'event'

const graphqlMethods = new Set(['QUERY', 'MUTATION', 'SUBSCRIPTION'])
const objectKinds = new Set(['object', 'input', 'interface'])
/** Kinds whose pairs are compared once per direction (see `Types.compared`). */
const pairedKinds = new Set(['enum', 'union', 'object', 'input', 'interface'])

/** Every change from `previous` to `next`, in the order of `previous`'s endpoints, then added endpoints. */
export function compareCatalogues(previous: Catalogue, next: Catalogue): Change[] {
  const changes: Change[] = []
  const seen = new Set<string>()
  const add = (change: Change) => {
    const key = `${change.code} ${change.location}`
    if (seen.has(key)) return
    seen.add(key)
    changes.push(change)
  }
  const types: Types = {old: byName(previous.types ?? []), new: byName(next.types ?? []), compared: {request: new Map(), response: new Map(), event: new Map()}, implementers: {old: implementersOf(previous.types ?? []), new: implementersOf(next.types ?? [])}, schemes: {old: schemesOf(previous), new: schemesOf(next)}}
  for (const [index, type] of (next.types ?? []).entries()) newTypeIndex.set(type, index)
  markSharedRoutes(previous.endpoints)
  markSharedRoutes(next.endpoints)
  const nextIndex = new Map(next.endpoints.map((endpoint, index) => [endpoint, index]))
  const [oldBase, newBase] = basePaths(previous, next)
  const matched = new Set<Endpoint>()
  const pairs: Array<[Endpoint, Endpoint]> = []
  let unmatched = pairByRoute(previous.endpoints, next.endpoints, (endpoint, side) => endpointKey(endpoint, side === 'old' ? oldBase : newBase), matched, pairs)
  if (oldBase !== newBase) {
    // Routes that kept their paths while the base path changed (`/v3.0/…` to `/v3.2/…` in the server URL): one
    // change for all of them, where the base path is, rather than one per endpoint.
    const before = pairs.length
    unmatched = pairByRoute(unmatched, next.endpoints, (endpoint) => endpointKey(endpoint, ''), matched, pairs)
    const moved = pairs.length - before
    if (moved > 0) {
      const message = `Routes moved from under ${codeSpan(oldBase || '/')} to under ${codeSpan(newBase || '/')}, the path of \`meta.base_url\`: ${moved} endpoint(s) are called at another URL`
      add({code: 'base-path-changed', location: 'meta.base_url', message, path: ['meta', 'base_url']})
    }
  }
  // Leftovers with the same id in both: the same operation under another method or path.
  const nextById = new Map(next.endpoints.filter((endpoint) => !matched.has(endpoint)).map((endpoint) => [endpoint.id, endpoint]))
  for (const endpoint of unmatched) {
    const partner = nextById.get(endpoint.id)
    const at = partner ? ['endpoints', nextIndex.get(partner)!] : ['endpoints']
    if (!partner) {
      add({code: 'endpoint-removed', location: route(endpoint), message: `Removed ${codeSpan(display(endpoint))}`, path: at})
      continue
    }
    matched.add(partner)
    if (partner.method !== endpoint.method) {
      add({code: 'method-changed', location: `${route(endpoint)}.method`, message: `Method of ${codeSpan(endpoint.id)} changed from ${codeSpan(endpoint.method)} to ${codeSpan(partner.method)}`, path: [...at, 'method']})
    }
    if (endpointKey({...partner, method: endpoint.method}, newBase) !== endpointKey(endpoint, oldBase)) {
      // Under another base path the paths are shown as clients call them (`/v1/pets` to `/v2/pets`).
      const [from, to] = oldBase === newBase || !isRest(endpoint) ? [endpoint.path, partner.path] : [oldBase + endpoint.path, newBase + partner.path]
      add({code: 'path-changed', location: `${route(endpoint)}.path`, message: `Path of ${codeSpan(endpoint.id)} changed from ${codeSpan(from)} to ${codeSpan(to)}`, path: [...at, 'path']})
    }
    pairs.push([endpoint, partner])
  }
  for (const [before, after] of pairs) compareEndpoint(before, after, ['endpoints', nextIndex.get(after)!], types, add)
  for (const endpoint of next.endpoints) {
    if (!matched.has(endpoint)) add({code: 'endpoint-added', location: route(endpoint), message: `Added ${codeSpan(display(endpoint))}`, path: ['endpoints', nextIndex.get(endpoint)!]})
  }
  return changes
}

/**
 * Pair each of `endpoints` not matched yet with an endpoint of `next` of the same key; the pairs go to `pairs`, the
 * partners to `matched`. Returns the endpoints left without a partner. Events on one channel, or on channels of one
 * address (a WebSocket's `/`), share a key: among several, an event is paired with the one of its id, else with the
 * one that carries the same payload, else only when one is left on each side, so that a renamed event is not
 * compared with another event's payload.
 */
function pairByRoute(endpoints: Endpoint[], next: Endpoint[], keyOf: (endpoint: Endpoint, side: 'old' | 'new') => string, matched: Set<Endpoint>, pairs: Array<[Endpoint, Endpoint]>): Endpoint[] {
  const nextByKey = new Map<string, Endpoint[]>()
  for (const endpoint of next) {
    if (matched.has(endpoint)) continue
    const key = keyOf(endpoint, 'new')
    const group = nextByKey.get(key)
    if (group) group.push(endpoint)
    else nextByKey.set(key, [endpoint])
  }
  const oldByKey = new Map<string, Endpoint[]>()
  const left: Endpoint[] = []
  for (const endpoint of endpoints) {
    const key = keyOf(endpoint, 'old')
    const candidates = nextByKey.get(key)
    if (!candidates) {
      left.push(endpoint)
      continue
    }
    const group = oldByKey.get(key)
    if (group) group.push(endpoint)
    else oldByKey.set(key, [endpoint])
  }
  for (const [key, olds] of oldByKey) {
    const candidates = nextByKey.get(key)!
    if (olds.length === 1 && candidates.length === 1) {
      pair(olds[0], candidates[0])
      continue
    }
    const open = (list: Endpoint[]) => list.filter((item) => !matched.has(item))
    const rest = olds.filter((endpoint) => !pair(endpoint, open(candidates).find((candidate) => candidate.id === endpoint.id)))
    const unpaired = rest.filter((endpoint) => {
      const sameBody = open(candidates).filter((candidate) => candidate.response === endpoint.response && candidate.request === endpoint.request)
      return !(sameBody.length === 1 && pair(endpoint, sameBody[0]))
    })
    if (unpaired.length === 1 && open(candidates).length === 1) pair(unpaired[0], open(candidates)[0])
    else left.push(...unpaired)
  }
  return left

  function pair(endpoint: Endpoint, partner: Endpoint | undefined): boolean {
    if (!partner) return false
    matched.add(partner)
    pairs.push([endpoint, partner])
    return true
  }
}

interface Types {
  old: Map<string, TypeDef>
  new: Map<string, TypeDef>
  /**
   * Pairs of named types already compared field by field (or value by value), per direction: each old name's new
   * partners. What such a comparison finds is located at the types (`Pet.age`), whatever endpoint reached them, and
   * each change is reported at its first use only: comparing the pair again from another endpoint would find nothing
   * new. It is also what ends the walk through types that hold themselves.
   */
  compared: Record<Direction, Map<string, Set<string>>>
  /** The types that implement each interface (`x-implements`), by interface name, in each version. */
  implementers: {old: Map<string, string[]>; new: Map<string, string[]>}
  /** What each `auth` is (`meta.x-auth-schemes`, from an import that names schemes), in each version. */
  schemes: {old: Record<string, unknown>; new: Record<string, unknown>}
}

type Add = (change: Change) => void

function compareEndpoint(before: Endpoint, after: Endpoint, at: Array<string | number>, types: Types, add: Add): void {
  const where = route(after)
  const shown = codeSpan(display(after))
  const direction: Direction = after.method === 'EVENT' ? 'event' : 'response'
  compareAuth(before, after, where, at, types, add)
  if (after.deprecated === true && before.deprecated !== true) {
    add({code: 'endpoint-deprecated', location: `${where}.deprecated`, message: `${shown} is deprecated${reason(after)}`, path: [...at, 'deprecated']})
  }
  if (before.deprecated === true && after.deprecated !== true) {
    add({code: 'endpoint-reactivated', location: `${where}.deprecated`, message: `${shown} is no longer deprecated`, path: at})
  }
  const received = direction === 'event'
  compareParams(before.params ?? [], after.params ?? [], {location: where, words: shown, path: (index) => (index === undefined ? [...at, 'params'] : [...at, 'params', index]), received}, types, add)
  const oldStatus = new Set(before.status ?? [])
  const newStatus = new Set(after.status ?? [])
  for (const status of oldStatus) {
    if (!newStatus.has(status)) add({code: 'status-removed', location: `${where}.status.${status}`, message: `Removed status ${codeSpan(status)} of ${shown}`, path: [...at, 'status']})
  }
  for (const status of newStatus) {
    if (!oldStatus.has(status)) add({code: 'status-added', location: `${where}.status.${status}`, message: `Added status ${codeSpan(status)} to ${shown}`, path: [...at, 'status']})
  }
  compareResponses(before, after, at, types, add)
  if (before.request && after.request) {
    compareType(before.request, after.request, {direction: 'request', what: `the request of ${shown}`, location: `${where}.request`, path: [...at, 'request']}, types, add)
  }
  // A GraphQL input is an argument, compared as one; a REST body is judged by whether requests must carry it.
  if (!graphqlMethods.has(after.method)) {
    const request = {location: `${where}.request`, path: [...at, 'request']}
    compareRequestBody(before, after, request, add)
    if (before.request && after.request) compareRequestMedia(before, after, request, add)
  }
  const what = direction === 'event' ? shown : `the response of ${shown}`
  const response = {location: `${where}.response`, path: [...at, 'response']}
  if (before.response && after.response) {
    compareType(before.response, after.response, {direction, what, ...response, graphql: graphqlMethods.has(after.method)}, types, add)
    if (graphqlMethods.has(after.method)) compareResultNullability(before, after, {direction, what, ...response}, add)
  } else if (before.response || after.response) {
    const body = direction === 'event' ? 'a payload' : 'a body'
    const message = before.response ? `${capital(what)} no longer ${direction === 'event' ? 'carries' : 'has'} ${body}: it was ${codeSpan(before.response)}` : `${capital(what)} now ${direction === 'event' ? 'carries' : 'has'} ${body}, ${codeSpan(after.response)}`
    add({code: before.response ? 'response-removed' : 'response-added', ...response, message})
  }
}

/**
 * Each response whose status both versions document. Its headers (`Location`, `RateLimit-Remaining`), matched by
 * name in any case: a header gone breaks a client that reads it; one added does not. A header in both is data the
 * client receives: its type may narrow, not widen (where either version gives no type, it is not judged). When both
 * have a body, the media types it comes as (`x-media-types`; absent: JSON): one gone breaks clients that ask for it
 * by `Accept`; one added does not.
 */
function compareResponses(before: Endpoint, after: Endpoint, at: Array<string | number>, types: Types, add: Add): void {
  const names = (response: Response | undefined) => new Map((response?.headers ?? []).map((header) => [header.name.toLowerCase(), header]))
  const statuses = new Map((after.responses ?? []).map((response, index) => [String(response.status), index]))
  for (const response of before.responses ?? []) {
    const index = statuses.get(String(response.status))
    if (index === undefined) continue
    const partnerResponse = after.responses![index]
    const of = () => `the ${codeSpan(response.status)} response of ${codeSpan(display(after))}`
    // Most responses have no headers in either version, and most bodies come as JSON in both.
    if (response.headers?.length || partnerResponse.headers?.length) {
      const was = names(response)
      const now = names(partnerResponse)
      const path = [...at, 'responses', index, 'headers']
      const where = (name: string) => `${route(after)}.responses.${response.status}.headers.${name}`
      for (const [key, {name, type}] of was) {
        const partner = now.get(key)
        if (!partner) add({code: 'response-header-removed', location: where(name), message: `Removed header ${codeSpan(name)} of ${of()}`, path})
        else if (type !== undefined && partner.type !== undefined) compareType(type, partner.type, {direction: 'response', what: `header ${codeSpan(partner.name)} of ${of()}`, location: where(name), path}, types, add)
      }
      for (const [key, {name}] of now) if (!was.has(key)) add({code: 'response-header-added', location: where(name), message: `Added header ${codeSpan(name)} to ${of()}`, path})
    }
    if (response.type === undefined || partnerResponse.type === undefined) continue
    if (response['x-media-types'] === undefined && partnerResponse['x-media-types'] === undefined) continue
    const wasMedia = mediaTypesOf(response['x-media-types'])
    const nowMedia = mediaTypesOf(partnerResponse['x-media-types'])
    const media = {location: `${route(after)}.responses.${response.status}`, path: [...at, 'responses', index]}
    for (const [key, type] of wasMedia) if (!coveredBy(key, nowMedia)) add({code: 'response-media-type-removed', location: `${media.location}.${type}`, path: media.path, message: `${capital(of())} is no longer sent as ${codeSpan(type)}`})
    for (const [key, type] of nowMedia) if (!wasMedia.has(key)) add({code: 'response-media-type-added', location: `${media.location}.${type}`, path: media.path, message: `${capital(of())} is now also sent as ${codeSpan(type)}`})
  }
}

/**
 * A request body added, removed or made required as a whole (`x-request-required`; absent: optional, as OpenAPI's
 * `requestBody.required`). An old request without a body fails once one is required; a body that is gone or optional
 * now is still accepted.
 */
function compareRequestBody(before: Endpoint, after: Endpoint, at: {location: string; path: Array<string | number>}, add: Add): void {
  const [wasRequired, isRequired] = [before['x-request-required'] === true, after['x-request-required'] === true]
  const name = codeSpan(display(after))
  if (!before.request && after.request) {
    if (isRequired) add({code: 'request-required-body-added', ...at, message: `${name} now requires a request body, ${codeSpan(after.request)}`})
    else add({code: 'request-body-added', ...at, message: `${name} now takes an optional request body, ${codeSpan(after.request)}`})
  } else if (before.request && !after.request) {
    add({code: 'request-body-removed', ...at, message: `${name} no longer takes a request body: it was ${codeSpan(before.request)}`})
  } else if (before.request && after.request && wasRequired !== isRequired) {
    add({code: isRequired ? 'request-body-became-required' : 'request-body-became-optional', ...at, message: `The request body of ${name} became ${isRequired ? 'required' : 'optional'}`})
  }
}

/**
 * The media types a request body may be sent as (`x-request-media-types`; one is `x-request-media`, none JSON): one
 * gone refuses what clients send as it; one added is a new choice. Compared without parameters (`; charset=utf-8`),
 * in any case.
 */
function compareRequestMedia(before: Endpoint, after: Endpoint, at: {location: string; path: Array<string | number>}, add: Add): void {
  const [was, now] = [requestMediaTypesOf(before), requestMediaTypesOf(after)]
  const name = codeSpan(display(after))
  for (const [key, type] of was) if (!coveredBy(key, now)) add({code: 'request-media-type-removed', location: `${at.location}.${type}`, path: at.path, message: `${name} no longer accepts request bodies as ${codeSpan(type)}`})
  for (const [key, type] of now) if (!was.has(key)) add({code: 'request-media-type-added', location: `${at.location}.${type}`, path: at.path, message: `${name} now accepts request bodies as ${codeSpan(type)}`})
}

/** The media types of an endpoint's request body (`x-request-media-types`, else `x-request-media`, else JSON). */
function requestMediaTypesOf(endpoint: Endpoint): Map<string, string> {
  return mediaTypesOf(endpoint['x-request-media-types'], typeof endpoint['x-request-media'] === 'string' ? endpoint['x-request-media'] : undefined)
}

/**
 * Whether a media type (a key of {@link mediaTypesOf}) is among `types`, or in one of its ranges: a body still
 * accepted or sent as `*\/*` or `application/*` is still one as `application/json`, so that is not a type gone.
 */
function coveredBy(type: string, types: Map<string, string>): boolean {
  return types.has(type) || types.has('*/*') || types.has(`${type.split('/')[0]}/*`)
}

/** Media types as listed (else `single`, else JSON), by their name without parameters in lower case. */
function mediaTypesOf(listed: unknown, single?: string): Map<string, string> {
  const types = Array.isArray(listed) ? listed.filter((type): type is string => typeof type === 'string') : [single ?? 'application/json']
  const bare = types.map((type) => type.split(';')[0].trim())
  return new Map(bare.map((type) => [type.toLowerCase(), type]))
}

/**
 * A GraphQL operation's result that may now be null, or whose list items may (`Pet!` to `Pet`, `[Pet!]!` to
 * `[Pet]!`): the catalogue's `response` names the type alone, and the operation's signature in `path` says the rest.
 */
function compareResultNullability(before: Endpoint, after: Endpoint, use: Use, add: Add): void {
  const [was, now] = [resultOf(before.path), resultOf(after.path)]
  if (!was || !now || was === now) return
  const nonNull = (result: string) => [result.endsWith('!'), /!\]/.test(result)]
  const [[wasOuter, wasItems], [nowOuter, nowItems]] = [nonNull(was), nonNull(now)]
  const loosened = (wasOuter && !nowOuter) || (wasItems && !nowItems)
  const tightened = (!wasOuter && nowOuter) || (!wasItems && nowItems)
  if (!loosened && !tightened) return
  const how = loosened ? 'widened' : 'narrowed'
  const outer = loosened ? wasOuter && !nowOuter : !wasOuter && nowOuter
  const why = `${outer ? 'it' : 'its items'} ${loosened ? 'may now be null' : 'can no longer be null'}`
  add({code: `response-type-${how}`, location: use.location, path: use.path, message: `Type of ${use.what} ${how} from ${codeSpan(was)} to ${codeSpan(now)} (${why})`})
}

/** The result type written at the end of a GraphQL operation's signature (`pets(first: Int): [Pet!]!` -> `[Pet!]!`). */
function resultOf(signature: string): string | undefined {
  let depth = 0
  for (let index = 0; index < signature.length; index++) {
    const character = signature[index]
    if (character === '(') depth++
    else if (character === ')') depth--
    else if (character === ':' && depth === 0) return signature.slice(index + 1).trim() || undefined
  }
  return undefined
}

/**
 * Auth as a client sees it: the schemes an endpoint accepts (`auth` and `x-auth-alternatives`), `none` among them
 * when it may be called without credentials. A client written against the old version uses one of the old schemes,
 * so each scheme the new version no longer accepts breaks some client (unless it is the same scheme renamed); a
 * scheme accepted besides is only a new choice.
 */
function compareAuth(before: Endpoint, after: Endpoint, where: string, at: Array<string | number>, types: Types, add: Add): void {
  // No `auth` in the new version says nothing (an import without security data); none in the old one means open.
  if (after.auth === undefined) return
  const was = acceptedSchemes(before)
  const now = acceptedSchemes(after)
  const gone = was.filter((scheme) => !now.includes(scheme))
  const added = now.filter((scheme) => !was.includes(scheme))
  if (gone.length === 0 && added.length === 0) return
  const path = [...at, 'auth']
  const location = `${where}.auth`
  const list = (schemes: string[]) => schemes.map((scheme) => codeSpan(scheme)).join(', ')
  if (was.includes('none')) {
    // Calls without credentials worked: they stop working when `none` goes; other schemes come and go unneeded.
    if (!now.includes('none')) add({code: 'auth-added', location, message: `${codeSpan(display(after))} now needs ${list(now)} authentication (was \`none\`)`, path})
    return
  }
  if (now.includes('none')) {
    add({code: 'auth-removed', location, message: `${codeSpan(display(after))} no longer needs authentication (was ${list(was)})`, path})
    return
  }
  const removed: string[] = []
  for (const scheme of gone) {
    const renamed = added.find((candidate) => sameScheme(types.schemes.old, scheme, types.schemes.new, candidate))
    if (renamed === undefined) {
      removed.push(scheme)
      continue
    }
    // A scheme under another name (`User Authentication` to `User_Authentication`): clients authenticate as before.
    added.splice(added.indexOf(renamed), 1)
    add({code: 'auth-renamed', location, message: `Authentication of ${codeSpan(display(after))} renamed from ${codeSpan(scheme)} to ${codeSpan(renamed)}, the same scheme`, path})
  }
  if (removed.length > 0) {
    const message =
      was.length === 1 && now.length === 1
        ? `Authentication of ${codeSpan(display(after))} changed from ${codeSpan(was[0])} to ${codeSpan(now[0])}`
        : `${codeSpan(display(after))} no longer accepts ${list(removed)} authentication (now ${list(now)})`
    add({code: 'auth-changed', location, message, path})
  } else if (added.length > 0) {
    add({code: 'auth-alternative-added', location, message: `${codeSpan(display(after))} now also accepts ${list(added)} authentication`, path})
  }
}

/** The schemes an endpoint accepts: its `auth` (`none` when absent), then `x-auth-alternatives`, each once. */
function acceptedSchemes(endpoint: Endpoint): string[] {
  const alternatives = endpoint['x-auth-alternatives']
  return [...new Set([endpoint.auth ?? 'none', ...(Array.isArray(alternatives) ? alternatives.filter((scheme): scheme is string => typeof scheme === 'string') : [])])]
}

/**
 * Whether scheme `was` of the old `meta.x-auth-schemes` is scheme `now` of the new one under another name: `was` is
 * gone, `now` is new, and they are alike, the only pair alike among the schemes gone and added. Two schemes both
 * versions keep (an admin token and a user token, both bearer) stay two schemes however alike they are.
 */
function sameScheme(old: Record<string, unknown>, was: string, next: Record<string, unknown>, now: string): boolean {
  if (!Object.hasOwn(old, was) || !Object.hasOwn(next, now) || Object.hasOwn(next, was) || Object.hasOwn(old, now)) return false
  if (!isDeepStrictEqual(old[was], next[now])) return false
  const gone = Object.keys(old).filter((name) => !Object.hasOwn(next, name) && isDeepStrictEqual(old[name], old[was]))
  const added = Object.keys(next).filter((name) => !Object.hasOwn(old, name) && isDeepStrictEqual(next[name], next[now]))
  return gone.length === 1 && added.length === 1
}

/** A catalogue's `meta.x-auth-schemes`, or none. */
function schemesOf(catalogue: Catalogue): Record<string, unknown> {
  const schemes = catalogue.meta?.['x-auth-schemes']
  return schemes && typeof schemes === 'object' && !Array.isArray(schemes) ? (schemes as Record<string, unknown>) : {}
}

/** What holds params: an endpoint, or a GraphQL field that takes arguments (`x-args`). */
interface ParamOwner {
  /** Where the params are, in a change's location (`GET:/pets`, `User.posts`). */
  location: string
  /** The owner in a message (`` `GET /pets` ``, ``field `posts` of `User` ``). */
  words: string
  /** The JSON path in the new catalogue of the params, or of one of them. */
  path: (index?: number) => Array<string | number>
  /**
   * Whether subscribers receive the params rather than clients sending them: an EVENT's headers and channel params
   * come with each message, so one gone or no longer always there breaks a subscriber that reads it.
   */
  received?: boolean
}

function compareParams(oldParams: Param[], newParams: Param[], owner: ParamOwner, types: Types, add: Add): void {
  // Path params are matched by position: `/pets/{id}` and `/pets/{petId}` are one route to a client.
  const key = (param: Param, list: Param[]) => (param.in === 'path' ? `path#${list.filter((other) => other.in === 'path').indexOf(param)}` : `${param.in}:${param.name}`)
  const nextByKey = new Map(newParams.map((param) => [key(param, newParams), param]))
  const oldKeys = new Set(oldParams.map((param) => key(param, oldParams)))
  const received = owner.received === true
  for (const param of oldParams) {
    const partner = nextByKey.get(key(param, oldParams))
    const location = `${owner.location}.params.${param.name}`
    if (!partner) {
      // A server ignores a query param it no longer reads; a GraphQL server refuses an argument it does not know.
      const code = received ? 'event-param-removed' : param.in === 'arg' ? 'argument-removed' : 'param-removed'
      add({code, location, message: `Removed ${describe(param)} of ${owner.words}`, path: owner.path()})
      continue
    }
    const path = owner.path(newParams.indexOf(partner))
    if (partner.required && !param.required) {
      add({code: received ? 'event-param-became-required' : 'param-became-required', location, message: `${capital(describe(partner))} of ${owner.words} became ${partner.in === 'arg' && param['x-non-null'] !== true ? 'non-null' : 'required'}`, path})
    }
    if (!partner.required && param.required) add({code: received ? 'event-param-became-optional' : 'param-became-optional', location, message: `${capital(describe(partner))} of ${owner.words} became optional`, path})
    // An optional GraphQL argument that may no longer be sent as null (`Int` to `Int! = 10`), or the other way round.
    if (!partner.required && !param.required && param['x-non-null'] !== partner['x-non-null']) {
      const how = partner['x-non-null'] === true ? 'narrowed' : 'widened'
      add({code: `request-type-${how}`, location, path, message: `${capital(describe(partner))} of ${owner.words} ${how === 'narrowed' ? 'can no longer be null' : 'may now be null'}`})
    }
    if (partner['x-deprecated'] === true && param['x-deprecated'] !== true) add({code: 'param-deprecated', location, message: `${capital(describe(partner))} of ${owner.words} is deprecated${reason(partner)}`, path})
    if (param['x-deprecated'] === true && partner['x-deprecated'] !== true) add({code: 'param-reactivated', location, message: `${capital(describe(partner))} of ${owner.words} is no longer deprecated`, path})
    // What a server assumes for a param a request leaves out; on a message received, a default only documents.
    if (!received && !sameDefault(param.default, partner.default)) {
      add({code: 'param-default-changed', location, message: `Default of ${describe(partner)} of ${owner.words} changed from ${shownValue(param.default)} to ${shownValue(partner.default)}`, path})
    }
    // Clients send params: items that may no longer be null refuse what they sent (subscribers: the other way round).
    if (listsWithItemsNullableChanged(param, partner)) {
      const how = partner['x-items-nullable'] ? 'widened' : 'narrowed'
      add({code: `${received ? 'response' : 'request'}-type-${how}`, location, path, message: `Items of ${describe(partner)} of ${owner.words} ${partner['x-items-nullable'] ? 'may now be null' : 'can no longer be null'}`})
    }
    const was = param.type ?? 'string'
    const now = partner.type ?? 'string'
    // A GraphQL variable must be declared with the argument's own type: `Int` to `Float` widens what a literal may be,
    // but an operation that passes an `Int` variable no longer validates.
    if (param.in === 'arg' && was !== now) {
      const use = new ParamUse('request', location, path, true, partner, owner)
      compareEnum(param.enum, partner.enum, undefined, use, add)
      add({code: 'request-type-narrowed', location, path, message: `Type of ${use.what} changed from ${codeSpan(was)} to ${codeSpan(now)} (a variable declared ${codeSpan(was)} no longer fits)`})
      continue
    }
    // An event's channel param is both: subscribers name its values (`orders.{region}`: a value gone leaves one of them
    // on a channel nothing is sent to), and read them (a wildcard subscriber meets a value added), as an enum used in
    // requests and responses is judged both ways. Its headers are only read.
    const directions: Direction[] = !received ? ['request'] : param.in === 'path' ? ['event', 'request'] : ['event']
    for (const direction of directions) {
      const use = new ParamUse(direction, location, path, param.in === 'arg', partner, owner)
      compareEnum(param.enum, partner.enum, was === now ? was : undefined, use, add)
      if (was === now) compareFormat(param['x-format'], partner['x-format'], use, add)
      compareType(was, now, use, types, add)
    }
  }
  for (const param of newParams) {
    if (oldKeys.has(key(param, newParams))) continue
    const path = owner.path(newParams.indexOf(param))
    const location = `${owner.location}.params.${param.name}`
    if (received) add({code: 'event-param-added', location, message: `Added ${param.required ? '' : 'optional '}${describe(param)} to ${owner.words}`, path})
    else if (param.required) add({code: 'param-required-added', location, message: `Added required ${describe(param)} to ${owner.words}`, path})
    else add({code: 'param-added', location, message: `Added optional ${describe(param)} to ${owner.words}`, path})
  }
}

/** Whether a list stayed a list and its items may now, or no longer, be null (`[Pet!]` to `[Pet]`; `x-items-nullable`). */
function listsWithItemsNullableChanged(before: Param | Field, after: Param | Field): boolean {
  return Boolean(before.type?.endsWith('[]')) && Boolean(after.type?.endsWith('[]')) && Boolean(before['x-items-nullable']) !== Boolean(after['x-items-nullable'])
}

interface Use {
  direction: Direction
  /** What the type is, in words (`query param \`limit\` of \`GET /pets\``). */
  what: string
  location: string
  path: Array<string | number>
  /** Sent to a GraphQL server (a GraphQL argument), which refuses an input object with a field it does not know. */
  graphql?: boolean
}

/** Compare the type `was` with `now` where `use` says; named types are compared by their fields, values, members. */
function compareType(was: string, now: string, use: Use, types: Types, add: Add): void {
  const oldArray = was.endsWith('[]')
  const newArray = now.endsWith('[]')
  const oldItem = itemOf(was)
  const newItem = itemOf(now)
  if (oldArray === newArray) {
    const oldType = types.old.get(oldItem)
    const newType = types.new.get(newItem)
    const structural = oldType && newType && (oldType.kind === newType.kind || (objectKinds.has(oldType.kind ?? 'object') && objectKinds.has(newType.kind ?? 'object')))
    if (structural && (oldType.kind === undefined || pairedKinds.has(oldType.kind))) {
      const partners = types.compared[use.direction].get(oldItem)
      if (partners?.has(newItem)) return
      if (partners) partners.add(newItem)
      else types.compared[use.direction].set(oldItem, new Set([newItem]))
    }
    if (oldType && newType && objectKinds.has(oldType.kind ?? 'object') && objectKinds.has(newType.kind ?? 'object')) {
      compareFields(oldType, newType, use, types, add)
      if (use.graphql && use.direction === 'response') comparePossibleTypes(oldType, newType, use, types, add)
      // What a client receives as an interface is one of the types that implement it, with their own fields.
      if (oldType.kind === 'interface' && newType.kind === 'interface') {
        const kept = new Set(types.implementers.old.get(oldItem))
        const implementers = types.implementers.new.get(newItem) ?? []
        for (const implementer of implementers) if (kept.has(implementer)) compareType(implementer, implementer, use, types, add)
        // A query may spread a fragment on an implementation it receives (`... on Cat`), which no longer validates.
        if (use.graphql && use.direction === 'response') {
          for (const gone of onlyIn([...kept], implementers)) {
            add({code: 'possible-type-removed', location: `${newType.name}.${gone}`, message: `${codeSpan(gone)} no longer implements interface ${codeSpan(newType.name)} of ${use.what}`, path: typePlace(newType)})
          }
          // One more type a response may be, as a member added to a union: a client that handles each possible type
          // (a `switch` on `__typename`) meets one it does not know.
          for (const added of implementers.filter((implementer) => !kept.has(implementer))) {
            add({code: 'response-type-widened', location: `${newType.name}.${added}`, message: `${codeSpan(added)} now implements interface ${codeSpan(newType.name)} of ${use.what}`, path: typePlace(newType)})
          }
        }
      }
      return
    }
    if (oldType?.kind === 'enum' && newType?.kind === 'enum') return compareValues(oldType, newType, use, add)
    if (oldType?.kind === 'union' && newType?.kind === 'union') {
      compareMembers(oldType, newType, use, add)
      // What changed inside a member that both versions keep reaches clients as much as a field of the union would.
      const kept = new Set(oldType.members)
      for (const member of newType.members ?? []) if (kept.has(member)) compareType(member, member, use, types, add)
      return
    }
    // The same name is the same type, unless both versions define it with another kind (an enum that became an object).
    const sameKind = !oldType || !newType || (oldType.kind ?? 'object') === (newType.kind ?? 'object')
    if (oldItem === newItem && sameKind) return
  }
  const kindChanged = oldItem === newItem && oldArray === newArray
  const widened = oldArray === newArray && !kindChanged && fitsIn(oldItem, newItem, types, types.new)
  const narrowed = oldArray === newArray && !kindChanged && fitsIn(newItem, oldItem, types, types.old)
  const {code, how} = typeChange(widened, narrowed, use)
  const [from, to] = kindChanged ? [`${types.old.get(oldItem)?.kind} ${codeSpan(was)}`, `${types.new.get(newItem)?.kind} ${codeSpan(now)}`] : [codeSpan(was), codeSpan(now)]
  add({code, location: use.location, message: `Type of ${use.what} ${how} from ${from} to ${to}`, path: use.path})
  // A type that became a union holding it (or a union that became one of its members) is still itself: what changed
  // inside it is compared too (an enum value added to a payload that is now one of two messages).
  const kept = widened && unionHolds(types.new, newItem, oldItem) ? oldItem : narrowed && unionHolds(types.old, oldItem, newItem) ? newItem : undefined
  if (kept !== undefined) compareType(oldArray ? `${kept}[]` : kept, oldArray ? `${kept}[]` : kept, use, types, add)
}

/** The code of a change of type (or format) where `use` says, and how it changed in words. */
function typeChange(widened: boolean, narrowed: boolean, use: Use): {code: string; how: string} {
  const receiving = use.direction !== 'request'
  const side = receiving ? 'response' : 'request'
  // A change that is neither (`string` to `integer`, `Pet` to `Pet[]`) breaks both ways: it counts as the breaking kind.
  const code = widened ? `${side}-type-widened` : narrowed ? `${side}-type-narrowed` : receiving ? 'response-type-widened' : 'request-type-narrowed'
  return {code, how: widened ? 'widened' : narrowed ? 'narrowed' : 'changed'}
}

/** Each format of a scalar type whose values are all values of a wider format (`int32` ones are `int64` ones). */
const widerFormat: Record<string, string> = {int32: 'int64', float: 'double'}

/**
 * The format of a param or field whose type stayed (`x-format`: `int32` to `int64`, `date-time` to `date`), judged as
 * a type change: a type without a format holds every value one with a format does, `int32` values are `int64`
 * values and `float` ones `double`, and other formats hold different values.
 */
function compareFormat(was: unknown, now: unknown, use: Use, add: Add): void {
  const [before, after] = [typeof was === 'string' ? was : undefined, typeof now === 'string' ? now : undefined]
  if (before === after) return
  const widened = after === undefined || (before !== undefined && widerFormat[before] === after)
  const narrowed = before === undefined || (after !== undefined && widerFormat[after] === before)
  const {code, how} = typeChange(widened, narrowed, use)
  const shown = (format: string | undefined) => (format === undefined ? 'no format' : codeSpan(format))
  add({code, location: use.location, path: use.path, message: `Format of ${use.what} ${how} from ${shown(before)} to ${shown(after)}`})
}

function compareFields(oldType: TypeDef, newType: TypeDef, use: Use, types: Types, add: Add): void {
  const oldFields = oldType.fields ?? []
  const newFields = newType.fields ?? []
  // A type that did not change lists the same fields in the same order: each partner is at the same index, and only a
  // type whose fields moved, came or went needs them by name.
  let byName: Map<string, Field> | undefined
  let aligned = oldFields.length === newFields.length
  const path = typePlace(newType)
  const sent = use.direction === 'request'
  // Built only for a change: big APIs compare tens of thousands of unchanged fields.
  const via = () => `, which ${use.what} ${sent ? 'takes' : use.direction === 'event' ? 'carries' : 'returns'}`
  const at = (field: Field) => `${newType.name}.${field.name}`
  for (let index = 0; index < oldFields.length; index++) {
    const field = oldFields[index]
    let partner: Field | undefined = newFields[index]
    if (partner?.name !== field.name) {
      aligned = false
      byName ??= new Map(newFields.map((candidate) => [candidate.name, candidate]))
      partner = byName.get(field.name)
    }
    if (!partner) {
      // A GraphQL server refuses an input object with a field it does not know; a JSON body's extra field is ignored.
      const code = sent ? (use.graphql ? 'input-field-removed' : 'request-field-removed') : use.direction === 'event' ? 'payload-field-removed' : 'response-field-removed'
      add({code, location: at(field), message: `Removed field ${codeSpan(field.name)} of ${codeSpan(newType.name)}${via()}`, path})
      continue
    }
    // Where the partner is, for the place of a change (an array made only for one, or for a field whose type is compared).
    const partnerIndex = newFields[index] === partner ? index : newFields.indexOf(partner)
    if (sent && partner.required && !field.required) add({code: 'request-field-became-required', location: at(field), message: `Field ${codeSpan(field.name)} of ${codeSpan(newType.name)} became required${via()}`, path: typePlace(newType, partnerIndex)})
    if (!sent && field.required && !partner.required) add({code: 'response-field-became-optional', location: at(field), message: `Field ${codeSpan(field.name)} of ${codeSpan(newType.name)} became optional${via()}`, path: typePlace(newType, partnerIndex)})
    if (partner['x-deprecated'] === true && field['x-deprecated'] !== true) {
      add({code: 'field-deprecated', location: at(field), message: `Field ${codeSpan(field.name)} of ${codeSpan(newType.name)} is deprecated${via()}${reason(partner)}`, path: typePlace(newType, partnerIndex)})
    }
    if (field['x-deprecated'] === true && partner['x-deprecated'] !== true) {
      add({code: 'field-reactivated', location: at(field), message: `Field ${codeSpan(field.name)} of ${codeSpan(newType.name)} is no longer deprecated${via()}`, path: typePlace(newType, partnerIndex)})
    }
    // What a server assumes for a field a request leaves out; in a response a default only documents.
    if (sent && !sameDefault(field.default, partner.default)) {
      add({code: 'field-default-changed', location: at(field), message: `Default of field ${codeSpan(field.name)} of ${codeSpan(newType.name)} changed from ${shownValue(field.default)} to ${shownValue(partner.default)}${via()}`, path: typePlace(newType, partnerIndex)})
    }
    // An optional input field that may no longer be sent as null (`a: Int` to `a: Int! = 5`), or the other way round.
    if (sent && !field.required && !partner.required && field['x-non-null'] !== partner['x-non-null']) {
      const how = partner['x-non-null'] === true ? 'narrowed' : 'widened'
      add({code: `request-type-${how}`, location: at(field), message: `Field ${codeSpan(field.name)} of ${codeSpan(newType.name)} ${how === 'narrowed' ? 'can no longer be null' : 'may now be null'}${via()}`, path: typePlace(newType, partnerIndex)})
    }
    // A field that may now be null holds more values; one that no longer may, fewer.
    if (Boolean(field['x-nullable']) !== Boolean(partner['x-nullable'])) {
      const how = partner['x-nullable'] ? 'widened' : 'narrowed'
      add({code: `${sent ? 'request' : 'response'}-type-${how}`, location: at(field), message: `Field ${codeSpan(field.name)} of ${codeSpan(newType.name)} ${partner['x-nullable'] ? 'may now be null' : 'can no longer be null'}${via()}`, path: typePlace(newType, partnerIndex)})
    }
    if (listsWithItemsNullableChanged(field, partner)) {
      const how = partner['x-items-nullable'] ? 'widened' : 'narrowed'
      add({code: `${sent ? 'request' : 'response'}-type-${how}`, location: at(field), message: `Items of field ${codeSpan(field.name)} of ${codeSpan(newType.name)} ${partner['x-items-nullable'] ? 'may now be null' : 'can no longer be null'}${via()}`, path: typePlace(newType, partnerIndex)})
    }
    // Arguments of GraphQL fields are sent by clients whichever way the field's data goes.
    if (field['x-args'] !== undefined || partner['x-args'] !== undefined) {
      compareParams(argsOf(field), argsOf(partner), {location: at(field), words: `field ${codeSpan(field.name)} of ${codeSpan(newType.name)}`, path: () => typePlace(newType, partnerIndex)}, types, add)
    }
    const was = field.type ?? 'string'
    const now = partner.type ?? 'string'
    if (was === now && field['x-format'] !== partner['x-format']) {
      compareFormat(field['x-format'], partner['x-format'], {...use, what: `field ${codeSpan(field.name)} of ${codeSpan(newType.name)}`, location: at(field), path: typePlace(newType, partnerIndex)}, add)
    }
    // Most listed values are the same list in both versions (Stripe's fields hold thousands): nothing to compare.
    const enums = Array.isArray(field.enum) ? !Array.isArray(partner.enum) || !sameValues(field.enum, partner.enum) : Array.isArray(partner.enum)
    // The same type that neither catalogue defines (`string`, `integer[]`) is unchanged, and so is a pair of types
    // already compared this way (most fields of a big API, where nothing else is built for them).
    const typed = was !== now || comparable(was, types, use.direction)
    const maps = typeof field['x-map-values'] === 'string' || typeof partner['x-map-values'] === 'string'
    if (!enums && !typed && !maps) continue
    const fieldUse = new FieldUse(use, field.name, newType.name, typePlace(newType, partnerIndex))
    if (enums) compareEnum(field.enum, partner.enum, was === now ? was : undefined, fieldUse, add)
    if (typed) compareType(was, now, fieldUse, types, add)
    if (maps) compareMapValues(field['x-map-values'], partner['x-map-values'], fieldUse, types, add, was === now && itemOf(was) === 'object')
  }
  if (typeof oldType['x-map-values'] === 'string' && typeof newType['x-map-values'] === 'string') {
    compareMapValues(oldType['x-map-values'], newType['x-map-values'], {...use, what: codeSpan(newType.name), location: newType.name, path}, types, add)
  }
  // Every field kept its place: none was added.
  if (aligned) return
  const oldNames = new Set(oldFields.map((field) => field.name))
  for (const [newIndex, field] of newFields.entries()) {
    if (oldNames.has(field.name)) continue
    const location = `${newType.name}.${field.name}`
    if (!sent) add({code: 'response-field-added', location, message: `Added field ${codeSpan(field.name)} to ${codeSpan(newType.name)}${via()}`, path: typePlace(newType, newIndex)})
    else if (field.required) add({code: 'request-required-field-added', location, message: `Added required field ${codeSpan(field.name)} to ${codeSpan(newType.name)}${via()}`, path: typePlace(newType, newIndex)})
    else add({code: 'request-field-added', location, message: `Added optional field ${codeSpan(field.name)} to ${codeSpan(newType.name)}${via()}`, path: typePlace(newType, newIndex)})
  }
}

/**
 * Where a field of a type is used, for the comparison of its type: its words (`field \`id\` of \`Pet\``) are built
 * only when a change is told (big APIs compare tens of thousands of fields that did not change). A class, since an
 * object literal with a getter is slow to make, and one is made per field.
 */
class FieldUse implements Use {
  readonly direction: Direction
  readonly graphql: boolean | undefined
  readonly location: string

  constructor(
    use: Use,
    private readonly field: string,
    private readonly type: string,
    readonly path: Array<string | number>
  ) {
    this.direction = use.direction
    this.graphql = use.graphql
    this.location = `${type}.${field}`
  }

  get what(): string {
    return `field ${codeSpan(this.field)} of ${codeSpan(this.type)}`
  }
}

/** Where a param is compared, its words (`query param \`limit\` of \`GET /pets\``) built only for a change (see `FieldUse`). */
class ParamUse implements Use {
  constructor(
    readonly direction: Direction,
    readonly location: string,
    readonly path: Array<string | number>,
    readonly graphql: boolean,
    private readonly param: Param,
    private readonly owner: ParamOwner
  ) {}

  get what(): string {
    return `${describe(this.param)} of ${this.owner.words}`
  }
}

/**
 * The values of a map (`x-map-values`: a field or type whose keys are any names) compared like a field's type, at
 * `<location>.*`. On a field typed `object` in both versions (`freeForm`), values typed where there were none (a
 * free-form object that now says what its values are) narrow it, and typed values that went away widen it. Not on
 * a named type: one without `x-map-values` may allow no other keys (`additionalProperties: false`) or any.
 */
function compareMapValues(was: unknown, now: unknown, use: Use, types: Types, add: Add, freeForm = false): void {
  if (typeof was !== 'string' || typeof now !== 'string') {
    if (!freeForm || (typeof was !== 'string' && typeof now !== 'string')) return
    const narrowed = typeof now === 'string'
    const {code} = typeChange(!narrowed, narrowed, use)
    const message = narrowed ? `Values of ${use.what} (a map) narrowed from any value to ${codeSpan(now)}` : `Values of ${use.what} (a map) widened from ${codeSpan(was)} to any value`
    add({code, location: `${use.location}.*`, message, path: use.path})
    return
  }
  if (was === now && !defined(was, types)) return
  compareType(was, now, {...use, what: `${use.what} (its values)`, location: `${use.location}.*`}, types, add)
}

/** The arguments of a GraphQL field (`x-args`), as params. */
function argsOf(field: Field): Param[] {
  return Array.isArray(field['x-args']) ? (field['x-args'] as Param[]) : []
}

/** Whether a type that both versions name `type` is defined and its (item) type was not compared yet in `direction`. */
function comparable(type: string, types: Types, direction: Direction): boolean {
  const item = itemOf(type)
  return defined(type, types) && !types.compared[direction].get(item)?.has(item)
}

/** Whether either catalogue defines the (item) type of `type`. */
function defined(type: string, types: Types): boolean {
  const item = itemOf(type)
  return types.old.has(item) || types.new.has(item)
}

/** The items only in `after`. */
function onlyIn<T>(after: readonly T[] | undefined, before: readonly T[] | undefined): T[] {
  const known = new Set(before ?? [])
  return [...new Set(after ?? [])].filter((item) => !known.has(item))
}

function compareValues(oldType: TypeDef, newType: TypeDef, use: Use, add: Add): void {
  const side = use.direction === 'request' ? 'request' : 'response'
  const path = typePlace(newType)
  for (const value of onlyIn(newType.values, oldType.values)) {
    add({code: `${side}-enum-value-added`, location: `${newType.name}.${value}`, message: `Added value ${codeSpan(value)} to enum ${codeSpan(newType.name)} of ${use.what}`, path})
  }
  for (const value of onlyIn(oldType.values, newType.values)) {
    add({code: `${side}-enum-value-removed`, location: `${newType.name}.${value}`, message: `Removed value ${codeSpan(value)} of enum ${codeSpan(newType.name)} of ${use.what}`, path})
  }
  // A value kept but now `@deprecated` (GraphQL's `x-deprecated-values`): announced to go.
  const kept = new Set(oldType.values)
  for (const value of onlyIn(deprecatedValues(newType), deprecatedValues(oldType))) {
    if (kept.has(value)) add({code: 'enum-value-deprecated', location: `${newType.name}.${value}`, message: `Value ${codeSpan(value)} of enum ${codeSpan(newType.name)} of ${use.what} is deprecated`, path})
  }
}

function deprecatedValues(type: TypeDef): string[] {
  const values = (type as {'x-deprecated-values'?: unknown})['x-deprecated-values']
  return Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : []
}

/**
 * The values of an enum written on a field or param itself (`status: {type: string, enum: [...]}`, no named type),
 * judged like a named enum's; located at the field or param, then the value (`Pet.status.reserved`). A list that
 * appeared on a field or param whose type stayed (`type`) narrows what it holds, from any value of its type to the
 * values listed; one that went away widens it. Where the type changed too, its change says it.
 */
function compareEnum(was: unknown[] | undefined, now: unknown[] | undefined, type: string | undefined, use: Use, add: Add): void {
  if (Array.isArray(was) !== Array.isArray(now)) {
    if (type === undefined) return
    const narrowed = Array.isArray(now)
    const {code} = typeChange(!narrowed, narrowed, use)
    const values = listed((narrowed ? now : was) ?? [])
    const message = narrowed ? `Values of ${use.what} narrowed from any ${codeSpan(type)} to ${values}` : `Values of ${use.what} widened from ${values} to any ${codeSpan(type)}`
    add({code, location: use.location, message, path: use.path})
    return
  }
  if (!Array.isArray(was) || !Array.isArray(now) || sameValues(was, now)) return
  const side = use.direction === 'request' ? 'request' : 'response'
  const [before, after] = [was.map(String), now.map(String)]
  // Values are compared as text (`1` and `"1"` are one value to a client's URL or form) and shown as written.
  const written = new Map([...was, ...now].map((value) => [String(value), value]))
  for (const value of onlyIn(after, before)) {
    add({code: `${side}-enum-value-added`, location: `${use.location}.${value}`, message: `Added value ${shownValue(written.get(value))} to the values of ${use.what}`, path: use.path})
  }
  for (const value of onlyIn(before, after)) {
    add({code: `${side}-enum-value-removed`, location: `${use.location}.${value}`, message: `Removed value ${shownValue(written.get(value))} of the values of ${use.what}`, path: use.path})
  }
}

/**
 * Whether two defaults are the same value: objects by their members whatever their order (GraphQL's SDL import writes
 * an input object's default in its fields' order, the introspection import as written: `{field: LOGIN, direction:
 * ASC}` either way), lists item by item.
 */
function sameDefault(was: unknown, now: unknown): boolean {
  return was === now || (typeof was === 'object' && typeof now === 'object' && isDeepStrictEqual(was, now))
}

/**
 * A default or an enum value in a message: `` `20` ``, `` `asc` ``, an object or a list as JSON, or `none`; a string
 * that would read as another value, or as nothing, is quoted (GitHub's `make_latest` went from `true` to `"true"`;
 * an empty string is `""`).
 */
function shownValue(value: unknown): string {
  if (value === undefined) return 'none'
  const plain = typeof value === 'string' && !/^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?|)$/.test(value.trim())
  return codeSpan(plain ? value : JSON.stringify(value))
}

/** Values in a message: the first five, and how many more (`` `a`, `b`, `c`, `d`, `e` and 7 more ``). */
function listed(values: unknown[]): string {
  const shown = values.slice(0, 5).map(shownValue).join(', ')
  return values.length > 5 ? `${shown} and ${values.length - 5} more` : shown
}

/** Whether two lists of enum values are the same, in the same order (as they are when nothing changed). */
function sameValues(was: unknown[], now: unknown[]): boolean {
  return was.length === now.length && was.every((value, index) => value === now[index])
}

/**
 * What a GraphQL query may spread a fragment on, where an object or interface it receives stands: an interface the
 * object no longer implements (`org { ... on Banner { … } }`), and every implementation of an interface that became an
 * object type (`notice { ... on Team { … } }`) no longer validate. (An interface that lost an implementation is
 * compared with the interface's implementers, in `compareType`.)
 */
function comparePossibleTypes(oldType: TypeDef, newType: TypeDef, use: Use, types: Types, add: Add): void {
  const path = typePlace(newType)
  if (newType.kind !== 'interface') {
    for (const face of onlyIn(implementsOf(oldType), implementsOf(newType))) {
      add({code: 'possible-type-removed', location: `${face}.${newType.name}`, message: `${codeSpan(newType.name)} no longer implements interface ${codeSpan(face)} of ${use.what}`, path})
    }
  }
  if (oldType.kind === 'interface' && newType.kind !== 'interface') {
    for (const implementer of types.implementers.old.get(oldType.name) ?? []) {
      add({code: 'possible-type-removed', location: `${oldType.name}.${implementer}`, message: `${codeSpan(implementer)} is no longer a possible type of ${codeSpan(newType.name)}, now an object type, of ${use.what}`, path})
    }
  }
}

/** The interfaces an object type implements (`x-implements` of a GraphQL import). */
function implementsOf(type: TypeDef): string[] {
  const faces = (type as {'x-implements'?: unknown})['x-implements']
  return Array.isArray(faces) ? faces.filter((face): face is string => typeof face === 'string') : []
}

function compareMembers(oldType: TypeDef, newType: TypeDef, use: Use, add: Add): void {
  const side = use.direction === 'request' ? 'request' : 'response'
  const path = typePlace(newType)
  for (const member of onlyIn(newType.members, oldType.members)) {
    add({code: `${side}-type-widened`, location: `${newType.name}.${member}`, message: `Added member ${codeSpan(member)} to union ${codeSpan(newType.name)} of ${use.what}`, path})
  }
  // A GraphQL query may spread a fragment on a member it receives (`... on Article`), which no longer validates.
  const code = use.graphql && side === 'response' ? 'possible-type-removed' : `${side}-type-narrowed`
  for (const member of onlyIn(oldType.members, newType.members)) {
    add({code, location: `${newType.name}.${member}`, message: `Removed member ${codeSpan(member)} of union ${codeSpan(newType.name)} of ${use.what}`, path})
  }
}

/**
 * Whether every value of type `narrow` is a value of type `wide` (defined in `wideTypes`): integers are numbers, an
 * enum's values strings, a union's member values of the union, and every value is `any`.
 */
function fitsIn(narrow: string, wide: string, types: Types, wideTypes: Map<string, TypeDef>): boolean {
  if (narrow === wide || wide === 'any') return true
  const pairs: Record<string, string[]> = {integer: ['number'], Int: ['Float'], int32: ['int64', 'integer', 'number'], int64: ['integer', 'number']}
  if (pairs[narrow]?.includes(wide) || unionHolds(wideTypes, wide, narrow)) return true
  const enumType = types.old.get(narrow)?.kind === 'enum' || types.new.get(narrow)?.kind === 'enum'
  return enumType && (wide === 'string' || wide === 'String')
}

/** Whether `name` is a union of `defined` with `member` among its members. */
function unionHolds(defined: Map<string, TypeDef>, name: string, member: string): boolean {
  const type = defined.get(name)
  return type?.kind === 'union' && (type.members ?? []).includes(member)
}

/** The item type of a list type (`Pet[]` -> `Pet`), else the type itself. */
function itemOf(type: string): string {
  return type.endsWith('[]') ? type.slice(0, -2) : type
}

function byName(types: TypeDef[]): Map<string, TypeDef> {
  return new Map(types.map((type) => [type.name, type]))
}

/** The names of the types that implement each interface (`x-implements: [Node]`), by interface. */
function implementersOf(types: TypeDef[]): Map<string, string[]> {
  const implementers = new Map<string, string[]>()
  for (const type of types) {
    const interfaces = type['x-implements']
    // What a response holds is an object type: an interface that implements another is not one of its possible types.
    if (!Array.isArray(interfaces) || type.kind === 'interface') continue
    for (const name of interfaces) if (typeof name === 'string') implementers.set(name, [...(implementers.get(name) ?? []), type.name])
  }
  return implementers
}

/** The name of a GraphQL operation (`pet(id: ID!): Pet` -> `pet`), else the path itself. */
function routeName(endpoint: Endpoint): string {
  if (graphqlMethods.has(endpoint.method)) return endpoint.path.split(/[(:\s]/, 1)[0]
  return endpoint.path
}

/**
 * What makes two endpoints the same to a client: a GraphQL operation's name, an event's route (route-key.ts), a REST
 * route as clients call it, under `base`, the path of the catalogue's base URL.
 */
function endpointKey(endpoint: Endpoint, base: string): string {
  if (graphqlMethods.has(endpoint.method)) return `${endpoint.method} ${routeName(endpoint)}`
  return routeKey(endpoint.method, isRest(endpoint) ? base + endpoint.path : endpoint.path)
}

function isRest(endpoint: Endpoint): boolean {
  return endpoint.method !== 'EVENT' && !graphqlMethods.has(endpoint.method)
}

/**
 * The paths of both catalogues' base URLs (`https://example.com/api/v1` -> `/api/v1`), which REST routes are
 * compared under: a description that moves `/api/v1` from its server URL into its paths changes no URL a client
 * calls. Only when both have a base URL: one without says nothing of where its routes are.
 */
function basePaths(previous: Catalogue, next: Catalogue): [string, string] {
  const [was, now] = [basePathOf(previous.meta?.base_url), basePathOf(next.meta?.base_url)]
  return was === undefined || now === undefined ? ['', ''] : [was, now]
}

function basePathOf(url: unknown): string | undefined {
  if (typeof url !== 'string' || url.trim() === '') return undefined
  try {
    // A server URL may be relative (`/api/v1`), and its variables are set to their defaults by the import.
    return decodeURI(new URL(url, 'http://host').pathname).replace(/\/+$/, '')
  } catch {
    return undefined
  }
}

/** The location of an endpoint in a change line: `GET:/pets/{petId}`, `QUERY:pet`, `EVENT:pet.created`. */
function route(endpoint: Endpoint): string {
  return `${endpoint.method}:${routeName(endpoint)}${sharedRoutes.has(endpoint) ? `(${endpoint.id})` : ''}`
}

/** An endpoint as a reader knows it: `GET /pets/{petId}`, `QUERY pet`; an event that shares its route, with its id. */
function display(endpoint: Endpoint): string {
  return `${endpoint.method} ${routeName(endpoint)}${sharedRoutes.has(endpoint) ? ` (${endpoint.id})` : ''}`
}

/** Endpoints whose route another endpoint of their catalogue has too (events of one WebSocket address). */
const sharedRoutes = new WeakSet<Endpoint>()

function markSharedRoutes(endpoints: readonly Endpoint[]): void {
  const byRoute = new Map<string, Endpoint>()
  for (const endpoint of endpoints) {
    if (endpoint.method !== 'EVENT') continue
    const key = endpoint.path
    const first = byRoute.get(key)
    if (!first) byRoute.set(key, endpoint)
    else {
      sharedRoutes.add(first)
      sharedRoutes.add(endpoint)
    }
  }
}

function describe(param: Param): string {
  return param.in === 'arg' ? `argument ${codeSpan(param.name)}` : `${param.in} param ${codeSpan(param.name)}`
}

/** Why something is deprecated (GraphQL's `@deprecated(reason:)`, kept as `x-deprecation-reason`), at a message's end. */
function reason(deprecated: Endpoint | Param | Field): string {
  const words = (deprecated as Record<string, unknown>)['x-deprecation-reason']
  return typeof words === 'string' && words.trim() !== '' ? ` (reason: ${words.trim().replace(/\s+/g, ' ')})` : ''
}

function capital(text: string): string {
  return text[0].toUpperCase() + text.slice(1)
}
