/**
 * `auth` for an AsyncAPI operation: its own `security`, else the first server's, named by the rule of
 * shared/security-schemes.ts: the scheme's kind when the document declares one scheme of that kind (`http` bearer ->
 * `bearer`, `http` basic and `userPassword` -> `basic`, `apiKey` and `httpApiKey` -> `api-key`, `oauth2`,
 * `openIdConnect`, `X509` -> `x509`, `plain`/`scramSha256`/`scramSha512` -> `sasl`, `gssapi`, encryption schemes ->
 * `encryption`), else its name under `components.securitySchemes`. No security at all leaves `auth` out; the other
 * schemes of a list of alternatives are kept in `x-auth-alternatives`.
 */
import type {JsonRefs} from '../shared/json-refs.js'
import {record as asRecord, text as str} from '../shared/readers.js'
import {SchemeNames, schemeNamesOf} from '../shared/security-schemes.js'

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

/** Where AsyncAPI 3 refers to a declared scheme: `#/components/securitySchemes/<name>`. */
const schemeRef = /^#\/components\/securitySchemes\/([^/]+)$/

/**
 * The auth an operation accepts, the first one first (its `auth`; the others are alternatives, as the OpenAPI import
 * keeps them in `x-auth-alternatives`); none without security.
 */
export function authKinds(document: Record<string, unknown>, operation: Record<string, unknown>, refs: JsonRefs): string[] {
  // The first server, as for `meta.base_url`: the catalogue describes one broker, security and address alike.
  const [server] = Object.values(asRecord(document.servers))
  const requirements = Array.isArray(operation.security) ? operation.security : asRecord(refs.resolve(server).value).security
  if (!Array.isArray(requirements)) return []
  const names = schemeNames(document, refs)
  const found = requirements.map((requirement) => {
    const written = asRecord(requirement)
    // 3.0: a `$ref` to a declared scheme, or a scheme written in place (which has no name: its kind).
    const declared = typeof written.$ref === 'string' ? schemeRef.exec(written.$ref)?.[1] : undefined
    if (declared !== undefined) return names.authOf(declared.replace(/~1/g, '/').replace(/~0/g, '~'))
    if (written.$ref || written.type) return kindOf(asRecord(refs.resolve(written).value))
    // 2.x: `{schemeName: [scopes]}`, several names all needed.
    return names.authOfRequirement(Object.keys(written))
  })
  return [...new Set(found.filter((kind): kind is string => kind !== undefined))]
}

/** `meta.x-auth-schemes` of an AsyncAPI document (see shared/security-schemes.ts), or undefined. */
export function authSchemes(document: Record<string, unknown>, refs: JsonRefs): Record<string, Record<string, unknown>> | undefined {
  return schemeNames(document, refs).summaries()
}

/** The names of the security schemes an AsyncAPI document declares. */
function schemeNames(document: Record<string, unknown>, refs: JsonRefs): SchemeNames {
  return schemeNamesOf(document, () => {
    const declared = asRecord(asRecord(document.components).securitySchemes)
    const schemes = Object.fromEntries(Object.entries(declared).map(([name, scheme]) => [name, asRecord(refs.resolve(scheme).value)]))
    return new SchemeNames(schemes, (scheme, name) => kindOf(scheme) ?? name)
  })
}

function kindOf(scheme: Record<string, unknown>): string | undefined {
  const type = str(scheme.type)
  if (!type) return undefined
  if (type === 'http') return str(scheme.scheme)?.toLowerCase() === 'bearer' ? 'bearer' : (str(scheme.scheme)?.toLowerCase() ?? 'http')
  return kinds[type] ?? type
}
