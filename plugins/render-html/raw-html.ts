/**
 * Descriptions with raw HTML in them (OpenAPI allows it; Stripe writes `<p>` and `<code>`): the HTML markdown-it
 * renders is read by htmlparser2, which closes what a browser would close (an open `<p>` before a list, unclosed
 * elements at the end) and decodes entities, and is then written out again from the allow-list alone. Nothing of the
 * input is copied through as markup: every tag and attribute of the output is one the allow-list names, every text
 * and value escaped, so a browser cannot read into it anything the allow-list did not keep, whatever the input was.
 * markdown.ts loads this module only for a catalogue with a `<` somewhere in it (`prepareDescriptions`).
 *
 * rehype (parse5, hast-util-sanitize) did this before, spec-exact but five times slower in a cold process: 138 ms
 * against 28 ms on Stripe's 366 descriptions with HTML.
 */
import {htmlTagNames} from 'html-tag-names'
import {Parser} from 'htmlparser2'
import {escapeHtml} from '../shared/escape-html.js'
import {allowedAttribute, allowedAttributes, allowedElement, allowedTags, requiredAttributes, strippedTags, voidTags} from './allow-list.js'

/** An element the allow-list kept, with its attributes already judged and written out (` href="…"`). */
interface Element {
  tag: string
  attributes: string
  children: Content[]
}

/** A tag that may be a placeholder (`<token>`): shown as written unless its element is closed (see {@link cleanTree}). */
interface Placeholder {
  written: string
}

/** Text (decoded, not escaped), an element, or a placeholder. */
type Content = string | Element | Placeholder

function isElement(node: Content): node is Element {
  return typeof node !== 'string' && 'tag' in node
}

