/**
 * Where in a template an error that nunjucks gives without a place stands: a filter it cannot find (a render-time
 * lookup, after the place is gone), and a block left open at the end of the file, which nunjucks reports at the end
 * without naming the tag. Other errors carry `[Line, Column]` in their message.
 */

/** The tags that open a block, each closed by `end<tag>` (`set` too, when it assigns nothing: see below). */
const blockTags = new Set(['for', 'asyncEach', 'asyncAll', 'if', 'ifAsync', 'macro', 'call', 'filter', 'block', 'raw', 'verbatim'])

/** A 1-based line and column, and what to add to the reason. */
export interface TemplatePlace {
  line: number
  column: number
  note?: string
}

/** The place of a nunjucks error whose message has none, or undefined. */
export function templatePlace(reason: string, template: string): TemplatePlace | undefined {
  const filter = /^filter not found: (\S+)/.exec(reason)?.[1]
  if (filter) {
    const use = new RegExp(`\\|\\s*(${filter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})(?![\\w$])`).exec(template)
    return use ? pointAt(template, use.index + use[0].length - filter.length) : undefined
  }
  if (!reason.includes('end of file')) return undefined
  const open = unclosedBlock(template)
  if (!open) return pointAt(template, template.length)
  return {...pointAt(template, open.index), note: `: \`{% ${open.tag} %}\` here is never closed by \`{% end${open.tag} %}\``}
}

/** The innermost block tag that no end tag closes, reading tags as nunjucks does (`{%` and `{%-`, in `raw` nothing). */
function unclosedBlock(template: string): {tag: string; index: number} | undefined {
  const open: Array<{tag: string; index: number}> = []
  for (const match of template.matchAll(/\{%-?\s*(\w+)/g)) {
    const name = match[1]
    const inner = open.at(-1)?.tag
    // Inside `raw` and `verbatim`, tags are text until the one that ends it.
    if ((inner === 'raw' || inner === 'verbatim') && name !== `end${inner}`) continue
    if (blockTags.has(name)) open.push({tag: name, index: match.index})
    else if (name.startsWith('end') && open.at(-1)?.tag === name.slice(3)) open.pop()
    // `{% set x %}…{% endset %}` is a block; `{% set x = 1 %}` is not.
    else if (name === 'set' && !/^[^%]*=/.test(template.slice(match.index + match[0].length))) open.push({tag: 'set', index: match.index})
  }
  return open.at(-1)
}

function pointAt(text: string, index: number): TemplatePlace {
  const before = text.slice(0, index)
  const line = before.split('\n').length
  return {line, column: index - before.lastIndexOf('\n')}
}
