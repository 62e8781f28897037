/**
 * The allow-list of descriptions on the page, one for both ways a description is cleaned: markdown-it's tokens
 * (markdown.ts) and raw HTML through rehype-sanitize (raw-html.ts). It keeps text structure only: no script, style,
 * form, image or frame element (an image would be a network request), no `on*` handler, no `id`, `class` or `style`
 * (they could clash with the page's own), and links whose target is http(s), mailto or relative.
 */
import type {Options as SanitizeSchema} from 'rehype-sanitize'

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
