/**
 * `security` -> `auth`: the operation's requirements, else the document's. An empty requirement (`[]`, or `{}` among
 * them) is `none`. The first alternative names the scheme by kind: `http` bearer -> `bearer`, `http` basic and
 * Swagger `basic` -> `basic`, `apiKey` -> `api-key`, `oauth2`, `openIdConnect`, `mutualTLS` -> `mtls`; the other
 * alternatives go to `x-auth-alternatives`. A scheme that is not declared keeps its requirement's name.
 */
import {record, text} from './refs.js'

/** `auth` and the other alternatives for an operation. */
export function authOf(document: Record<string, unknown>, operation: Record<string, unknown>): {auth?: string; alternatives?: string[]} {
  const requirements = Array.isArray(operation.security) ? operation.security : Array.isArray(document.security) ? document.security : undefined
  if (!requirements) return {}
  if (requirements.length === 0 || requirements.some((requirement) => Object.keys(record(requirement)).length === 0)) {
    return {auth: 'none'}
  }
  const schemes = {...record(document.securityDefinitions), ...record(record(document.components).securitySchemes)}
  const kinds = requirements.map((requirement) => {
    const name = Object.keys(record(requirement))[0]
    return kindOf(record(schemes[name]), name)
  })
  const alternatives = [...new Set(kinds.slice(1))].filter((kind) => kind !== kinds[0])
  return alternatives.length > 0 ? {auth: kinds[0], alternatives} : {auth: kinds[0]}
}

function kindOf(scheme: Record<string, unknown>, name: string): string {
  const type = text(scheme.type)
  if (type === 'http') return text(scheme.scheme)?.toLowerCase() === 'bearer' ? 'bearer' : (text(scheme.scheme)?.toLowerCase() ?? 'http')
  if (type === 'basic') return 'basic'
  if (type === 'apiKey') return 'api-key'
  if (type === 'mutualTLS') return 'mtls'
  return type ?? name
}
