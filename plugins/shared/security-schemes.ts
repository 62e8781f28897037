/**
 * How importers name security schemes in `auth`, one rule for OpenAPI and AsyncAPI: a scheme goes by its kind
 * (`bearer`, `api-key`, …) when the document declares one scheme of that kind, else by its own name (an admin key and a
 * user key, both bearer, stay `adminKey` and `userKey`), so that operations with different security stay apart.
 * `meta.x-auth-schemes` says what each scheme is, by its `auth`: how an API key is sent (the page's curl line puts it
 * there), and, when some `auth` is a scheme's name, which scheme a renamed one was (`pipe diff`). A requirement that names several schemes needs them all: its `auth` joins them with
 * ` + `.
 */
import {record, text} from './readers.js'

/** The kind of a declared scheme, as the importer writes it in `auth`. */
export type KindOf = (scheme: Record<string, unknown>, name: string) => string

/** The names `auth` gives the declared schemes of a document (`schemes`, resolved, by name). */
export class SchemeNames {
  private readonly counts = new Map<string, number>()

  constructor(
    private readonly schemes: Record<string, Record<string, unknown>>,
    private readonly kindOf: KindOf
  ) {
    for (const [name, scheme] of Object.entries(schemes)) {
      const kind = kindOf(scheme, name)
      this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1)
    }
  }

  /** The `auth` of the scheme declared as `name`: its kind when it is the only one of that kind, else its name. */
  authOf(name: string): string {
    const kind = this.kindOf(this.schemes[name] ?? {}, name)
    return (this.counts.get(kind) ?? 0) > 1 ? name : kind
  }

  /**
   * The `auth` of one security requirement: the schemes it names, all of which a client must present (`{appId: [],
   * apiKey: []}` is `api-key + appId`: in sorted order, since the order of a requirement's keys means nothing);
   * undefined when it names none.
   */
  authOfRequirement(names: string[]): string | undefined {
    return names.length === 0 ? undefined : names.map((name) => this.authOf(name)).sort().join(' + ')
  }

  /** `meta.x-auth-schemes`: each declared scheme by its `auth`; undefined when the document declares none. */
  summaries(): Record<string, Record<string, unknown>> | undefined {
    if (this.counts.size === 0) return undefined
    const summaries: Record<string, Record<string, unknown>> = {}
    for (const [name, scheme] of Object.entries(this.schemes)) summaries[this.authOf(name)] = summaryOf(scheme)
    return summaries
  }
}

const namesByDocument = new WeakMap<object, SchemeNames>()

/** The scheme names of `document`, made by `make` once per document (an importer asks for each operation). */
export function schemeNamesOf(document: object, make: () => SchemeNames): SchemeNames {
  let names = namesByDocument.get(document)
  if (!names) namesByDocument.set(document, (names = make()))
  return names
}

/** Swagger 2's oauth2 `flow` names as OpenAPI 3's `flows` keys. */
const flowNames: Record<string, string> = {implicit: 'implicit', password: 'password', application: 'clientCredentials', accessCode: 'authorizationCode'}

/**
 * What a scheme is, descriptions aside: Swagger 2's forms read as OpenAPI 3's (`basic` is `http` basic; an oauth2
 * `flow: accessCode` is `flows.authorizationCode`), and scopes listed by name (AsyncAPI 3 calls them
 * `availableScopes`).
 */
function summaryOf(scheme: Record<string, unknown>): Record<string, unknown> {
  // What a scheme does not say (an apiKey's `name`) is left out, as the catalogue's JSON would leave it.
  return JSON.parse(JSON.stringify(writtenSummary(scheme))) as Record<string, unknown>
}

function writtenSummary(scheme: Record<string, unknown>): Record<string, unknown> {
  const type = text(scheme.type)
  if (type === 'basic') return {type: 'http', scheme: 'basic'}
  if (type === 'http') return {type, scheme: text(scheme.scheme)?.toLowerCase()}
  if (type === 'apiKey' || type === 'httpApiKey') return {type, in: text(scheme.in), name: text(scheme.name)}
  if (type === 'openIdConnect') return {type, url: text(scheme.openIdConnectUrl)}
  if (type !== 'oauth2') return {type}
  const written = text(scheme.flow) ? {[flowNames[String(scheme.flow)] ?? String(scheme.flow)]: scheme} : record(scheme.flows)
  const flows: Record<string, unknown> = {}
  for (const name of Object.keys(written).sort()) {
    const flow = record(written[name])
    flows[name] = {authorizationUrl: text(flow.authorizationUrl), tokenUrl: text(flow.tokenUrl), scopes: Object.keys(record(flow.scopes ?? flow.availableScopes)).sort()}
  }
  return {type, flows}
}
