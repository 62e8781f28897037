/**
 * `security` -> `auth`: the operation's requirements, else the document's (not for webhooks and callbacks: a
 * subscriber never authenticates with the API's own schemes, so an event carries only its own `security`). An empty
 * requirement (`[]`, or `{}` among them) is `none`, keeping the schemes it also accepts in `x-auth-alternatives`.
 * Otherwise the first alternative names the scheme, by the rule of shared/security-schemes.ts: its kind (`http`
 * bearer -> `bearer`, `http` basic and Swagger `basic` -> `basic`, `apiKey` -> `api-key`, `oauth2`, `openIdConnect`,
 * `mutualTLS` -> `mtls`) when the document declares one scheme of that kind, else the scheme's own name; a
 * requirement of several schemes, all needed, joins them (`api-key + appId`). The other alternatives go to
 * `x-auth-alternatives`. A scheme that is not declared keeps its requirement's name.
 */
import type {JsonRefs} from '../shared/json-refs.js'
import {record, text} from '../shared/readers.js'
import {SchemeNames, schemeNamesOf} from '../shared/security-schemes.js'

/** `auth` and the other alternatives for an operation (`inherit: false` for events: no document-wide security). */
export function authOf(document: Record<string, unknown>, refs: JsonRefs, operation: Record<string, unknown>, inherit = true): {auth?: string; alternatives?: string[]} {
  const requirements = Array.isArray(operation.security) ? operation.security : inherit && Array.isArray(document.security) ? document.security : undefined
  if (!requirements) return {}
  const names = schemeNames(document, refs)
  const auths = requirements.map((requirement) => names.authOfRequirement(Object.keys(record(requirement))) ?? 'none')
  // Optional authentication (`{}` among the requirements) is open: `none`, with the schemes it accepts as alternatives.
  const auth = auths.length === 0 || auths.includes('none') ? 'none' : auths[0]
  const alternatives = [...new Set(auths)].filter((name) => name !== auth && name !== 'none')
  return alternatives.length > 0 ? {auth, alternatives} : {auth}
}

/** `meta.x-auth-schemes` of a document (see shared/security-schemes.ts), or undefined. */
export function authSchemes(document: Record<string, unknown>, refs: JsonRefs): Record<string, Record<string, unknown>> | undefined {
  return schemeNames(document, refs).summaries()
}

/** The names of the security schemes a Swagger 2 or OpenAPI 3 document declares (each may be a `$ref`, to a file of its own). */
function schemeNames(document: Record<string, unknown>, refs: JsonRefs): SchemeNames {
  return schemeNamesOf(document, () => {
    const declared = {...record(document.securityDefinitions), ...record(record(document.components).securitySchemes)}
    return new SchemeNames(Object.fromEntries(Object.entries(declared).map(([name, scheme]) => [name, refs.resolve(scheme).value ?? {}])), kindOf)
  })
}

function kindOf(scheme: Record<string, unknown>, name: string): string {
  const type = text(scheme.type)
  if (type === 'http') return text(scheme.scheme)?.toLowerCase() === 'bearer' ? 'bearer' : (text(scheme.scheme)?.toLowerCase() ?? 'http')
  if (type === 'basic') return 'basic'
  if (type === 'apiKey') return 'api-key'
  if (type === 'mutualTLS') return 'mtls'
  return type ?? name
}
