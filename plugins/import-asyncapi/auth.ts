/**
 * `auth` for an AsyncAPI operation: its own `security`, else the first server's, named after the scheme's type:
 * `http` bearer -> `bearer`, `http` basic and `userPassword` -> `basic`, `apiKey` and `httpApiKey` -> `api-key`,
 * `oauth2`, `openIdConnect`, `X509` -> `x509`, `plain`/`scramSha256`/`scramSha512` -> `sasl`, `gssapi`,
 * encryption schemes -> `encryption`. No security at all leaves `auth` out.
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

/** The auth kind for an operation, or undefined. */
export function authOf(document: Record<string, unknown>, operation: Record<string, unknown>, refs: JsonRefs): string | undefined {
  // The first server, as for `meta.base_url`: the catalogue describes one broker, security and address alike.
  const [server] = Object.values(asRecord(document.servers))
  const requirements = Array.isArray(operation.security) ? operation.security : asRecord(refs.resolve(server).value).security
  if (!Array.isArray(requirements) || requirements.length === 0) return undefined
  const schemes = asRecord(asRecord(document.components).securitySchemes)
  const first = asRecord(requirements[0])
  // 2.x: `{schemeName: [scopes]}`; 3.0: a scheme object or a `$ref` to one.
  const scheme = first.$ref || first.type ? asRecord(refs.resolve(first).value) : asRecord(refs.resolve(schemes[Object.keys(first)[0] ?? '']).value)
  const type = str(scheme.type)
  if (!type) return undefined
  if (type === 'http') return str(scheme.scheme)?.toLowerCase() === 'bearer' ? 'bearer' : (str(scheme.scheme)?.toLowerCase() ?? 'http')
  return kinds[type] ?? type
}
