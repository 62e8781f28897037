/**
 * The page's view model: what the template prints for each group, endpoint and type, computed once on the server
 * so the page needs no work before its first screen. Findings (warnings) are attached to the endpoint they name.
 */
import type {VFile} from 'vfile'
import type {Catalogue, Endpoint, Param, Response} from '../../schemas/types/endpoints.js'
import type {Column} from '../../schemas/types/erd.js'
import {erdFile} from '../shared/erd-file.js'
import {inlineMarkdown, markdownHtml} from './markdown.js'
import {masonry, type Cut} from './masonry.js'
import {packedTypeCards, typeViews} from './types-view.js'

/** How many status chips a row shows before a `+N` chip. */
export const maxStatusChips = 4

/** An endpoint as the page shows it. */
export interface EndpointView {
  id: string
  index: number
  method: string
  /** `rest`, `graphql` or `event`: the badge family. */
  family: 'rest' | 'graphql' | 'event'
  path: string
  /** The summary as one line of sanitized inline HTML. */
  summaryHtml: string
  /** The auth chip; undefined for `none` and for no auth. */
  auth: string | undefined
  statuses: Array<{code: number; kind: string}>
  moreStatuses: number
  deprecated: boolean
  findings: string[]
  /**
   * The id, shown on the row when another endpoint has the same method and path (events on one WebSocket address,
   * `/`): the path alone would not tell them apart.
   */
  sharedRouteId?: string
}

/** A group card. */
export interface GroupView {
  id: string
  label: string
  /** The description's first block as one line of sanitized inline HTML. */
  descriptionHtml: string
  endpoints: EndpointView[]
}

/** A group card as the page shows it: a whole group, or one piece of a group cut into several. */
export type CardView = GroupView & Cut

/** An entry of the group index: a group with its endpoint count. */
export interface GroupEntry {
  id: string
  label: string
  count: number
}

/** A table of the dashboard, with the endpoints that name it. */
export interface TableView {
  name: string
  /** The table's label and columns from the catalogue's ERD (`meta.erd`), when it has one that lists the table. */
  label?: string
  columns: Column[]
  endpoints: Array<{id: string; method: string; path: string}>
}

/** Everything the template needs. */
export interface PageModel {
  meta: Catalogue['meta']
  /** The API's description as sanitized HTML. */
  leadHtml: string
  /** Every group with endpoints, in catalogue order, for the index. */
  groupIndex: GroupEntry[]
  groups: GroupView[]
  /** The group cards dealt into `layout.columns` columns, each card to the shortest column so far (a masonry). */
  columns: CardView[][]
  /** How many types the catalogue declares. */
  typeCount: number
  /** The type cards, deflated and base64-encoded (see {@link packedTypeCards}). */
  typeCards: string
  /** Whether the types section is shown; hidden, it is still in the page for the details panel. */
  showTypes: boolean
  tables: TableView[]
  findingCount: number
  endpointCount: number
  /** What the page calls its rows: `events` when all are events, `operations` when all are GraphQL, else `endpoints`. */
  noun: string
  /** `12 endpoints`, `1 event`. */
  countText: string
  /** The search hint's examples: each facet with a value this catalogue has (`method:GET`, `group:repos`, …). */
  hintFacets: string[]
  layout: {columns: number; cardWidth: number}
  /** The data the page script reads on selection (details, search), as JSON safe inside `<script>`. */
  data: string
}

