/**
 * Descriptions with raw HTML in them (OpenAPI allows it; Stripe writes `<p>` and `<code>`): the HTML markdown-it
 * renders is parsed by rehype-parse (parse5), cleaned by rehype-sanitize with the page's allow-list and serialized by
 * rehype-stringify. parse5 and rehype take ~20 ms to load, so markdown.ts loads this module only for a catalogue with
 * a `<` somewhere in it (`prepareDescriptions`).
 */
import type {Element, ElementContent, Root, RootContent} from 'hast'
import rehypeParse from 'rehype-parse'
import rehypeSanitize from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import {unified} from 'unified'
import {sanitizeSchema} from './allow-list.js'

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

/** Raw HTML is parsed and judged by the allow-list, with the Markdown around it. */
const sanitizer = unified().use(rehypeParse, {fragment: true}).use(rehypeSanitize, sanitizeSchema).use(rehypeExternalLinks).use(rehypeStringify)

/** markdown-it's HTML of a description as a sanitized HTML tree. */
function toTree(rendered: string): Root {
  return sanitizer.runSync(sanitizer.parse(rendered)) as Root
}

/** markdown-it's HTML of a description, sanitized. */
export function sanitizedBlocks(rendered: string): string {
  return sanitizer.stringify(toTree(rendered)).trim()
}

/** The inline content of the first block of markdown-it's HTML of a description, sanitized, as one line. */
export function sanitizedInline(rendered: string): string {
  const tree = toTree(rendered)
  const first = tree.children.find((node): node is Element => node.type === 'element')
  const inline = first ? firstInline(first) : []
  return sanitizer.stringify({type: 'root', children: oneLine(inline)}).replace(/\s+/g, ' ').trim()
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
