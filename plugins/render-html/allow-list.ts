/**
 * The allow-list of descriptions on the page, one for both ways a description is cleaned: markdown-it's tokens
 * (markdown.ts) and raw HTML (raw-html.ts). It keeps text structure only: no script, style, form, image or frame
 * element (an image would be a network request), no `on*` handler, no `id`, `class` or `style` (they could clash
 * with the page's own; a quote's `data-alert`, one of GitHub's five alert kinds, is the page's own), and links whose
 * target is http(s), mailto or relative. Whatever is not on it is dropped; the
 * text of a dropped element stays, but for the elements in `strip`, which go with everything in them. An image
 * leaves its `alt` text, as a browser shows it when the image cannot be loaded.
 */

/** How an attribute's value is judged: any value, a flag written without one, or one of a few values. */
export type AttributeRule = 'any' | 'flag' | readonly string[]

/** Elements dropped with everything in them. */
export const strippedTags: ReadonlySet<string> = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math', 'textarea', 'select'])

/** Elements kept; any other element is dropped and its content kept. */
export const allowedTags: ReadonlySet<string> = new Set([
  'a', 'abbr', 'b', 'blockquote', 'br', 'code', 'dd', 'del', 'details', 'dl', 'dt', 'em', 'h1', 'h2', 'h3', 'h4', 'h5',
  'h6', 'hr', 'i', 'input', 'kbd', 'li', 'ol', 'p', 'pre', 's', 'samp', 'strong', 'sub', 'summary', 'sup', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'var'
])

/** Elements without content or end tag among the kept ones. */
export const voidTags: ReadonlySet<string> = new Set(['br', 'hr', 'input'])

/** The attributes each kept element may keep (HTML's names, lower case), and how their values are judged. */
export const allowedAttributes: Readonly<Record<string, Readonly<Record<string, AttributeRule>>>> = {
  a: {href: 'any', title: 'any'},
  abbr: {title: 'any'},
  // A GitHub alert's kind, which markdown.ts sets and the page styles (`> [!NOTE]`).
  blockquote: {'data-alert': ['note', 'tip', 'important', 'warning', 'caution']},
  input: {type: ['checkbox'], disabled: 'flag', checked: 'flag'},
  ol: {start: 'any'},
  td: {align: 'any', colspan: 'any', rowspan: 'any'},
  th: {align: 'any', colspan: 'any', rowspan: 'any'}
}

/**
 * Whether an element of a kept tag is kept with these attributes: an input only when it is a checkbox (a task list's,
 * or one written as HTML); a text field or a button would be a form control that does nothing on the page.
 */
export function allowedElement(tag: string, attributes: Readonly<Record<string, string>>): boolean {
  return tag !== 'input' || attributes.type?.toLowerCase() === 'checkbox'
}

/** Attributes an element always gets: an input is a disabled checkbox. */
export const requiredAttributes: Readonly<Record<string, ReadonlyArray<readonly [string, string | true]>>> = {
  input: [['type', 'checkbox'], ['disabled', true]]
}

const hrefProtocols = new Set(['http', 'https', 'mailto'])

/**
 * Whether a link may point at `url` (its entities already decoded): a relative URL, or one whose scheme is allowed.
 * Anything else before a colon, however a browser would read it (`java\tscript:`, ` javascript:`), is refused.
 */
export function allowedHref(url: string): boolean {
  const colon = url.indexOf(':')
  const before = url.search(/[/?#]/)
  return colon === -1 || (before !== -1 && before < colon) || hrefProtocols.has(url.slice(0, colon).toLowerCase())
}

/** Whether the allow-list keeps attribute `name` with `value` on element `tag`. */
export function allowedAttribute(tag: string, name: string, value: string): boolean {
  const rule = allowedAttributes[tag]?.[name]
  if (rule === undefined) return false
  if (typeof rule !== 'string') return rule.includes(value.toLowerCase())
  return name !== 'href' || allowedHref(value)
}
