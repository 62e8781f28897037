/**
 * The page's view model: what the template prints for each group, endpoint and type, computed once on the server
 * so the page needs no work before its first screen. Findings (warnings) are attached to the endpoint they name.
 */
import type {VFile} from 'vfile'
import type {Catalogue, Endpoint, Param, TypeDefinition} from '../../schemas/types/endpoints.js'

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
  summary: string | undefined
  /** The auth chip; undefined for `none` and for no auth. */
  auth: string | undefined
  statuses: Array<{code: number; kind: string}>
  moreStatuses: number
  deprecated: boolean
  findings: string[]
}

/** A group card. */
export interface GroupView {
  id: string
  label: string
  description: string | undefined
  endpoints: EndpointView[]
  /** Set on the cards of a group cut into several: the endpoints of the whole group. */
  total?: number
  /** Set on every card of a cut group but its first. */
  continued?: boolean
}

/** A table of the dashboard, with the endpoints that name it. */
export interface TableView {
  name: string
  endpoints: Array<{id: string; method: string; path: string}>
}

/** Everything the template needs. */
export interface PageModel {
  meta: Catalogue['meta']
  groups: GroupView[]
  /** The group cards dealt into `layout.columns` columns, each card to the shortest column so far (a masonry). */
  columns: GroupView[][]
  types: TypeDefinition[]
  showTypes: boolean
  tables: TableView[]
  findingCount: number
  endpointCount: number
  layout: {columns: number; cardWidth: number}
  /** The data the page script reads on selection (details, search), as JSON safe inside `<script>`. */
  data: string
}

/** Build the model from a valid catalogue and the findings on its file. */
export function pageModel(spec: Catalogue, file: VFile): PageModel {
  const findings = findingsByEndpoint(file)
  const typeNames = new Set((spec.types ?? []).map((type) => type.name))
  const groups = new Map<string, GroupView>()
  for (const group of spec.groups ?? []) groups.set(group.id, {id: group.id, label: group.label ?? group.id, description: group.description, endpoints: []})
  const tables = new Map<string, TableView>()
  const views = spec.endpoints.map((endpoint, index) => {
    const view = endpointView(endpoint, index, findings.get(index) ?? [])
    const groupId = endpoint.group ?? 'default'
    if (!groups.has(groupId)) groups.set(groupId, {id: groupId, label: groupId === 'default' ? 'Default' : groupId, description: undefined, endpoints: []})
    groups.get(groupId)!.endpoints.push(view)
    for (const entity of endpoint.entities ?? []) {
      if (!tables.has(entity)) tables.set(entity, {name: entity, endpoints: []})
      tables.get(entity)!.endpoints.push({id: endpoint.id, method: endpoint.method, path: endpoint.path})
    }
    return view
  })
  const shown = [...groups.values()].filter((group) => group.endpoints.length > 0)
  const columns = masonry(shown, spec.layout?.columns ?? 3)
  // The page script pairs the n-th row of the page with the n-th endpoint of its data: the data follows page order.
  const inPageOrder = columns.flat().flatMap((group) => group.endpoints)
  return {
    meta: spec.meta,
    groups: shown,
    columns,
    types: spec.types ?? [],
    showTypes: spec.layout?.show_types !== false && (spec.types ?? []).length > 0,
    tables: [...tables.values()].sort((a, b) => a.name.localeCompare(b.name)),
    findingCount: views.filter((view) => view.findings.length > 0).length,
    endpointCount: views.length,
    layout: {columns: spec.layout?.columns ?? 3, cardWidth: spec.layout?.card_width ?? 420},
    data: scriptJson(clientData(spec, inPageOrder, typeNames))
  }
}

/**
 * What the page script needs beyond what it reads from the rows (id, method, path, summary, auth, deprecated, the
 * card's group), for `views` in the order of the rows on the page: empty fields are left out and params are stored
 * once in a table, since large APIs repeat the same params on hundreds of endpoints (Kubernetes: `pretty`,
 * `namespace`, …). This keeps a 1,000-endpoint page well under 1.5 MB.
 */