/** The attributes `tag` requires, then those of `attributes` that the allow-list keeps, written out; links open in a new tab. */
function keptAttributes(tag: string, attributes: Record<string, string>): string {
  const required = requiredAttributes[tag] ?? []
  let written = ''
  for (const [name, value] of required) written += value === true ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`
  let link = false
  for (const name in attributes) {
    if (required.some(([requiredName]) => requiredName === name) || !allowedAttribute(tag, name, attributes[name])) continue
    written += allowedAttributes[tag][name] === 'flag' ? ` ${name}` : ` ${name}="${escapeHtml(attributes[name])}"`
    link ||= name === 'href'
  }
  if (link) written += ' target="_blank" rel="noopener noreferrer"'
  return written
}

/** HTML's element names. */
const elementNames = new Set(htmlTagNames)

/**
 * Whether a tag as written may be a placeholder rather than HTML: a name HTML does not have (`<token>`, `List<T>`,
 * `<jane at example.com>`), or one written in mixed case (`Map<String, Object>`), which HTML written by hand never
 * is (`<p>`, `<P>`). An element stripped with its content (`<Script>`) never is.
 */
function mayBePlaceholder(name: string, tag: string): boolean {
  if (!elementNames.has(name)) return true
  const written = tag.slice(1, 1 + name.length)
  return written !== written.toLowerCase() && written !== written.toUpperCase()
}

/**
 * markdown-it's HTML of a description as the tree of what the allow-list keeps. Descriptions of APIs are full of
 * words in angle brackets (`Bearer <token>`, `List<String>`): such a tag that is never closed is shown as the text it
 * is, where an HTML sanitizer would drop it as an unknown element and hide it from the reader; one that is closed
 * (AWS's `<note>…</note>`) is markup, dropped with its content kept.
 */
function cleanTree(rendered: string): Element {
  const root: Element = {tag: '', attributes: '', children: []}
  // Where content goes: the innermost element kept, or nowhere (null) inside a stripped one. A dropped element
  // leaves it as it was, so its content joins its parent's.
  let target: Element | null = root
  // The target to go back to, one for each element the parser has open, and its placeholder if it may be one.
  const outer: Array<Element | null> = []
  const placeholders: Array<Placeholder | undefined> = []
  const addText = (text: string) => {
    if (target === null) return
    const last = target.children.length - 1
    if (typeof target.children[last] === 'string') target.children[last] += text
    else target.children.push(text)
  }
  const parser = new Parser(
    {
      onopentag(tag, attributes) {
        outer.push(target)
        const written = rendered.slice(parser.startIndex, parser.endIndex + 1)
        const placeholder = target !== null && !strippedTags.has(tag) && mayBePlaceholder(tag, written) ? {written} : undefined
        placeholders.push(placeholder)
        if (target === null) return
        if (placeholder) {
          target.children.push(placeholder)
        } else if (strippedTags.has(tag)) {
          target = null
        } else if (tag === 'img') {
          if (attributes.alt) addText(attributes.alt)
        } else if (allowedTags.has(tag) && allowedElement(tag, attributes)) {
          const element: Element = {tag, attributes: keptAttributes(tag, attributes), children: []}
          target.children.push(element)
          target = element
        }
      },
      ontext: addText,
      // The parser closes every element it opened, void ones at once and unclosed ones at the end.
      onclosetag(_tag, implied) {
        const previous = outer.pop()
        target = previous === undefined ? root : previous
        const placeholder = placeholders.pop()
        if (placeholder && !implied) placeholder.written = ''
      }
    },
    {decodeEntities: true}
  )
  parser.end(rendered)
  return root
}

function serialize(content: Content[]): string {
  let html = ''
  for (const node of content) {
    if (typeof node === 'string') html += escapeHtml(node)
    else if ('written' in node) html += escapeHtml(node.written)
    else html += voidTags.has(node.tag) ? `<${node.tag}${node.attributes}>` : `<${node.tag}${node.attributes}>${serialize(node.children)}</${node.tag}>`
  }
  return html
}

/** A piece of a simple paragraph: text, or `code`, `strong`, `em` or a link around text; never an entity. */
const inlinePiece = /([^<>&]+)|<(code|strong|em)>([^<>&]*)<\/\2>|<a href="([^"<>&]*)">([^<>&]*)<\/a>/y
const gapAfter = /[ \t\n]*/y
const blankLine = /\n[ \t]*\n/

/**
 * A description that is only paragraphs of simple HTML (`<p>` around text, `<code>`, `<strong>`, `<em>` and
 * `<a href>`; no entity, no blank line inside a paragraph), as Stripe writes most of its own: each paragraph's
 * sanitized content, with the whitespace before it as markdown-it passes it on (a blank line ends its HTML block,
 * keeping the line end before it). The page writes these without markdown-it and the HTML parser, as they would
 * (tests check both ways). Undefined for any other text.
 */
export function simpleParagraphs(text: string): Array<{before: string; html: string}> | undefined {
  if (!text.startsWith('<p>') || text.includes('\r') || text.includes('\0')) return undefined
  const paragraphs: Array<{before: string; html: string}> = []
  let before = ''
  let index = 0
  while (index < text.length) {
    if (!text.startsWith('<p>', index)) return undefined
    index += 3
    let html = ''
    while (!text.startsWith('</p>', index)) {
      inlinePiece.lastIndex = index
      const match = inlinePiece.exec(text)
      if (!match || blankLine.test(match[0])) return undefined
      const [whole, plain, tag, inner, href, label] = match
      if (plain !== undefined) html += escapeHtml(plain)
      else if (tag !== undefined) html += `<${tag}>${escapeHtml(inner)}</${tag}>`
      else html += `<a${keptAttributes('a', {href})}>${escapeHtml(label)}</a>`
      index += whole.length
    }
    index += 4
    paragraphs.push({before, html})
    gapAfter.lastIndex = index
    const gap = gapAfter.exec(text)![0]
    index += gap.length
    if (!blankLine.test(gap)) {
      before = gap
      continue
    }
    // A new HTML block opens only at the start of a line (four spaces in, it would be code).
    if (index < text.length && !gap.endsWith('\n')) return undefined
    before = gap.slice(0, gap.indexOf('\n') + 1)
  }
  return paragraphs
}

/** markdown-it's HTML of a description, sanitized. */
export function sanitizedBlocks(rendered: string): string {
  return serialize(cleanTree(rendered).children).trim()
}

/** The inline content of the first block of markdown-it's HTML of a description, sanitized (markdown.ts makes it one line). */
export function sanitizedInline(rendered: string): string {
  const first = cleanTree(rendered).children.find(isElement)
  return serialize(first ? firstInline(first) : [])
}

const blockTags = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'td', 'th', 'dt', 'dd', 'summary'])
const nestedBlocks = new Set(['p', 'ul', 'ol'])

/** The inline children of the first text block inside `element` (a list's first item, a table's first cell). */
function firstInline(element: Element): Content[] {
  if (blockTags.has(element.tag) && !element.children.some((child) => isElement(child) && nestedBlocks.has(child.tag))) return element.children
  for (const child of element.children) {
    if (isElement(child) && child.tag !== 'br') return firstInline(child)
  }
  return element.children
}
