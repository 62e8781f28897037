/**
 * Descriptions as the page shows them: CommonMark with the GFM extensions (tables, strikethrough, autolinks, task
 * lists) parsed by remark, raw HTML in them (OpenAPI allows it; Stripe writes `<p>` and `<code>`) re-parsed by
 * rehype-raw, then cleaned by rehype-sanitize with an allow-list and serialized by rehype-stringify. All of it runs
 * when the page is built, so the page script only places HTML that is already safe.
 *
 * The allow-list keeps text structure only: no script, style, form, image or frame element (an image would be a
 * network request), no `on*` handler, no `id` or `class` (they could clash with the page's own), and links whose
 * target is http(s), mailto or relative. Links open in a new tab without an opener.
 */
import type {Element, ElementContent, Root, RootContent} from 'hast'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize, {type Options as SanitizeSchema} from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import {unified} from 'unified'

/** Past this length a description is not read as Markdown: it is shown as the text it is (default: 20,000). */
export const markdownLimit = 20_000

/** The elements and attributes descriptions may keep; everything else is dropped (its text stays). */
export const sanitizeSchema: SanitizeSchema = {
  strip: ['script', 'style', 'template', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math', 'textarea', 'select'],
  tagNames: [
    'a', 'abbr', 'b', 'blockquote', 'br', 'code', 'dd', 'del', 'details', 'dl', 'dt', 'em', 'h1', 'h2', 'h3', 'h4', 'h5',
    'h6', 'hr', 'i', 'input', 'kbd', 'li', 'ol', 'p', 'pre', 's', 'samp', 'strong', 'sub', 'summary', 'sup', 'table',
    'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'var'
  ],
  attributes: {
    a: ['href', 'title'],
    abbr: ['title'],
    input: [['type', 'checkbox'], ['disabled', true], 'checked'],
    ol: ['start'],
    td: ['align', 'colSpan', 'rowSpan'],
    th: ['align', 'colSpan', 'rowSpan']
  },
  protocols: {href: ['http', 'https', 'mailto']},
  required: {input: {type: 'checkbox', disabled: true}}
}

/** rehype plugin: links open in a new tab, without access to the page that opened them. */
function rehypeExternalLinks() {
  const visit = (node: Root | Element) => {
    for (const child of node.children) {
      if (child.type !== 'element') continue
      if (child.tagName === 'a' && typeof child.properties.href === 'string') {
        child.properties.target = '_blank'
        child.properties.rel = ['noopener', 'noreferrer']
      }
      visit(child)
    }
  }
  return (tree: Root) => visit(tree)
}

// Two processors: re-parsing raw HTML (parse5) costs time, and only a description with a `<` can hold any.
const withHtml = unified().use(remarkParse).use(remarkGfm).use(remarkRehype, {allowDangerousHtml: true}).use(rehypeRaw).use(rehypeSanitize, sanitizeSchema).use(rehypeExternalLinks).use(rehypeStringify)
const plain = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeSanitize, sanitizeSchema).use(rehypeExternalLinks).use(rehypeStringify)

function toTree(text: string): Root {
  const processor = text.includes('<') ? withHtml : plain
  return processor.runSync(processor.parse(text)) as Root
}

const escapeMap: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}
/** Text escaped for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => escapeMap[character])
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
  return text.split(/\n{2,}/).map((paragraph) => `<p>${paragraph}</p>`).join('\n')
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

/** A description through the whole unified pipeline, without the shortcut for plain prose. */
export function parsedHtml(text: string): string {
  return plain.stringify(toTree(text)).trim()
}

/**
 * A summary as one line of safe inline HTML: the inline content of its first block (emphasis, code, links), line
 * breaks and further blocks dropped, so that a row stays one line however the summary was written.
 */
export function inlineMarkdown(text: string): string {
  let html = inlineCache.get(text)
  if (html !== undefined) return html
  if (text.length > markdownLimit) html = escapeHtml(text.replace(/\s+/g, ' ').trim())
  else if (isPlainProse(text)) html = text.split(/\n{2,}/)[0].replace(/\s+/g, ' ')
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

/** The inline content of the first block of `text`, through the whole unified pipeline, as one line. */
export function parsedInline(text: string): string {
  const tree = toTree(text)
  const first = tree.children.find((node): node is Element => node.type === 'element')
  const inline = first ? firstInline(first) : []
  return plain.stringify({type: 'root', children: oneLine(inline)}).replace(/\s+/g, ' ').trim()
}

const blockTags = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'td', 'th', 'dt', 'dd', 'summary'])

/** The inline children of the first text block inside `node` (a list's first item, a table's first cell). */
function firstInline(node: Element): ElementContent[] {
  if (blockTags.has(node.tagName) && !node.children.some((child) => child.type === 'element' && (child.tagName === 'p' || child.tagName === 'ul' || child.tagName === 'ol'))) return node.children
  for (const child of node.children) {
    if (child.type === 'element' && child.tagName !== 'br') return firstInline(child)
  }
  return node.children
}

/** Inline nodes without line breaks. */
function oneLine(nodes: ElementContent[]): RootContent[] {
  return nodes.filter((node) => !(node.type === 'element' && node.tagName === 'br'))
}