function clientData(spec: Catalogue, views: EndpointView[], typeNames: Set<string>) {
  const params: unknown[] = []
  // Keyed by the param without its description, then by the description: the long descriptions are one shared
  // string per source param, so looking them up is cheap where serializing each param would copy them all.
  const paramIndex = new Map<string, Map<string | undefined, number>>()
  const intern = (param: Param) => {
    const {description, ...rest} = param
    const key = JSON.stringify(rest)
    let byDescription = paramIndex.get(key)
    if (!byDescription) paramIndex.set(key, (byDescription = new Map()))
    let index = byDescription.get(description)
    if (index === undefined) {
      index = params.push(param) - 1
      byDescription.set(description, index)
    }
    return index
  }
  const endpoints = views.map((view) => {
    const endpoint = spec.endpoints[view.index]
    const statuses = [...new Set(endpoint.status ?? [])].sort((a, b) => a - b)
    return compact({
      description: endpoint.description,
      tags: endpoint.tags,
      entities: endpoint.entities,
      params: endpoint.params?.map(intern),
      request: typeLink(endpoint.request, typeNames),
      response: typeLink(endpoint.response, typeNames),
      status: statuses,
      sources: endpoint.sources,
      findings: view.findings
    })
  })
  return compact({title: spec.meta.title, version: spec.meta.version, description: spec.meta.description, repository: repositoryUrl(spec.meta.repository), params, endpoints})
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

/**
 * Deal cards into columns, each to the column with the fewest rows so far, in group order. Done here rather than
 * with CSS multi-column layout: a search that hides rows then re-lays out one column, not the whole page (on the
 * 1,123-endpoint Kubernetes page, CSS columns cost hundreds of milliseconds per change). The cards of a cut group
 * (see {@link cutGroup}) go to consecutive columns, left to right, where the tallest of them ends highest.
 */
function masonry(groups: GroupView[], count: number): GroupView[][] {
  const share = groups.reduce((sum, group) => sum + group.endpoints.length, 0) / count
  const cards = groups.map((group) => cutGroup(group, share, count))
  const columns: GroupView[][] = Array.from({length: Math.min(count, Math.max(cards.flat().length, 1))}, () => [])
  const heights = columns.map(() => 0)
  const place = (card: GroupView, column: number) => {
    columns[column].push(card)
    heights[column] += card.endpoints.length + 3
  }
  for (const parts of cards) {
    if (parts.length === 1) {
      place(parts[0], heights.indexOf(Math.min(...heights)))
      continue
    }
    let start = 0
    let lowest = Infinity
    for (let first = 0; first + parts.length <= columns.length; first++) {
      const tallest = Math.max(...parts.map((part, index) => heights[first + index] + part.endpoints.length))
      if (tallest < lowest) [start, lowest] = [first, tallest]
    }
    parts.forEach((part, index) => place(part, start + index))
  }
  return columns
}

/**
 * A group of at least 40 endpoints that holds about twice a column's `share` of all rows, or more, is cut into
 * consecutive cards of equal length (one a column at most), so that an API without tags, all of it in `default`
 * (Stripe: 417 endpoints), fills the columns instead of one narrow card beside empty ones.
 */
function cutGroup(group: GroupView, share: number, count: number): GroupView[] {
  const parts = Math.min(count, Math.round(group.endpoints.length / share))
  if (parts < 2 || group.endpoints.length < 40) return [group]
  const size = Math.ceil(group.endpoints.length / parts)
  return Array.from({length: parts}, (_, part) => ({
    ...group,
    description: part === 0 ? group.description : undefined,
    endpoints: group.endpoints.slice(part * size, (part + 1) * size),
    total: group.endpoints.length,
    continued: part > 0
  }))
}

function endpointView(endpoint: Endpoint, index: number, findings: string[]): EndpointView {
  const statuses = [...new Set(endpoint.status ?? [])].sort((a, b) => a - b)
  return {
    id: endpoint.id,
    index,
    method: endpoint.method,
    family: endpoint.method === 'EVENT' ? 'event' : ['QUERY', 'MUTATION', 'SUBSCRIPTION'].includes(endpoint.method) ? 'graphql' : 'rest',
    path: endpoint.path,
    summary: endpoint.summary,
    auth: endpoint.auth && endpoint.auth !== 'none' ? endpoint.auth : undefined,
    statuses: statuses.slice(0, maxStatusChips).map((code) => ({code, kind: `s${String(code)[0]}xx`})),
    moreStatuses: Math.max(0, statuses.length - maxStatusChips),
    deprecated: endpoint.deprecated === true,
    findings
  }
}

const characterReferences: Record<string, string> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' '}

/**
 * A description as one line of plain text, for the places that show a line (group cards, types, and the header until
 * the script makes it rich): OpenAPI descriptions are CommonMark and may hold HTML (Stripe writes `<p>` and `<code>`),
 * so tags are dropped, links keep their text and emphasis its words. The details panel shows them as rich text.
 */
export function plainText(text: string): string {
  // Each repeat below is bounded or stops at a character it cannot cross: time in proportion to the text's length.
  return text
    .replace(/<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/gi, ' ')
    .replace(/!?\[([^\][]{0,500})\]\((?:[^()\s]|\([^()\s]{0,200}\)){0,2000}(?:\s+"[^"]{0,500}")?\)/g, '$1')
    .replace(/(\*\*|__)(?=\S)([^*_]*?\S)\1/g, '$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => characterReferences[name])
    .replace(/^\s*#{1,6}\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * A path in pieces for its row: `{params}` marked, and where the row may wrap a long path rather than in the middle
 * of a word: before each `/` after the first character, and after a `.` (`/apis/apps.k8s.io` -> `/apis`, `/apps.`,
 * `k8s.`, `io`, the last three after a wrap point).
 */
export function pathParts(path: string): Array<{text: string; param: boolean; wrap: boolean}> {
  const parts: Array<{text: string; param: boolean; wrap: boolean}> = []
  for (const piece of path.split(/(\{[^{}]*\})/)) {
    if (!piece) continue
    if (/^\{.*\}$/.test(piece)) {
      parts.push({text: piece, param: true, wrap: false})
      continue
    }
    for (const text of piece.split(/(?=\/)|(?<=\.)/)) {
      const previous = parts.at(-1)
      parts.push({text, param: false, wrap: previous !== undefined && (text.startsWith('/') || (!previous.param && previous.text.endsWith('.')))})
    }
  }
  return parts
}

/**
 * A request/response type for the page script: the expression alone when it names no declared type, else
 * `[expression, type]` so the chip can jump to the type. Most responses name a type, so the pair is the exception
 * only when the two differ (`Pet[]` -> `Pet`); the same name is written once, as `[name]`.
 */
function typeLink(expression: string | undefined, names: Set<string>): string | string[] | undefined {
  if (!expression) return undefined
  const base = expression.replace(/[[\]!?\s]/g, '')
  if (!names.has(base)) return expression
  return base === expression ? [expression] : [expression, base]
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

/** JSON that cannot end a `<script>` element or open a comment inside it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')
}
