/**
 * Descriptions as the page shows them: CommonMark with the GFM tables, strikethrough, literal URLs and e-mail
 * addresses, and task lists, parsed by markdown-it (several times faster than remark on big APIs, where thousands of
 * descriptions are rendered), raw HTML in them allowed (OpenAPI allows it; Stripe writes `<p>` and `<code>`); such
 * HTML, unless it is only line breaks (`<br>`), is then read by htmlparser2 and written out again from the allow-list
 * (raw-html.ts, loaded only for catalogues with a `<` in them: call `prepareDescriptions` first). The allow-list
 * (allow-list.ts) is the one judge of what may stay: markdown-it's own link check is off, so a Markdown link and an
 * HTML one meet the same rules.
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

/** What the page passes markdown-it as `env`: `oneLine` for a summary's one line (see {@link inlineMarkdown}). */
type MarkdownEnv = {oneLine?: boolean}

/** The kinds of GitHub's alerts (`> [!NOTE]`), by the marker written in upper or lower case, and the title each gets. */
const alertTitles: ReadonlyMap<string, string> = new Map([['note', 'Note'], ['tip', 'Tip'], ['important', 'Important'], ['warning', 'Warning'], ['caution', 'Caution']])

/**
 * markdown-it core rule: a block quote whose first line is a GitHub alert's marker alone (`> [!NOTE]`, `> [!WARNING]`:
 * GitHub's REST description opens ~130 descriptions so) is that alert, as GitHub shows it: the quote gets
 * `data-alert="note"` (the page's style), and the marker becomes its title paragraph (`<p><strong>Note</strong></p>`)
 * instead of the text `[!NOTE]`.
 */
function gfmAlerts(state: StateCore) {
  // A summary's one line keeps the marker as text: a title alone (`Note`) would say nothing of the description.
  if ((state.env as MarkdownEnv).oneLine) return
  const tokens = state.tokens
  for (let index = 0; index + 3 < tokens.length; index++) {
    if (tokens[index].type !== 'blockquote_open' || tokens[index + 1].type !== 'paragraph_open') continue
    const inline = tokens[index + 2]
    const [marker, next] = inline.children ?? []
    const kind = marker?.type === 'text' ? /^\[!([A-Za-z]+)\]$/.exec(marker.content)?.[1].toLowerCase() : undefined
    const title = kind === undefined ? undefined : alertTitles.get(kind)
    if (title === undefined || (next !== undefined && next.type !== 'softbreak')) continue
    tokens[index].attrSet('data-alert', kind!)
    const rest = inline.children!.slice(2)
    inline.children = [new state.Token('strong_open', 'strong', 1), Object.assign(new state.Token('text', '', 0), {content: title}), new state.Token('strong_close', 'strong', -1)]
    inline.content = title
    if (rest.length === 0) continue
    // What follows the marker's line is the alert's first paragraph.
    const body = Object.assign(new state.Token('inline', '', 0), {children: rest, content: rest.map((child) => child.content).join(''), block: true})
    tokens.splice(index + 4, 0, Object.assign(new state.Token('paragraph_open', 'p', 1), {block: true}), body, Object.assign(new state.Token('paragraph_close', 'p', -1), {block: true}))
  }
}

const markdown = new MarkdownIt({html: true, linkify: true})
// The sanitizer judges links, not markdown-it; literal URLs need their scheme, as on GitHub (`example.com` stays text).
markdown.validateLink = () => true
/**
 * A link destination that markdown-it's `normalizeLink` returns as it is, known without parsing it: `http://` or
 * `https://` and a host of ASCII letters, digits and hyphens (at most four labels of 63, so at most 255 characters),
 * or a path (`/…`) or a fragment (`#…`); then only characters that its encoder keeps and that end no part of the URL
 * early (no `%`, `@` or `&`). A test holds it to `normalizeLink` on generated links.
 */