/** Build the model from a valid catalogue and the findings on its file. */
export async function pageModel(spec: Catalogue, file: VFile): Promise<PageModel> {
  const findings = findingsByEndpoint(file)
  const groups = new Map<string, GroupView>()
  for (const group of spec.groups ?? []) groups.set(group.id, {id: group.id, label: group.label ?? group.id, descriptionHtml: group.description ? inlineMarkdown(group.description) : '', endpoints: []})
  const tables = new Map<string, TableView>()
  const erdTables = new Map((erdFile(spec, file)?.erd?.tables ?? []).map((table) => [table.id, table]))
  const routeCounts = new Map<string, number>()
  for (const endpoint of spec.endpoints) routeCounts.set(`${endpoint.method} ${endpoint.path}`, (routeCounts.get(`${endpoint.method} ${endpoint.path}`) ?? 0) + 1)
  const views = spec.endpoints.map((endpoint, index) => {
    const view = endpointView(endpoint, index, findings.get(index) ?? [])
    if (routeCounts.get(`${endpoint.method} ${endpoint.path}`)! > 1) view.sharedRouteId = endpoint.id
    const groupId = endpoint.group ?? 'default'
    if (!groups.has(groupId)) groups.set(groupId, {id: groupId, label: groupId === 'default' ? 'Default' : groupId, descriptionHtml: '', endpoints: []})
    groups.get(groupId)!.endpoints.push(view)
    for (const entity of endpoint.entities ?? []) {
      if (!tables.has(entity)) tables.set(entity, {name: entity, label: erdTables.get(entity)?.label, columns: erdTables.get(entity)?.columns ?? [], endpoints: []})
      tables.get(entity)!.endpoints.push({id: endpoint.id, method: endpoint.method, path: endpoint.path})
    }
    return view
  })
  const shown = [...groups.values()].filter((group) => group.endpoints.length > 0)
  const columns = masonry(shown, spec.layout?.columns ?? 3)
  // The page script pairs the n-th row of the page with the n-th endpoint of its data: the data follows page order.
  const inPageOrder = columns.flat().flatMap((group) => group.endpoints)
  // Deflated on another core while the rest is built (see packedTypeCards).
  const typeCards = spec.types?.length ? packedTypeCards(typeViews(spec)) : ''
  const noun = rowNoun(views)
  const data = scriptJson({...clientData(spec, inPageOrder), noun})
  const countText = `${views.length} ${views.length === 1 ? noun.slice(0, -1) : noun}`
  return {
    meta: spec.meta,
    leadHtml: spec.meta.description ? markdownHtml(spec.meta.description) : '',
    groupIndex: shown.map((group) => ({id: group.id, label: group.label, count: group.endpoints.length})),
    groups: shown,
    columns,
    typeCount: spec.types?.length ?? 0,
    typeCards: await typeCards,
    showTypes: spec.layout?.show_types !== false && (spec.types ?? []).length > 0,
    tables: [...tables.values()].sort((a, b) => a.name.localeCompare(b.name)),
    findingCount: views.filter((view) => view.findings.length > 0).length,
    endpointCount: views.length,
    noun,
    countText,
    hintFacets: hintFacets(spec, shown, [...tables.keys()], views),
    layout: {columns: spec.layout?.columns ?? 3, cardWidth: spec.layout?.card_width ?? 420},
    data
  }
}

/** `events`, `operations` (GraphQL) or `endpoints`: the word for the rows of this page. */
function rowNoun(views: EndpointView[]): string {
  if (views.length > 0 && views.every((view) => view.family === 'event')) return 'events'
  if (views.length > 0 && views.every((view) => view.family === 'graphql')) return 'operations'
  return 'endpoints'
}

/**
 * The search hint's examples, from this catalogue's own values, so that each one finds something when typed: its first
 * method, group (when there are several), tag (an import's first tag is the group), auth schemes, table, and
 * `deprecated:true` and `has:finding` when some row is so.
 */
function hintFacets(spec: Catalogue, groups: GroupView[], tables: string[], views: EndpointView[]): string[] {
  const facet = (name: string, value: string | undefined) => (value === undefined ? [] : [`${name}:${/\s/.test(value) ? `"${value}"` : value}`])
  const auths = [...new Set(spec.endpoints.map((endpoint) => endpoint.auth ?? 'none'))]
  // A group's label is its tag as written (`activity`), where its id may have had to differ (`activity-2`).
  const tag = spec.endpoints.find((endpoint) => endpoint.tags?.length)?.tags?.[0] ?? (groups.length > 1 ? groups[1].label : undefined)
  return [
    ...facet('method', spec.endpoints[0]?.method),
    ...facet('group', groups.length > 1 ? groups[0].id : undefined),
    ...facet('tag', tag),
    ...facet('auth', auths.find((auth) => auth !== 'none')?.split(' + ')[0]),
    ...facet('auth', auths.includes('none') && auths.length > 1 ? 'none' : undefined),
    ...facet('table', tables[0]),
    ...facet('deprecated', views.some((view) => view.deprecated) ? 'true' : undefined),
    ...facet('has', views.some((view) => view.findings.length > 0) ? 'finding' : undefined)
  ]
}

