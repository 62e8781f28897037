/**
 * Descriptions as the page shows them: CommonMark with the GFM tables, strikethrough, literal URLs and e-mail
 * addresses, and task lists, parsed by markdown-it (several times faster than remark on big APIs, where thousands of
 * descriptions are rendered), raw HTML in them allowed (OpenAPI allows it; Stripe writes `<p>` and `<code>`); such
 * HTML is then read by htmlparser2 and written out again from the allow-list (raw-html.ts, loaded only for
 * catalogues with a `<` in them: call `prepareDescriptions` first). The allow-list (allow-list.ts) is the one judge
 * of what may stay: markdown-it's own link check is off, so a Markdown link and an HTML one meet the same rules.
 * Links open in a new tab without an opener. All of it runs when the page is built, so the page script only places HTML that is already
 * safe.
 */
import MarkdownIt from 'markdown-it'
import type {StateCore, Token} from 'markdown-it'
import {escapeHtml} from '../shared/escape-html.js'
import {allowedAttribute, allowedTags} from './allow-list.js'

/** Past this length a description is not read as Markdown: it is shown as the text it is (default: 20,000). */
export const markdownLimit = 20_000

/**
 * markdown-it core rule: GFM task list items (`- [ ] a`, `- [x] b`) start with a disabled checkbox, and table cells
 * say their alignment with `align` (markdown-it writes a `style`, which the allow-list drops).
 */
function gfmDetails(state: StateCore) {
  const tokens = state.tokens
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]
    if (token.type === 'th_open' || token.type === 'td_open') {
      const align = String(token.attrGet('style') ?? '').match(/text-align:(\w+)/)?.[1]
      if (align) token.attrs = [['align', align]]
    } else if (token.type === 'inline' && tokens[index - 2]?.type === 'list_item_open') {
      const first = token.children?.[0]
      const box = first?.type === 'text' ? /^\[([ xX])\][ \t]/.exec(first.content) : null
      if (!first || !box) continue
      first.content = first.content.slice(box[0].length)
      const input: Token = new state.Token('html_inline', '', 0)
      input.content = `<input type="checkbox" disabled${box[1] === ' ' ? '' : ' checked'}> `
      token.children!.unshift(input)
    }
  }
}

const markdown = new MarkdownIt({html: true, linkify: true})
// The sanitizer judges links, not markdown-it; literal URLs need their scheme, as on GitHub (`example.com` stays text).
markdown.validateLink = () => true
markdown.linkify.set({fuzzyLink: false})
markdown.core.ruler.push('gfm-details', gfmDetails)

/** The HTML sanitizer, once a catalogue with a `<` in it asked for it. */
let rawHtml: typeof import('./raw-html.js') | undefined

/**
 * Load what the descriptions of `value` need before they are rendered: the HTML sanitizer when any string in it has a
 * `<` (htmlparser2 and the list of HTML's element names, which catalogues without HTML, most of them, do not load).
 */
export async function prepareDescriptions(value: unknown): Promise<void> {
  if (!rawHtml && hasAngleBracket(value)) rawHtml = await import('./raw-html.js')
}

function hasAngleBracket(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('<')
  if (!value || typeof value !== 'object') return false
  if (Array.isArray(value)) return value.some(hasAngleBracket)
  for (const key in value) if (hasAngleBracket((value as Record<string, unknown>)[key])) return true
  return false
}

/** The sanitizer of descriptions with raw HTML, which `prepareDescriptions` loaded. */
function sanitizer(): typeof import('./raw-html.js') {
  if (!rawHtml) throw new Error('Descriptions with HTML need `prepareDescriptions` first')
  return rawHtml
}

/**
 * markdown-it's tokens of a text without raw HTML, cleaned by the same allow-list as HTML is: such a text can only
 * hold the elements Markdown makes, so its tokens are rendered directly, without serializing them and parsing the
 * HTML again (half the time on big APIs). Images and a fence's language class are dropped, links checked and opened
 * in a new tab.
 */
