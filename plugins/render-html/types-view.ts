/**
 * The type cards as the page shows them: each field with its type (a link to the type's card when it names one), its
 * required mark and, under it, its description, enum values and default; and how many endpoints use each type. The
 * details panel reads its request and response fields from these cards, so every field is written into the page once.
 */
import {constants, deflateRaw} from 'node:zlib'
import type {Catalogue, Endpoint, Field, Param, TypeDefinition} from '../../schemas/types/endpoints.js'
import {escapeHtml} from '../shared/escape-html.js'
import {baseTypeName} from '../shared/readers.js'
import {inlineMarkdown, markdownHtml} from './markdown.js'
import {pieceHtml, typeNameHtml} from './wrap.js'

/** A type card. */
export interface TypeView {
  name: string
  kind: string
  /** The first block of the description, as one line of inline HTML. */
  descriptionHtml: string
  /** The field rows of the card's table, as markup. */
  rowsHtml: string
  values: string[]
  members: Array<{name: string; linked: boolean}>
  /**
   * The lines under the fields, as markup: what a map holds under each key, the subtypes a discriminator tells
   * apart, the interfaces the type implements (empty when it says none of these).
   */
  notesHtml: string
  /** How many endpoints name the type in a request, response or param. */
  usedBy: number
  /** Whether the type is deprecated (`x-deprecated`). */
  deprecated: boolean
}

/** A type expression as markup: the named type inside it is a link to its card. */
export function typeHtml(expression: string, names: ReadonlySet<string>): string {
  const base = baseTypeName(expression)
  if (!names.has(base)) return escapeHtml(expression)
  const at = expression.indexOf(base)
  return `${escapeHtml(expression.slice(0, at))}<a href="#type-${escapeHtml(base)}">${typeNameHtml(base)}</a>${escapeHtml(expression.slice(at + base.length))}`
}

/** A value from the source as it would be written in JSON. */
export function valueText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value)
}

/** Enum values and a default as the line under a field or param. */
export function constraintsHtml(values: unknown[] | undefined, fallback: unknown): string {
  const parts: string[] = []
  if (values?.length) parts.push(`<p class="enum">One of ${values.map((value) => `<code>${escapeHtml(valueText(value))}</code>`).join(' ')}</p>`)
  if (fallback !== undefined) parts.push(`<p class="default">Default <code>${escapeHtml(valueText(fallback))}</code></p>`)
  return parts.join('')
}

/**
 * One field as bare table rows (closing tags left to the parser, which keeps big pages small: Stripe's types have
 * 8,377 fields): name, type, `required`; then a row with what the catalogue says about it, when it says anything.
 */
function fieldRows(field: Field, names: ReadonlySet<string>): string {
  // The value a sample body gives the field (the copyable curl line): its example, else its default.
  const sample = field.example ?? field.default
  // The format, and "or null" for a field that may be null, show beside the type (page.css), outside the cell's
  // text, which sample bodies read as the type.
  const format = (typeof field['x-format'] === 'string' ? ` data-format="${escapeHtml(field['x-format'])}"` : '') + (field['x-nullable'] === true ? ' data-nullable' : '')
  // A read-only field (`x-read-only`) is marked beside `required` (page.css) and left out of sample request bodies.
  const head = `<tr${sample === undefined ? '' : ` data-sample="${escapeHtml(JSON.stringify(sample))}"`}${field['x-read-only'] === true ? ' data-read-only' : ''}><th>${pieceHtml(field.name)}<td${format}>${field.type ? typeHtml(field.type, names) : ''}<td>${field.required ? 'required' : ''}`
  const about = deprecatedHtml(field) + (field.description ? markdownHtml(field.description) : '') + argumentsHtml(field['x-args'], names) + mapHtml(field['x-map-values'], names) + constraintsHtml(field.enum, field.default)
  return about ? `${head}<tr class="about"><td colspan="3">${about}` : head
}

/** The line of a GraphQL field that takes arguments (`x-args`): each with its type, `!` when it must be given. */
function argumentsHtml(args: unknown, names: ReadonlySet<string>): string {
  if (!Array.isArray(args) || args.length === 0) return ''
  const items = (args as Param[]).map((arg) => `<code>${escapeHtml(arg.name)}</code> ${typeHtml(arg.type ?? 'String', names)}${arg.required ? '!' : ''}${arg.default === undefined ? '' : ` = <code>${escapeHtml(valueText(arg.default))}</code>`}`)
  return `<p class="args">Arguments: ${items.join(', ')}</p>`
}

/** The line of a deprecated field (`x-deprecated`), with its reason. */
function deprecatedHtml(field: Field): string {
  if (field['x-deprecated'] !== true) return ''
  const reason = typeof field['x-deprecation-reason'] === 'string' ? field['x-deprecation-reason'] : ''
  return `<p class="deprecation">Deprecated${reason ? `: ${inlineMarkdown(reason)}` : ''}</p>`
}

/** The line of a type with a discriminator (`x-discriminator`): which value of which field means which subtype. */
function subtypesHtml(discriminator: unknown, names: ReadonlySet<string>): string {
  const {property, mapping} = (discriminator ?? {}) as {property?: unknown; mapping?: Record<string, string>}
  if (typeof property !== 'string') return ''
  const cases = Object.entries(mapping ?? {}).map(([value, type]) => `<code>${escapeHtml(value)}</code> ${typeHtml(type, names)}`)
  return `<p class="subtypes">Told apart by <code>${escapeHtml(property)}</code>${cases.length > 0 ? `: ${cases.join(', ')}` : ''}</p>`
}