/**
 * What the page script needs beyond what it reads from the rows (id, method, path, summary, auth, deprecated, the
 * card's group), for `views` in the order of the rows on the page: empty fields are left out and params are stored
 * once in a table, since large APIs repeat the same params on hundreds of endpoints (Kubernetes: `pretty`,
 * `namespace`, …). This keeps a 1,000-endpoint page well under 1.5 MB.
 */
function clientData(spec: Catalogue, views: EndpointView[]) {
  const params: unknown[] = []
  // Keyed by the param without its description, then by the description: the long descriptions are one shared
  // string per source param, so looking them up is cheap where serializing each param would copy them all.
  const paramIndex = new Map<string, Map<string | undefined, number>>()
  const contentKey = contentKeys()
  const intern = (param: Param) => {
    const {description, ...rest} = param
    const key = contentKey(rest)
    let byDescription = paramIndex.get(key)
    if (!byDescription) paramIndex.set(key, (byDescription = new Map()))
    let index = byDescription.get(description)
    if (index === undefined) {
      index = params.push(compact({...rest, description: description ? markdownHtml(description) : undefined})) - 1
      byDescription.set(description, index)
    }
    return index
  }
  // Responses repeat as params do (Kubernetes: `401 Unauthorized` on every endpoint, `200 OK` with the same type on
  // each endpoint of a resource): each distinct response is stored once too.
  const responses: unknown[] = []
  const responseIndex = new Map<string, number>()
  const internResponse = (response: Response) => {
    const key = contentKey(response)
    let index = responseIndex.get(key)
    if (index === undefined) {
      // A header's description is Markdown as every other (`a \`limit\``), placed as HTML by the page script.
      const headers = response.headers?.map((header) => compact({...header, description: header.description ? markdownHtml(header.description) : undefined}))
      index = responses.push(compact({...response, description: response.description ? markdownHtml(response.description) : undefined, headers})) - 1
      responseIndex.set(key, index)
    }
    return index
  }
  const endpoints = views.map((view) => {
    const endpoint = spec.endpoints[view.index]
    const statuses = [...new Set(endpoint.status ?? [])].sort((a, b) => a - b)
    return compact({
      description: endpoint.description ? markdownHtml(endpoint.description) : undefined,
      requestDescription: endpoint.request_description ? markdownHtml(endpoint.request_description) : undefined,
      requestExample: endpoint.request_example,
      requestMedia: endpoint['x-request-media'],
      requestRequired: endpoint['x-request-required'] === true ? true : undefined,
      baseUrl: endpoint['x-base-url'],
      authAlternatives: endpoint['x-auth-alternatives'],
      correlationId: endpoint['x-correlation-id'],
      responses: endpoint.responses?.map(internResponse),
      tags: endpoint.tags,
      entities: endpoint.entities,
      params: endpoint.params?.map(intern),
      request: endpoint.request,
      response: endpoint.response,
      status: statuses,
      sources: endpoint.sources,
      findings: view.findings
    })
  })
  // What each `auth` is (how an API key is sent), for the curl lines.
  const authSchemes = spec.meta['x-auth-schemes']
  return compact({title: spec.meta.title, version: spec.meta.version, baseUrl: spec.meta.base_url, repository: repositoryUrl(spec.meta.repository), authSchemes, params, responses, endpoints})
}

/**
 * Keys equal for two params or responses exactly when their JSON is: their JSON without `example`, and the example's
 * JSON apart, made once for each example object met while one page is built (one example is often shared by many
 * responses: GitHub's 933 response examples, 2.3 MB of JSON, are 577 objects).
 */
function contentKeys(): (record: {example?: unknown}) => string {
  const exampleTexts = new Map<object, string>()
  const exampleText = (example: unknown): string => {
    if (typeof example !== 'object' || example === null) return JSON.stringify(example)
    let text = exampleTexts.get(example)
    if (text === undefined) exampleTexts.set(example, (text = JSON.stringify(example)))
    return text
  }
  return (record) => {
    const {example, ...rest} = record
    // A NUL is never in JSON text (JSON.stringify writes it `\u0000`), so the two parts cannot run into each other.
    return example === undefined ? JSON.stringify(rest) : `${JSON.stringify(rest)}\u0000${exampleText(example)}`
  }
}

/** Drop undefined, null, empty strings and empty arrays. */
function compact(record: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) continue
    result[key] = value
  }
  return result
}

