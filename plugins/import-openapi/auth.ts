/**
 * `security` -> `auth`: the operation's requirements, else the document's (not for webhooks and callbacks: a
 * subscriber never authenticates with the API's own schemes, so an event carries only its own `security`). An empty
 * requirement (`[]`, or `{}` among them) is `none`, keeping the schemes it also accepts in `x-auth-alternatives`.
 * Otherwise the first alternative names the scheme: by its kind (`http` bearer -> `bearer`, `http` basic and Swagger
 * `basic` -> `basic`, `apiKey` -> `api-key`, `oauth2`, `openIdConnect`, `mutualTLS` -> `mtls`) when the document
 * declares one scheme of that kind, else by the scheme's own name (an admin key and a user key, both bearer, stay
 * `adminKey` and `userKey`), so that operations with different security stay apart. The other alternatives go to
 * `x-auth-alternatives`. A scheme that is not declared keeps its requirement's name.
 */
import {record, text} from '../shared/readers.js'

/** `auth` and the other alternatives for an operation (`inherit: false` for events: no document-wide security). */
export function authOf(document: Record<string, unknown>, operation: Record<string, unknown>, inherit = true): {auth?: string; alternatives?: string[]} {
  const requirements = Array.isArray(operation.security) ? operation.security : inherit && Array.isArray(document.security) ? document.security : undefined
  if (!requirements) return {}
  const schemes = {...record(document.securityDefinitions), ...record(record(document.components).securitySchemes)}
  const kindCounts = new Map<string, number>()
  for (const [name, scheme] of Object.entries(schemes)) kindCounts.set(kindOf(record(scheme), name), (kindCounts.get(kindOf(record(scheme), name)) ?? 0) + 1)
  const names = requirements.map((requirement) => {
    const name = Object.keys(record(requirement))[0]
    if (name === undefined) return 'none'
    const kind = kindOf(record(schemes[name]), name)
    return (kindCounts.get(kind) ?? 0) > 1 ? name : kind
  })
  // Optional authentication (`{}` among the requirements) is open: `none`, with the schemes it accepts as alternatives.
  const auth = names.length === 0 || names.includes('none') ? 'none' : names[0]
  const alternatives = [...new Set(names)].filter((name) => name !== auth && name !== 'none')
  return alternatives.length > 0 ? {auth, alternatives} : {auth}
}

function kindOf(scheme: Record<string, unknown>, name: string): string {
  const type = text(scheme.type)
  if (type === 'http') return text(scheme.scheme)?.toLowerCase() === 'bearer' ? 'bearer' : (text(scheme.scheme)?.toLowerCase() ?? 'http')
  if (type === 'basic') return 'basic'
  if (type === 'apiKey') return 'api-key'
  if (type === 'mutualTLS') return 'mtls'
  return type ?? name
}
