/**
 * `security` -> `auth`: the operation's requirements, else the document's. An empty requirement (`[]`, or `{}` among
 * them) is `none`, keeping the schemes it also accepts in `x-auth-alternatives`. Otherwise the first alternative names
 * the scheme by kind: `http` bearer -> `bearer`, `http` basic and Swagger `basic` -> `basic`, `apiKey` -> `api-key`,
 * `oauth2`, `openIdConnect`, `mutualTLS` -> `mtls`; the other alternatives go to `x-auth-alternatives`. A scheme that
 * is not declared keeps its requirement's name.
 */
import {record, text} from '../shared/readers.js'

/** `auth` and the other alternatives for an operation. */
export function authOf(document: Record<string, unknown>, operation: Record<string, unknown>): {auth?: string; alternatives?: string[]} {
  const requirements = Array.isArray(operation.security) ? operation.security : Array.isArray(document.security) ? document.security : undefined
  if (!requirements) return {}
  const schemes = {...record(document.securityDefinitions), ...record(record(document.components).securitySchemes)}
  const kinds = requirements.map((requirement) => {
    const name = Object.keys(record(requirement))[0]
    return name === undefined ? 'none' : kindOf(record(schemes[name]), name)
  })
  // Optional authentication (`{}` among the requirements) is open: `none`, with the schemes it accepts as alternatives.
  const auth = kinds.length === 0 || kinds.includes('none') ? 'none' : kinds[0]
  const alternatives = [...new Set(kinds)].filter((kind) => kind !== auth && kind !== 'none')
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
