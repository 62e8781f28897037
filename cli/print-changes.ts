/** Print the changes of `pipe diff` in its four formats: text lines, JSON, GitHub annotations, a Markdown comment. */
import path from 'node:path'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {codeSpan} from '../pipeline/errors.js'

/** A format of `pipe diff`. */
export type ChangeFormat = 'text' | 'json' | 'github' | 'markdown'

/** The formats, for flag validation. */
export const changeFormats: readonly ChangeFormat[] = ['text', 'json', 'github', 'markdown']

const kind = (change: VFileMessage) => (change.fatal === true ? 'breaking' : 'non-breaking')

/** The total line: `1 breaking, 2 non-breaking change(s)`. */
export function changeTotal(changes: VFileMessage[]): string {
  const breaking = changes.filter((change) => change.fatal === true).length
  return `${breaking} breaking, ${changes.length - breaking} non-breaking change(s)`
}

/**
 * The printed changes of `file` (the new input), ending in a newline. `quiet`: only those that fail the run, the
 * breaking ones, `any` of them, or `none`. `failOn` (default: `breaking`) sets which GitHub annotations are errors:
 * those that fail the run; a breaking change that does not is a warning, any other a notice.
 */
export function printChanges(changes: VFileMessage[], file: VFile, format: ChangeFormat, quiet?: 'breaking' | 'any' | 'none', failOn: 'breaking' | 'any' | 'none' = 'breaking'): string {
  const shown = quiet === 'breaking' ? changes.filter((change) => change.fatal === true) : quiet === 'none' ? [] : changes
  if (format === 'json') {
    const breaking = changes.filter((change) => change.fatal === true).length
    const data = shown.map((change) => ({kind: kind(change), code: change.ruleId, location: change.jsonPath, message: change.reason, url: change.url ?? null}))
    return JSON.stringify({changes: data, breaking, nonBreaking: changes.length - breaking}, null, 2) + '\n'
  }
  if (format === 'markdown') return markdownComment(shown, changes)
  const level = (change: VFileMessage) => (failOn === 'any' || (failOn === 'breaking' && change.fatal === true) ? 'error' : change.fatal === true ? 'warning' : 'notice')
  const lines = shown.map((change) => (format === 'github' ? githubLine(change, file, level(change)) : `${kind(change)} ${change.ruleId} ${change.jsonPath} ${change.reason}`))
  lines.push(changeTotal(changes))
  return lines.join('\n') + '\n'
}

/** GitHub refuses a comment longer than this many characters. */
export const commentLimit = 65_536

/**
 * `### API changes: <total>` and a table of the changes, breaking ones first: they are what a review of the pull
 * request is about. A table that would make the comment longer than GitHub takes ends with the rows that fit and a
 * line that says how many were left out (a big schema's diff: GitHub's GraphQL schema from one year to the next,
 * 374 changes, was 86 KB).
 */
function markdownComment(shown: VFileMessage[], changes: VFileMessage[]): string {
  const heading = `### API changes: ${changeTotal(changes)}`
  if (shown.length === 0) return `${heading}\n`
  const ordered = [...shown.filter((change) => change.fatal === true), ...shown.filter((change) => change.fatal !== true)]
  const rows = ordered.map((change) => `| ${kind(change)} | \`${change.ruleId}\` | ${cell(codeSpan(change.jsonPath ?? ''))} | ${cell(change.reason)} |`)
  const leftOut = (count: number) => `\n\n…and ${count} more change(s), left out to keep this comment within GitHub's ${commentLimit.toLocaleString('en-US')} characters; \`pipe diff\` lists them all.`
  const table = `${heading}\n\n| change | code | location | what |\n| --- | --- | --- | --- |`
  const whole = `${table}\n${rows.join('\n')}\n`
  if (whole.length <= commentLimit) return whole
  let text = table
  const room = commentLimit - leftOut(rows.length).length - 1
  for (const [index, row] of rows.entries()) {
    if (text.length + 1 + row.length > room) return `${text}${leftOut(rows.length - index)}\n`
    text += `\n${row}`
  }
  return `${text}\n`
}

function githubLine(change: VFileMessage, file: VFile, level: 'error' | 'warning' | 'notice'): string {
  const properties: string[] = []
  if (file.path && !file.data.gitRevision) {
    properties.push(`file=${escape(path.relative(file.cwd, path.resolve(file.cwd, file.path)), true)}`)
    // Where the changed thing is in the new file, so that GitHub shows the change on that line of the pull request (a
    // removed thing: where it was held, `endpoints`, `paths`).
    if (change.line) properties.push(`line=${change.line}`, `col=${change.column ?? 1}`)
  }
  properties.push(`title=${escape(`${kind(change)} change: ${change.ruleId}`, true)}`)
  return `::${level} ${properties.join(',')}::${escape(`${change.jsonPath} ${change.reason}`, false)}`
}

function escape(value: string, property: boolean): string {
  const data = value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
  return property ? data.replace(/:/g, '%3A').replace(/,/g, '%2C') : data
}

/** Text for a Markdown table cell: pipes escaped, no line breaks. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')
}
