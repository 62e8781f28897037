/**
 * `security` -> `auth`: the operation's requirements, else the document's (not for webhooks and callbacks: a
 * subscriber never authenticates with the API's own schemes, so an event carries only its own `security`). An empty
 * requirement (`[]`, or `{}` among them) is `none`, keeping the schemes it also accepts in `x-auth-alternatives`.
 * Otherwise the first alternative names the scheme: by its kind (`http` bearer -> `bearer`, `http` basic and Swagger
 * `basic` -> `basic`, `apiKey` -> `api-key`, `oauth2`, `openIdConnect`, `mutualTLS` -> `mtls`) when the document
 * declares one scheme of that kind, else by the scheme's own name (an admin key and a user key, both bearer, stay
 * `adminKey` and `userKey`), so that operations with different security stay apart. The other alternatives go to
 * `x-auth-alternatives`. A scheme that is not declared keeps its requirement's name. When some `auth` is a scheme's
 * name, what each scheme is goes to `meta.x-auth-schemes` (see {@link authSchemes}).
 */
import {record, text} from '../shared/readers.js'

/** `auth` and the other alternatives for an operation (`inherit: false` for events: no document-wide security). */
export function authOf(document: Record<string, unknown>, operation: Record<string, unknown>, inherit = true): {auth?: string; alternatives?: string[]} {
  const requirements = Array.isArray(operation.security) ? operation.security : inherit && Array.isArray(document.security) ? document.security : undefined
  if (!requirements) return {}
  const schemes = declaredSchemes(document)
  const kindCounts = kindsOf(schemes)
  const names = requirements.map((requirement) => {
    const name = Object.keys(record(requirement))[0]
    return name === undefined ? 'none' : authName(schemes, kindCounts, name)
  })
  // Optional authentication (`{}` among the requirements) is open: `none`, with the schemes it accepts as alternatives.
  const auth = names.length === 0 || names.includes('none') ? 'none' : names[0]
  const alternatives = [...new Set(names)].filter((name) => name !== auth && name !== 'none')
  return alternatives.length > 0 ? {auth, alternatives} : {auth}
}

/**
 * What each declared scheme is, by the name `auth` gives it, when some `auth` is a scheme's own name (two schemes of
 * one kind): `meta.x-auth-schemes`, so that `pipe diff` tells a scheme renamed (`User Authentication` to
 * `User_Authentication`, as converters write keys) from another scheme. Descriptions aside, Swagger 2's forms read
 * as OpenAPI 3's (`basic` is `http` basic; an oauth2 `flow: accessCode` is `flows.authorizationCode`), and scopes are
 * listed by name.
 */
export function authSchemes(document: Record<string, unknown>): Record<string, Record<string, unknown>> | undefined {
  const schemes = declaredSchemes(document)
  const kindCounts = kindsOf(schemes)
  if (![...kindCounts.values()].some((count) => count > 1)) return undefined
  const summaries: Record<string, Record<string, unknown>> = {}
  for (const [name, scheme] of Object.entries(schemes)) summaries[authName(schemes, kindCounts, name)] = summaryOf(record(scheme))
  return summaries
}

/** Swagger 2's oauth2 `flow` names as OpenAPI 3's `flows` keys. */
const flowNames: Record<string, string> = {implicit: 'implicit', password: 'password', application: 'clientCredentials', accessCode: 'authorizationCode'}

function summaryOf(scheme: Record<string, unknown>): Record<string, unknown> {
  // What a scheme does not say (an apiKey's `name`) is left out, as the catalogue's JSON would leave it.
  return JSON.parse(JSON.stringify(writtenSummary(scheme))) as Record<string, unknown>
}

function writtenSummary(scheme: Record<string, unknown>): Record<string, unknown> {
  const type = text(scheme.type)
  if (type === 'basic') return {type: 'http', scheme: 'basic'}
  if (type === 'http') return {type, scheme: text(scheme.scheme)?.toLowerCase()}
  if (type === 'apiKey') return {type, in: text(scheme.in), name: text(scheme.name)}
  if (type === 'openIdConnect') return {type, url: text(scheme.openIdConnectUrl)}
  if (type !== 'oauth2') return {type}
  const written = text(scheme.flow) ? {[flowNames[String(scheme.flow)] ?? String(scheme.flow)]: scheme} : record(scheme.flows)
  const flows: Record<string, unknown> = {}
  for (const name of Object.keys(written).sort()) {
    const flow = record(written[name])
    flows[name] = {authorizationUrl: text(flow.authorizationUrl), tokenUrl: text(flow.tokenUrl), scopes: Object.keys(record(flow.scopes)).sort()}
  }
  return {type, flows}
}

/** The security schemes a Swagger 2 or OpenAPI 3 document declares, by name. */
function declaredSchemes(document: Record<string, unknown>): Record<string, unknown> {
  return {...record(document.securityDefinitions), ...record(record(document.components).securitySchemes)}
}

/** How many declared schemes there are of each kind. */
function kindsOf(schemes: Record<string, unknown>): Map<string, number> {
  const counts = new Map<string, number>()
  for (const [name, scheme] of Object.entries(schemes)) {
    const kind = kindOf(record(scheme), name)
    counts.set(kind, (counts.get(kind) ?? 0) + 1)
  }
  return counts
}

/** The `auth` of scheme `name`: its kind when it is the only one of that kind, else its name. */
function authName(schemes: Record<string, unknown>, kindCounts: Map<string, number>, name: string): string {
  const kind = kindOf(record(schemes[name]), name)
  return (kindCounts.get(kind) ?? 0) > 1 ? name : kind
}

function kindOf(scheme: Record<string, unknown>, name: string): string {
  const type = text(scheme.type)
  if (type === 'http') return text(scheme.scheme)?.toLowerCase() === 'bearer' ? 'bearer' : (text(scheme.scheme)?.toLowerCase() ?? 'http')
  if (type === 'basic') return 'basic'
  if (type === 'apiKey') return 'api-key'
  if (type === 'mutualTLS') return 'mtls'
  return type ?? name
}