function cleanTokens(tokens: Token[]): Token[] {
  const kept: Token[] = []
  for (const token of tokens) {
    if (token.tag && !allowedTags.has(token.tag)) continue
    if (token.children) token.children = cleanTokens(token.children)
    if (token.type === 'fence') token.info = ''
    if (token.attrs) token.attrs = token.attrs.filter(([name, value]) => allowedAttribute(token.tag, name, String(value)))
    if (token.type === 'link_open' && token.attrGet('href') !== null) token.attrs = [...(token.attrs ?? []), ['target', '_blank'], ['rel', 'noopener noreferrer']]
    kept.push(token)
  }
  return kept
}

function cleanTokensOf(text: string): Token[] {
  return cleanTokens(markdown.parse(text, {}))
}

/**
 * Whether `text` is prose with no Markdown or HTML in it at all: no character that can start a mark, a link, an
 * entity, an autolink or raw HTML, and no line that could open a block (list item, heading, code, quote, rule).
 * Most descriptions of big APIs are (Kubernetes: three in four); for them the paragraphs are the whole result, and
 * the page build skips the parser (a test checks that both ways give the same HTML on the corpus).
 */
export function isPlainProse(text: string): boolean {
  return text !== '' && text === text.trim() && !/[\\`*_[\]<>#|~!&=+\t]|www\.|:\/\/|@|^ | $|^\d+[.)]|^-/m.test(text)
}

/** Plain prose as CommonMark renders it: a paragraph for each run of lines between blank lines. */
function proseHtml(text: string): string {
  return text.split(/\n{2,}/).map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n')
}

const blockCache = new Map<string, string>()
const inlineCache = new Map<string, string>()

/** A description as safe HTML blocks (paragraphs, lists, tables, code, headings). */
export function markdownHtml(text: string): string {
  let html = blockCache.get(text)
  if (html !== undefined) return html
  html = text.length > markdownLimit ? `<p class="text">${escapeHtml(text)}</p>` : isPlainProse(text) ? proseHtml(text) : parsedHtml(text)
  blockCache.set(text, html)
  return html
}

/** A description through markdown-it and the sanitizer, without the shortcut for plain prose. */
export function parsedHtml(text: string): string {
  if (text.includes('<')) return sanitizer().sanitizedBlocks(markdown.render(text))
  return markdown.renderer.render(cleanTokensOf(text), markdown.options, {}).trim()
}

/**
 * A summary as one line of safe inline HTML: the inline content of its first block (emphasis, code, links), line
 * breaks and further blocks dropped, so that a row stays one line however the summary was written.
 */
export function inlineMarkdown(text: string): string {
  let html = inlineCache.get(text)
  if (html !== undefined) return html
  if (text.length > markdownLimit) html = escapeHtml(text.replace(/\s+/g, ' ').trim())
  else if (isPlainProse(text)) html = escapeHtml(text.split(/\n{2,}/)[0].replace(/\s+/g, ' '))
  else html = parsedInline(firstChunk(text))
  inlineCache.set(text, html)
  return html
}

/**
 * The text up to its first blank line, which holds the first block, when nothing after it can change that block
 * (no raw HTML, fenced code or link reference in it); else the whole text. Type descriptions of big APIs run to many
 * paragraphs of which a card shows the first.
 */
function firstChunk(text: string): string {
  const end = text.search(/\n[ \t]*\n/)
  if (end === -1) return text
  const chunk = text.slice(0, end)
  return /[<[\]]|```|~~~/.test(chunk) ? text : chunk
}

/** The inline content of the first block of `text`, through markdown-it and the sanitizer, as one line. */
export function parsedInline(text: string): string {
  if (text.includes('<')) return sanitizer().sanitizedInline(markdown.render(text))
  return tokensInline(cleanTokensOf(text)).replace(/\s+/g, ' ').trim()
}

/** The inline content of the first block among markdown-it's tokens, without line breaks (a rule gives none). */
function tokensInline(tokens: Token[]): string {
  for (const token of tokens) {
    if (token.type === 'inline') return markdown.renderer.renderInline(token.children!.filter((child) => child.type !== 'hardbreak'), markdown.options, {})
    if (token.type === 'fence' || token.type === 'code_block') return escapeHtml(token.content)
    if (token.type === 'hr') return ''
  }
  return ''
}