/** The line of a GraphQL object type that implements interfaces (`x-implements`). */
function implementsHtml(interfaces: unknown, names: ReadonlySet<string>): string {
  if (!Array.isArray(interfaces) || interfaces.length === 0) return ''
  return `<p class="subtypes">Implements ${interfaces.map((name) => typeHtml(String(name), names)).join(', ')}</p>`
}

/** The line under a map (a field or type with `x-map-values`): the type of the value under each key. */
function mapHtml(values: unknown, names: ReadonlySet<string>): string {
  return typeof values === 'string' && values ? `<p class="map">Values by key: ${typeHtml(values, names)}</p>` : ''
}

/** How many endpoints name each type (request, response, responses, params), by type name. */
function usage(endpoints: Endpoint[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const endpoint of endpoints) {
    const named = new Set<string>()
    for (const expression of [endpoint.request, endpoint.response, ...(endpoint.responses ?? []).map((response) => response.type), ...(endpoint.params ?? []).map((param) => param.type)]) {
      if (expression) named.add(baseTypeName(expression))
    }
    for (const name of named) counts.set(name, (counts.get(name) ?? 0) + 1)
  }
  return counts
}

/** The type cards of a catalogue. */
export function typeViews(spec: Catalogue): TypeView[] {
  const types = spec.types ?? []
  const names = new Set(types.map((type) => type.name))
  const counts = usage(spec.endpoints)
  return types.map((type: TypeDefinition) => ({
    name: type.name,
    kind: type.kind ?? 'object',
    descriptionHtml: type.description ? inlineMarkdown(type.description) : '',
    rowsHtml: (type.fields ?? []).map((field) => fieldRows(field, names)).join(''),
    values: type.values ?? [],
    members: (type.members ?? []).map((member) => ({name: member, linked: names.has(member)})),
    notesHtml: mapHtml(type['x-map-values'], names) + subtypesHtml(type['x-discriminator'], names) + implementsHtml(type['x-implements'], names),
    usedBy: counts.get(type.name) ?? 0,
    deprecated: type['x-deprecated'] === true
  }))
}

/** The markup of one type card. */
function typeCardHtml(type: TypeView): string {
  const name = escapeHtml(type.name)
  const parts = [`<article class="type" id="type-${name}"><h3><span class="type-name">${typeNameHtml(type.name)}</span> <span class="chip kind">${escapeHtml(type.kind)}</span>${type.deprecated ? ' <span class="chip deprecated-chip">deprecated</span>' : ''}</h3>`]
  if (type.descriptionHtml) parts.push(`<p>${type.descriptionHtml}</p>`)
  if (type.rowsHtml) parts.push(`<table class="fields">${type.rowsHtml}</table>`)
  if (type.notesHtml) parts.push(type.notesHtml)
  if (type.values.length) parts.push(`<p class="values">${type.values.map((value) => `<code>${escapeHtml(value)}</code>`).join(' ')}</p>`)
  if (type.members.length) {
    parts.push(`<p class="members">${type.members.map((member) => (member.linked ? `<a class="chip type-chip" href="#type-${escapeHtml(member.name)}">${typeNameHtml(member.name)}</a>` : `<code>${escapeHtml(member.name)}</code>`)).join(' ')}</p>`)
  }
  if (type.usedBy) parts.push(`<details class="used-by" data-type="${name}"><summary>Used by ${type.usedBy} endpoint${type.usedBy === 1 ? '' : 's'}</summary></details>`)
  parts.push('</article>')
  return parts.join('')
}

/**
 * The type cards, deflated (raw DEFLATE) and base64-encoded for the page, which inflates them with the browser's
 * DecompressionStream once its first screen is up. Field descriptions repeat across the types of big APIs
 * (Kubernetes: `metadata`, `apiVersion` and `kind` on hundreds of types), which compression stores once: this is
 * what keeps the 1,123-endpoint Kubernetes page, every field described, under 1.5 MB. zlib's level 5: the default 6
 * takes ~30 % longer (Stripe's 2.7 MB of cards: ~20 against ~14 ms) for 4 % less; level 4 would put Kubernetes'
 * page past 1.5 MB.
 *
 * The deflate runs on libuv's thread pool, on another core, while the page's other parts are built (GitHub's 9 MB of
 * cards: ~26 ms). Its output buffer holds the whole result (never more than the cards, plus zlib's bound), so that
 * zlib finishes in one pass of the pool: in smaller chunks, each next one would wait for the busy main thread.
 */
export function packedTypeCards(types: TypeView[]): Promise<string> {
  // Each card is encoded alone: joined first, Stripe's 2.7 MB of cards would be one string of 5.4 MB (two bytes per
  // character for one `’`) before its UTF-8 copy.
  const cards = Buffer.concat(types.map((type, index) => Buffer.from(index === 0 ? typeCardHtml(type) : `\n${typeCardHtml(type)}`)))
  return new Promise((resolve, reject) => {
    deflateRaw(cards, {level: 5, chunkSize: Math.max(constants.Z_MIN_CHUNK, cards.length + (cards.length >> 10) + 1024)}, (error, packed) => (error ? reject(error) : resolve(packed.toString('base64'))))
  })
}
