/**
 * `auth` for an AsyncAPI operation: its own `security`, else the first server's, named after the scheme's type:
 * `http` bearer -> `bearer`, `http` basic and `userPassword` -> `basic`, `apiKey` and `httpApiKey` -> `api-key`,
 * `oauth2`, `openIdConnect`, `X509` -> `x509`, `plain`/`scramSha256`/`scramSha512` -> `sasl`, `gssapi`,
 * encryption schemes -> `encryption`. No security at all leaves `auth` out; the other schemes of a list of
 * alternatives are kept in `x-auth-alternatives`.
 */
import type {JsonRefs} from '../shared/json-refs.js'
import {record as asRecord, text as str} from '../shared/readers.js'

const kinds: Record<string, string> = {
  userPassword: 'basic',
  apiKey: 'api-key',
  httpApiKey: 'api-key',
  oauth2: 'oauth2',
  openIdConnect: 'openIdConnect',
  X509: 'x509',
  plain: 'sasl',
  scramSha256: 'sasl',
  scramSha512: 'sasl',
  gssapi: 'gssapi',
  symmetricEncryption: 'encryption',
  asymmetricEncryption: 'encryption'
}

/**
 * The auth kinds an operation accepts, the first one first (its `auth`; the others are alternatives, as the OpenAPI
 * import keeps them in `x-auth-alternatives`); none without security.
 */
export function authKinds(document: Record<string, unknown>, operation: Record<string, unknown>, refs: JsonRefs): string[] {
  // The first server, as for `meta.base_url`: the catalogue describes one broker, security and address alike.
  const [server] = Object.values(asRecord(document.servers))
  const requirements = Array.isArray(operation.security) ? operation.security : asRecord(refs.resolve(server).value).security
  if (!Array.isArray(requirements)) return []
  const schemes = asRecord(asRecord(document.components).securitySchemes)
  const found = requirements.map((requirement) => {
    const written = asRecord(requirement)
    // 2.x: `{schemeName: [scopes]}`; 3.0: a scheme object or a `$ref` to one.
    const scheme = written.$ref || written.type ? asRecord(refs.resolve(written).value) : asRecord(refs.resolve(schemes[Object.keys(written)[0] ?? '']).value)
    return kindOf(scheme)
  })
  return [...new Set(found.filter((kind): kind is string => kind !== undefined))]
}

function kindOf(scheme: Record<string, unknown>): string | undefined {
  const type = str(scheme.type)
  if (!type) return undefined
  if (type === 'http') return str(scheme.scheme)?.toLowerCase() === 'bearer' ? 'bearer' : (str(scheme.scheme)?.toLowerCase() ?? 'http')
  return kinds[type] ?? type
}