export const keptLink = /^(?:https?:\/\/[A-Za-z\d-]{1,63}(?:\.[A-Za-z\d-]{1,63}){0,3}(?![^/?#])|\/(?!\/)|#)[A-Za-z\d\-._~/?#=,;:+!*$']*$/
// markdown-it normalizes every link's destination, and the shortcut asks it whether a destination stays as written:
// its URL parser and punycode, run cold, took ~20 ms of GitHub REST's page and ~15 of Zoom's (~1,000 links each),
// for destinations that nearly all stay as they are.
const normalizeLink = markdown.normalizeLink.bind(markdown)
markdown.normalizeLink = (url: string) => (keptLink.test(url) ? url : normalizeLink(url))
markdown.linkify.set({fuzzyLink: false})
// markdown-it asks linkify-it whether each paragraph and text holds a link, which runs a regex with a large Unicode
// class at every character. Without fuzzy links, a link needs a `//` (`http:`, `https:`, `ftp:` and protocol-relative
// links are all validated as `//` and a host) or an e-mail address (`mailto:` ones too), whose name ends right before
// the `@` in one of linkify-it's name characters: text without either has none, and is not scanned (Lob's page: ~15
// ms; GitHub REST's ` @mention`s and `"@@"` compiled linkify-it's e-mail regexes for nothing, ~10 ms).
const linkify = markdown.linkify
const scan = linkify.test.bind(linkify)
const mailName = /[-!#$%&'*+/=?^_`{|}~\w]@/
/** Whether linkify-it may find a link in `text` (exported for its test: it must say yes wherever linkify-it would). */
export const mayHoldLink = (text: string) => text.includes('//') || (text.includes('@') && mailName.test(text))
linkify.test = (text: string) => mayHoldLink(text) && scan(text)
// And before it looks at a paragraph's texts, markdown-it asks about the paragraph's whole content, raw HTML included,
// though only a text can become a link: `<a href="https://…">` made linkify-it scan ~120 of Lob's paragraphs for
// nothing (~25 ms of its page). A paragraph none of whose texts may hold a link (the check above) is hidden from the
// linkify rule, which would change nothing in it, and shown again right after.
const hiddenFromLinkify = 'inline-without-link'
markdown.core.ruler.before('linkify', 'hide-from-linkify', (state) => {
  for (const token of state.tokens) {
    if (token.type === 'inline' && !token.children?.some((child) => child.type === 'text' && mayHoldLink(child.content))) token.type = hiddenFromLinkify
  }
})
markdown.core.ruler.after('linkify', 'show-after-linkify', (state) => {
  for (const token of state.tokens) if (token.type === hiddenFromLinkify) token.type = 'inline'
})
markdown.core.ruler.push('gfm-details', gfmDetails)
markdown.core.ruler.push('gfm-alerts', gfmAlerts)

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
    // An image is a network request the page never makes; its text stays, as a browser shows it without the image.
    if (token.type === 'image') {
      const alt = markdown.renderer.renderInlineAsText(token.children ?? [], markdown.options, {})
      if (alt) kept.push(Object.assign(token, {type: 'text', tag: '', content: alt, attrs: null, children: null}))
      continue
    }
    if (token.tag && !allowedTags.has(token.tag)) continue
    if (token.children) token.children = cleanTokens(token.children)
    if (token.type === 'fence') token.info = ''
    if (token.attrs) token.attrs = token.attrs.filter(([name, value]) => allowedAttribute(token.tag, name, String(value)))
    if (token.type === 'link_open' && token.attrGet('href') !== null) token.attrs = [...(token.attrs ?? []), ['target', '_blank'], ['rel', 'noopener noreferrer']]
    kept.push(token)
  }
  return kept
}

function cleanTokensOf(text: string, env: MarkdownEnv = {}): Token[] {
  return cleanTokens(markdown.parse(text, env))
}

/**
 * What needs the parser outside code spans: a character that can start a mark, a link, an entity, an autolink or raw
 * HTML, or a literal URL (`https://…`, `www.…`, a protocol-relative `//host`) or e-mail address (`_` is judged apart: see
 * {@link proseParagraphs}).
 */
const markOutsideCode = /[\\*[\]<>#|~!&=+\t\r\0]|www\.|\/\/|@/
/** A line that could open a block (list item, indented code) or end in a hard break. */
const blockLine = /^ | $|^\d+[.)]|^-/m
/** Letters and digits: an `_` between two of them is part of a word (`customer_id`), never emphasis. */
const wordCharacter = /[A-Za-z\d]/

/**
 * The inline HTML of each paragraph of `text`, when `text` is prose whose only Markdown is code spans (`` `id` ``):
 * nothing outside them can start a mark, a link, an entity, an autolink or raw HTML; an `_` stands inside a word;
 * no line could open a block; each code span is on one line, with no `|` in it (a table cell's border), and opened
 * by one or two backticks that close it. Most descriptions of big APIs are such prose (Stripe: 2,093 of its 2,842
 * distinct descriptions and summaries, Box: 2,875 of 3,125); for them the page build skips the parser, and writes what
 * markdown-it would (a test checks both ways on the corpus). Undefined when the text needs the parser.
 */
export function proseParagraphs(text: string): string[] | undefined {
  const body = proseBody(text)
  if (body === undefined || blockLine.test(body)) return undefined
  const paragraphs: string[] = []
  for (const paragraph of body.split(/\n{2,}/)) {
    const html = proseInline(paragraph)
    if (html === undefined) return undefined
    paragraphs.push(html)
  }
  return paragraphs
}

/** A bullet list item's marker and the spaces after it (up to four: five would open indented code in the item). */
const bulletMarker = /^[*+-] {1,4}/
/** A line that opens a bullet list item (`- a`, `*   a`, `+ a`: one to four spaces, then its text). */
const bulletLine = /^[*+-] {1,4}\S/
/** A line that opens a bullet list item or a block quote (`> a`). */
const blockOpening = /^(?:[*+-] {1,4}\S|> )/m

/**
 * The HTML of `text`, when it is prose (see {@link proseParagraphs}) in paragraphs, tight bullet lists of one line per
 * item, and GitHub alerts of one paragraph (`> [!NOTE]` and `> ` lines): GitHub's REST description writes ~450 such
 * lists and ~320 such quotes, Zoom's ~600 list items; for them, too, the page build skips the parser and writes what
 * markdown-it would (a test checks both ways, on the corpus and on generated texts). What markdown-it could read
 * otherwise is left to it: a list item that goes on over the next line (indented, or lazily, unindented), a list
 * whose items a blank line separates (a loose list: each item a paragraph) or whose marker changes (a new list), a
 * quote that is not an alert or holds more than one paragraph. Undefined when the text needs the parser.
 */
export function proseBlocks(text: string): string | undefined {
  const body = proseBody(text)
  if (body === undefined || !blockOpening.test(body)) return undefined
  const lines = body.split('\n')
  const blocks: string[] = []
  for (let start = 0; start < lines.length; ) {
    if (lines[start] === '') {
      start++
      continue
    }
    const line = lines[start]
    let end = start + 1
    let html: string | undefined
    if (bulletLine.test(line)) {
      while (end < lines.length && lines[end][0] === line[0] && bulletLine.test(lines[end])) end++
      html = bulletList(lines.slice(start, end))
      // The list ends at the text's end or a blank line, after which no list item follows: one with the same marker
      // would make the list loose, one with another would start a list that the parser is left to write.
      const next = lines.slice(end).find((following) => following !== '')
      if (end < lines.length && (lines[end] !== '' || (next !== undefined && /^[*+-] /.test(next)))) return undefined
    } else if (line.startsWith('> ')) {
      while (end < lines.length && lines[end].startsWith('> ')) end++
      html = alertQuote(lines.slice(start, end))
      // A line right after the quote would go on with its paragraph (a lazy continuation line).
      if (end < lines.length && lines[end] !== '') return undefined
    } else {
      // A list item or a quote may interrupt a paragraph.
      while (end < lines.length && lines[end] !== '' && !blockOpening.test(lines[end])) end++
      html = proseParagraph(lines.slice(start, end).join('\n'))
    }
    if (html === undefined) return undefined
    blocks.push(html)
    start = end
  }
  return blocks.join('\n')
}

/** `<p>` and the inline HTML of `paragraph`, when it is prose on lines that open no block; else undefined. */
function proseParagraph(paragraph: string): string | undefined {
  if (blockLine.test(paragraph)) return undefined
  const html = proseInline(paragraph)
  return html === undefined ? undefined : `<p>${html}</p>`
}

/** A tight bullet list of `items` (each a marker and one line of prose), or undefined. */
function bulletList(items: string[]): string | undefined {
  let html = '<ul>\n'
  for (const item of items) {
    const content = item.replace(bulletMarker, '')
    const inline = blockLine.test(content) ? undefined : proseInline(content)
    if (inline === undefined) return undefined
    html += `<li>${inline}</li>\n`
  }
  return `${html}</ul>`
}

/**
 * A GitHub alert (see `gfmAlerts`) from the lines of a block quote: its marker alone on the first line, then lines of
 * one paragraph of prose; or undefined.
 */
function alertQuote(lines: string[]): string | undefined {
  const kind = /^> \[!([A-Za-z]+)\]$/.exec(lines[0])?.[1].toLowerCase()
  const title = kind === undefined ? undefined : alertTitles.get(kind)
  if (title === undefined) return undefined
  let html = `<blockquote data-alert="${kind}">\n<p><strong>${title}</strong></p>\n`
  if (lines.length > 1) {
    const content = lines.slice(1).map((line) => line.slice(2))
    // A line of the quote that opens a block or is blank: the parser's.
    const paragraph = content.some((line) => line === '' || blockOpening.test(line)) ? undefined : proseParagraph(content.join('\n'))
    if (paragraph === undefined) return undefined
    html += `${paragraph}\n`
  }
  return `${html}</blockquote>`
}

/** The inline HTML of one paragraph of prose with code spans (see {@link proseParagraphs}), or undefined. */
function proseInline(paragraph: string): string | undefined {
  let html = ''
  let textStart = 0
  for (let open = paragraph.indexOf('`'); open !== -1; open = paragraph.indexOf('`', textStart)) {
    const openEnd = runEnd(paragraph, open)
    // Three backticks may open a fenced code block; one or two with no partner are text, which the parser handles.
    if (openEnd - open > 2) return undefined
    let close = paragraph.indexOf('`', openEnd)
    let closeEnd = close === -1 ? -1 : runEnd(paragraph, close)
    while (close !== -1 && closeEnd - close !== openEnd - open) {
      if (closeEnd - close > 2) return undefined
      close = paragraph.indexOf('`', closeEnd)
      closeEnd = close === -1 ? -1 : runEnd(paragraph, close)
    }
    if (close === -1) return undefined
    let code = paragraph.slice(openEnd, close)
    const strong = strongAround(paragraph, open - 2, closeEnd, textStart)
    const text = proseText(paragraph.slice(textStart, strong ? open - 2 : open), textStart === 0, false)
    if (text === undefined || code.includes('\n') || code.includes('|')) return undefined
    // CommonMark strips one space on each side of a code span that has both and is not all spaces.
    if (code.startsWith(' ') && code.endsWith(' ') && /[^ ]/.test(code)) code = code.slice(1, -1)
    html += strong ? `${text}<strong><code>${escapeHtml(code)}</code></strong>` : `${text}<code>${escapeHtml(code)}</code>`
    textStart = strong ? closeEnd + 2 : closeEnd
  }
  const rest = proseText(paragraph.slice(textStart), textStart === 0, true)
  return rest === undefined ? undefined : html + rest
}

/**
 * Whether a code span that ends at `end` has strong emphasis of its own around it (`**\`application/json\`**: …`, as
 * GitHub lists its media types), CommonMark's reading without doubt: `**` at `start`, after the text before the span
 * begins (`textStart`), at the paragraph's start or after a space or line end, and `**` right after the span, before
 * white space, a phrase's punctuation or the paragraph's end.
 */
function strongAround(paragraph: string, start: number, end: number, textStart: number): boolean {
  if (start < textStart || !paragraph.startsWith('**', start) || !paragraph.startsWith('**', end)) return false
  const before = start === 0 ? ' ' : paragraph[start - 1]
  const after = end + 2 === paragraph.length ? ' ' : paragraph[end + 2]
  return (before === ' ' || before === '\n') && afterStrong.test(after)
}

/**
 * `text` without the spaces, tabs and line ends at its end (other white space, such as U+3000, is text to
 * markdown-it's lines). A loop, not a regular expression: `/[ \n]+$/` backtracks over every run of spaces.
 */
function withoutTrailingSpace(text: string): string {
  let end = text.length
  for (let code = text.charCodeAt(end - 1); code === 32 || code === 9 || code === 10 || code === 13; code = text.charCodeAt(end - 1)) end--
  return end === text.length ? text : text.slice(0, end)
}

/**
 * The text the prose shortcuts read of `text`, or undefined when it is empty or starts with white space. Blank space
 * at the end is no part of the last paragraph (markdown-it trims a paragraph's content: descriptions written as YAML
 * block scalars end in a line break, loket.nl 1,095 of its 3,104, Zoom's 605), nor one space before a line end.
 */
function proseBody(text: string): string | undefined {
  const body = withoutLineEndSpaces(withoutTrailingSpace(text))
  return body === '' || body !== body.trimStart() ? undefined : body
}

/**
 * `text` with one space before a line end taken away: markdown-it drops it (a soft break; two spaces would be a hard
 * break, and are left for `blockLine` to refuse, one of them still there). Zoom writes ~60 descriptions so.
 */
function withoutLineEndSpaces(text: string): string {
  return text.includes(' \n') ? text.replaceAll(' \n', '\n') : text
}

/** Where the run of backticks that starts at `start` ends. */
function runEnd(text: string, start: number): number {
  let end = start
  while (text.charCodeAt(end) === 96) end++
  return end
}

/**
 * An inline link whose text is plain and whose destination markdown-it writes as it is: ASCII letters, digits and
 * the URL characters it leaves unencoded but `&`, a `%` only as an escape, no title. `[ISO code](https://www.iso.org/…)` and
 * `[fields](#parameter-fields)` are such links; Stripe and GitHub write hundreds.
 */
const plainLink = /\[([^[\]]+)\]\(((?:[A-Za-z\d\-._~:/?#@!$'*+,;=]|%[\dA-Fa-f]{2})+)\)/g

/**
 * Strong emphasis around plain text (`**Note:**`, `__Activity name :__`, as Zoom and loket.nl write their labels):
 * two `*` or two `_`, the text inside on one line, without `*` or `_`.
 */
const strongSpan = /(\*\*|__)([^*_\n]+?)\1/g
/** What may follow strong emphasis that the shortcut writes: white space, or punctuation that ends a phrase. */
const afterStrong = /[\s.,:;!?)]/

/**
 * A line break written as HTML (`<br>`, `<br/>`, `<br />`, or in upper case) on one line: of the tags
 * {@link lineBreakTag} takes among markdown-it's tokens, those the shortcut takes in the text itself (a tag across two
 * lines can leave a `>` at a line's start, where it opens a block quote). Written `<br>`, as the sanitizer writes it.
 */
const lineBreak = /<(?:br|BR) ?\/?>/g

/**
 * Text outside code spans, escaped, or undefined when something in it is Markdown but line breaks written as HTML
 * (see {@link lineBreak}), strong emphasis that CommonMark reads without doubt (see {@link strongProse}) and plain
 * links (see {@link linkedProse}); `first` when it starts the paragraph, `last` when nothing of the paragraph follows
 * it. A line break is taken where it does not start a line (a tag there may open an HTML block): markdown-it passes it
 * on as written, and the sanitizer writes it `<br>`.
 */
function proseText(text: string, first: boolean, last: boolean): string | undefined {
  if (!text.includes('<')) return strongProse(text, first, last, last)
  let html = ''
  let pieceStart = 0
  for (const match of text.matchAll(lineBreak)) {
    const start = match.index
    if (start === 0 ? first : text[start - 1] === '\n') return undefined
    const piece = strongProse(text.slice(pieceStart, start), pieceStart === 0 ? first : true, true, false)
    if (piece === undefined) return undefined
    html += `${piece}<br>`
    pieceStart = start + match[0].length
  }
  const rest = strongProse(text.slice(pieceStart), pieceStart === 0 ? first : true, last, last)
  return rest === undefined ? undefined : html + rest
}

/**
 * Text between line breaks, escaped, or undefined when something in it is Markdown but strong emphasis that
 * CommonMark reads without doubt (see {@link strongSpan}) and plain links (see {@link linkedProse}), inside strong
 * emphasis or not. Strong emphasis
 * is taken where it opens after a space, or at the start when `opens` (the paragraph's start or a line break before
 * it), and closes before white space, a phrase's punctuation, or the end when `closes` (the paragraph's end or a line
 * break after it), its text neither starting nor ending with white space: each delimiter run is then two characters,
 * the first can only open and the second only close, for `*` as for `_`. `last` when nothing of the paragraph follows.
 */
function strongProse(text: string, opens: boolean, closes: boolean, last: boolean): string | undefined {
  if (!text.includes('**') && !text.includes('__')) return linkedProse(text, last)
  let html = ''
  let textStart = 0
  for (const match of text.matchAll(strongSpan)) {
    const [whole, , inner] = match
    const start = match.index
    const end = start + whole.length
    const opensAfterSpace = start === 0 ? opens : text[start - 1] === ' ' || text[start - 1] === '\n'
    const closesBeforeEnd = end === text.length ? closes : afterStrong.test(text[end])
    if (!opensAfterSpace || !closesBeforeEnd || /^\s|\s$/.test(inner)) return undefined
    const before = linkedProse(text.slice(textStart, start), false)
    // Its text may be a plain link, or hold one (`**[Rate Limit Label](https://…):**`, as Zoom ends ~350 of its
    // descriptions); a literal URL only where a space ends it inside.
    const strong = linkedProse(inner, false)
    if (before === undefined || strong === undefined) return undefined
    html += `${before}<strong>${strong}</strong>`
    textStart = end
  }
  const rest = linkedProse(text.slice(textStart), last)
  return rest === undefined ? undefined : html + rest
}

/**
 * Text outside code spans and strong emphasis, escaped, or undefined when something in it is Markdown (see
 * {@link plainLink} and {@link linkedText}); `last` when nothing of the paragraph follows it.
 */
function linkedProse(text: string, last: boolean): string | undefined {
  if (!text.includes('](')) return linkedText(text, last)
  let html = ''
  let textStart = 0
  for (const link of text.matchAll(plainLink)) {
    const [whole, label, destination] = link
    // A `javascript:` link is the allow-list's to refuse (an `&`, which could start an entity, is not taken at all);
    // a destination markdown-it would rewrite (`https://x.y::` loses a colon) is left to markdown-it.
    if (!allowedAttribute('a', 'href', destination) || markdown.normalizeLink(destination) !== destination) return undefined
    const before = linkedText(text.slice(textStart, link.index), false)
    const inside = plainText(label)
    if (before === undefined || inside === undefined) return undefined
    html += `${before}<a href="${escapeHtml(destination)}" target="_blank" rel="noopener noreferrer">${inside}</a>`
    textStart = link.index + whole.length
  }
  const rest = linkedText(text.slice(textStart), last)
  return rest === undefined ? undefined : html + rest
}

/** What may stand in a literal URL that the shortcut writes; anything else leaves the text to the parser. */
const literalUrl = /^https?:\/\/[\w\-.~:/?#=+,;$!'&%@]+$/

/**
 * Text with literal `http://` and `https://` URLs, which markdown-it's linkify makes links (`More info:
 * https://git.k8s.io/…` ends most of Kubernetes' field descriptions that are not prose), escaped, or undefined when
 * something in it is Markdown. A URL is taken where it stands after a space or at the start of `text`, ends
 * where linkify-it ends it for markdown-it (a space follows it in `text`, or nothing of the paragraph follows `text`),
 * and is written unchanged by markdown-it as the link and as its text (no `%` escape or punycode it would rewrite)
 * and kept by the allow-list.
 */
function linkedText(text: string, last: boolean): string | undefined {
  if (!text.includes('://')) return plainText(text)
  let html = ''
  let textStart = 0
  for (let colon = text.indexOf('://'); colon !== -1; colon = text.indexOf('://', textStart)) {
    const start = text.startsWith('https', colon - 5) ? colon - 5 : text.startsWith('http', colon - 4) ? colon - 4 : -1
    if (start < textStart || (start > 0 && !/\s/.test(text[start - 1]))) return undefined
    // A URL ends before the first space after it; without one, what follows `text` in the paragraph could lengthen it.
    const space = text.slice(start).search(/\s/)
    if (space === -1 && !last) return undefined
    const url = literalLink(space === -1 ? text.slice(start) : text.slice(start, start + space + 1))
    if (url === undefined) return undefined
    const before = plainText(text.slice(textStart, start))
    if (before === undefined) return undefined
    html += `${before}<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(url)}</a>`
    textStart = start + url.length
  }
  const rest = plainText(text.slice(textStart))
  return rest === undefined ? undefined : html + rest
}

/** The verdicts of {@link literalLink}, by what it was given: descriptions of big APIs repeat a few URLs. */
const literalLinks = new Map<string, string | undefined>()

/**
 * The URL that linkify-it finds at the start of `candidate` (a URL and the space after it, or the end of the
 * paragraph), when markdown-it writes it unchanged as the link and as its text and the allow-list keeps it; else
 * undefined.
 */
function literalLink(candidate: string): string | undefined {
  if (literalLinks.has(candidate)) return literalLinks.get(candidate)
  let url = linkify.matchAtStart(candidate)?.url
  if (url && (!literalUrl.test(url) || markdown.normalizeLink(url) !== url || markdown.normalizeLinkText(url) !== url || !allowedAttribute('a', 'href', url))) url = undefined
  literalLinks.set(candidate, url)
  return url
}

/** Text without code spans or links, escaped, or undefined when something in it is Markdown. */
function plainText(text: string): string | undefined {
  if (markOutsideCode.test(text)) return undefined
  for (let start = text.indexOf('_'); start !== -1; start = text.indexOf('_', start)) {
    let end = start
    while (text[end] === '_') end++
    if (!wordCharacter.test(text[start - 1] ?? '') || !wordCharacter.test(text[end] ?? '')) return undefined
    start = end
  }
  return escapeHtml(text)
}

const blockCache = new Map<string, string>()
const inlineCache = new Map<string, string>()

/** A description as safe HTML blocks (paragraphs, lists, tables, code, headings). */
export function markdownHtml(text: string): string {
  let html = blockCache.get(text)
  if (html !== undefined) return html
  if (text.length > markdownLimit) html = `<p class="text">${escapeHtml(text)}</p>`
  else html = proseParagraphs(text)?.map((paragraph) => `<p>${paragraph}</p>`).join('\n') ?? proseBlocks(text) ?? simpleHtml(text)?.map(({before, html}) => `${before}<p>${html}</p>`).join('').trim() ?? renderedHtml(text)
  blockCache.set(text, html)
  return html
}

/** Paragraphs of simple HTML (see raw-html.ts's `simpleParagraphs`), or undefined: Stripe writes hundreds. */
function simpleHtml(text: string): Array<{before: string; html: string}> | undefined {
  return text.startsWith('<p>') ? sanitizer().simpleParagraphs(text) : undefined
}

/** A description through markdown-it and the sanitizer, without the shortcuts for prose and simple HTML. */
export function parsedHtml(text: string): string {
  if (text.includes('<')) return sanitizer().sanitizedBlocks(markdown.render(text))
  return markdown.renderer.render(cleanTokensOf(text), markdown.options, {}).trim()
}

/**
 * `parsedHtml`, but a text whose only raw HTML is line breaks inside paragraphs (`Payee:<br>\`master\` pays.`, as
 * Zoom writes 1,354 of its descriptions) has its tokens cleaned and rendered as a text without HTML has: a break can
 * only be `<br>`, which is what the sanitizer would write, and the HTML parser's pass is saved.
 */
function renderedHtml(text: string): string {
  if (!text.includes('<')) return parsedHtml(text)
  const tokens = markdown.parse(text, {})
  if (!onlyLineBreaks(tokens)) return sanitizer().sanitizedBlocks(markdown.renderer.render(tokens, markdown.options, {}))
  for (const token of tokens) for (const child of token.children ?? []) if (child.type === 'html_inline') child.content = '<br>'
  return markdown.renderer.render(cleanTokens(tokens), markdown.options, {}).trim()
}

/**
 * A line break written as HTML, as the sanitizer reads it: `<br>`, `<br/>` or `<br />`, in lower or upper case (a tag
 * written in mixed case, `<Br>`, may be a placeholder, shown as text: see raw-html.ts).
 */
const lineBreakTag = /^<(?:br|BR)\s*\/?>$/

/**
 * Whether the only raw HTML among markdown-it's `tokens` is line breaks inside paragraphs: no HTML block (a line that
 * starts with a tag, which markdown-it passes on with the lines after it as they are), and no other tag.
 */
function onlyLineBreaks(tokens: Token[]): boolean {
  for (const token of tokens) {
    if (token.type === 'html_block') return false
    for (const child of token.children ?? []) if (child.type === 'html_inline' && !lineBreakTag.test(child.content)) return false
  }
  return true
}

/**
 * A summary as one line of safe inline HTML: the inline content of its first block (emphasis, code, links), each line
 * break a space and further blocks dropped, so that a row stays one line however the summary was written.
 */
export function inlineMarkdown(text: string): string {
  let html = inlineCache.get(text)
  if (html !== undefined) return html
  if (text.length > markdownLimit) html = escapeHtml(text.replace(/\s+/g, ' ').trim())
  else {
    const prose = proseParagraphs(text)?.[0] ?? simpleHtml(text)?.[0].html
    html = prose === undefined ? parsedInline(firstChunk(text)) : oneLine(prose)
  }
  inlineCache.set(text, html)
  return html
}

/**
 * Inline HTML as one line: each line break (`<br>`, as the allow-list writes it; text is escaped, so no other `<br>`
 * is in it) a space, and white space collapsed.
 */
function oneLine(html: string): string {
  return html.replace(/<br>/g, ' ').replace(/\s+/g, ' ').trim()
}

/** A line end, then a line of spaces and tabs at most, then a line end. */
const blankLine = /\n[ \t]*\n/g

/**
 * The text up to its first blank line, which holds the first block, when nothing after it can change that block
 * (no raw HTML, fenced code or link reference in it); else the whole text. Type descriptions of big APIs run to many
 * paragraphs of which a card shows the first.
 */
function firstChunk(text: string): string {
  // The blank line after the first line with content: blank lines before it (`\n\nFirst paragraph.`) end nothing.
  const content = text.search(/[^ \t\n]/)
  blankLine.lastIndex = Math.max(content, 0)
  const end = content === -1 ? -1 : (blankLine.exec(text)?.index ?? -1)
  if (end === -1) return text
  const chunk = text.slice(0, end)
  return /[<[\]]|```|~~~/.test(chunk) ? text : chunk
}

/** The inline content of the first block of `text`, through markdown-it and the sanitizer, as one line. */
export function parsedInline(text: string): string {
  const env: MarkdownEnv = {oneLine: true}
  return oneLine(text.includes('<') ? sanitizer().sanitizedInline(markdown.render(text, env)) : tokensInline(cleanTokensOf(text, env)))
}

/** The inline content of the first block among markdown-it's tokens (a rule gives none). */
function tokensInline(tokens: Token[]): string {
  for (const token of tokens) {
    if (token.type === 'inline') return markdown.renderer.renderInline(token.children!, markdown.options, {})
    if (token.type === 'fence' || token.type === 'code_block') return escapeHtml(token.content)
    if (token.type === 'hr') return ''
  }
  return ''
}