function endpointView(endpoint: Endpoint, index: number, findings: string[]): EndpointView {
  const statuses = [...new Set(endpoint.status ?? [])].sort((a, b) => a - b)
  return {
    id: endpoint.id,
    index,
    method: endpoint.method,
    family: endpoint.method === 'EVENT' ? 'event' : ['QUERY', 'MUTATION', 'SUBSCRIPTION'].includes(endpoint.method) ? 'graphql' : 'rest',
    path: endpoint.path,
    summaryHtml: endpoint.summary ? withoutLinks(inlineMarkdown(endpoint.summary)) : '',
    auth: endpoint.auth && endpoint.auth !== 'none' ? endpoint.auth : undefined,
    statuses: statuses.slice(0, maxStatusChips).map((code) => ({code, kind: `s${String(code)[0]}xx`})),
    moreStatuses: Math.max(0, statuses.length - maxStatusChips),
    deprecated: endpoint.deprecated === true,
    findings
  }
}

/**
 * Inline HTML of the sanitizer without its links, their text kept: a row is a link itself, and a browser closes it at
 * a link inside it, leaving the rest of the summary outside the row. Every `<a …>` and `</a>` here is the sanitizer's
 * (text is escaped), so the tags are known as written.
 */
function withoutLinks(html: string): string {
  return html.includes('<a ') ? html.replace(/<a [^>]*>|<\/a>/g, '') : html
}

/**
 * A path in pieces for its row: `{params}` marked, and the places where a long path may wrap, after a `/` or a `.` and
 * before a `{` (`/apis/apps.k8s.io/{name}` -> `/`, `apis/`, `apps.`, `k8s.`, `io/`, `{name}`, a wrap point before each
 * piece after `apis/`), so that no word is cut.
 */
export function pathParts(path: string): Array<{text: string; param: boolean; wrap: boolean}> {
  const parts: Array<{text: string; param: boolean; wrap: boolean}> = []
  // Not after the leading `/` alone: a line never holds only the `/` that starts a path.
  const leadingSlash = () => parts.length === 1 && parts[0].text === '/'
  for (const piece of path.split(/(\{[^{}]*\})/)) {
    if (!piece) continue
    if (/^\{.*\}$/.test(piece)) {
      parts.push({text: piece, param: true, wrap: parts.length > 0 && !leadingSlash()})
      continue
    }
    for (const text of piece.split(/(?<=[/.])/)) {
      const previous = parts.at(-1)
      // The first segment joins the leading `/` in one piece, which a long segment (`/shield_information_…`) wraps as one.
      if (leadingSlash()) {
        parts[0].text += text
        continue
      }
      parts.push({text, param: false, wrap: previous !== undefined && !previous.param && /[/.]$/.test(previous.text)})
    }
  }
  return parts
}

/** Warnings that name an endpoint (`endpoints[3]…`), by endpoint index. */
function findingsByEndpoint(file: VFile): Map<number, string[]> {
  const result = new Map<number, string[]>()
  for (const message of file.messages) {
    const match = /^endpoints\[(\d+)\]/.exec(message.jsonPath ?? '')
    if (!match || message.fatal === true) continue
    const index = Number(match[1])
    result.set(index, [...(result.get(index) ?? []), `${message.ruleId}: ${message.reason}`])
  }
  return result
}

/** The repository URL without `.git` or a trailing slash, or '' when it is not an http(s) URL. */
export function repositoryUrl(repository: string | undefined): string {
  if (!repository || !/^https?:\/\//i.test(repository)) return ''
  return repository.replace(/\.git$/, '').replace(/\/+$/, '')
}

/**
 * JSON that cannot end a `<script>` element or open a comment inside it, nor end a line for an old script parser.
 * U+2028 and U+2029 are rare: they are looked for first, in the text as JSON.stringify wrote it, where a search for
 * one character is a scan (in the text the replacement of `<` makes, made of thousands of pieces, each search first
 * copied it whole: GitHub REST's 3 MB of page data, ~7 ms).
 */
function scriptJson(value: unknown): string {
  const json = JSON.stringify(value)
  const separated = json.includes('\u2028') || json.includes('\u2029') ? json.replace(/[\u2028\u2029]/g, (separator) => (separator === '\u2028' ? '\\u2028' : '\\u2029')) : json
  return separated.replace(/</g, '\\u003c')
}
