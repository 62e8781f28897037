/**
 * Reporters for single-purpose commands (`pipe validate`): the contract's plain lines, JSON for scripts, and GitHub
 * Actions annotations for CI. `pipe run` uses vfile-reporter instead.
 */
import path from 'node:path'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {statistics} from 'vfile-statistics'

/** An output format of {@link formatFindings}. */
export type Format = 'text' | 'json' | 'github'

/** The formats, for flag validation and help. */
export const formats: readonly Format[] = ['text', 'json', 'github']

/** A finding as plain data (the JSON format). */
export interface FindingData {
  file: string
  severity: 'error' | 'warning' | 'info'
  ruleId: string | null
  path: string | null
  line: number | null
  column: number | null
  message: string
  url: string | null
  source: string | null
  /** A second place the finding is about (e.g. the first definition of a clashing id). */
  related?: {path: string | null; line: number | null; column: number | null; message: string}
}


/** The closing line: `1 error(s), 1 warning(s)`. */
export function totalLine(files: VFile[]): string {
  const {fatal, warn} = statistics(files)
  return `${fatal} error(s), ${warn} warning(s)`
}

/** Format the findings of `files`, ending with the total line (text and github) or as one JSON document. */
export function formatFindings(files: VFile[], format: Format): string {
  if (format === 'json') {
    const {fatal: errors, warn: warnings} = statistics(files)
    return JSON.stringify({findings: files.flatMap(toData), errors, warnings}, null, 2) + '\n'
  }
  const lines: string[] = []
  for (const file of files) {
    if (format === 'text' && files.length > 1 && file.messages.length > 0) lines.push(displayPath(file))
    for (const message of file.messages) lines.push(format === 'github' ? githubLine(file, message) : textLine(file, message))
  }
  lines.push(totalLine(files))
  return lines.join('\n') + '\n'
}

function severityOf(message: VFileMessage): FindingData['severity'] {
  return message.fatal === true ? 'error' : message.fatal === false ? 'warning' : 'info'
}

function location(file: VFile, message: VFileMessage): string {
  if (message.jsonPath) return message.jsonPath
  if (message.line) return `${message.line}:${message.column ?? 1}`
  return displayPath(file)
}

/** `error dangling-ref endpoints[2].group Unknown group …` */
function textLine(file: VFile, message: VFileMessage): string {
  return `${severityOf(message)} ${message.ruleId ?? 'unknown'} ${location(file, message)} ${message.reason}`
}

function githubLine(file: VFile, message: VFileMessage): string {
  const properties = [`file=${escapeProperty(displayPath(file))}`]
  if (message.line) properties.push(`line=${message.line}`, `col=${message.column ?? 1}`)
  properties.push(`title=${escapeProperty(`apipe ${message.ruleId ?? ''}`.trim())}`)
  const kind = message.fatal === true ? 'error' : message.fatal === false ? 'warning' : 'notice'
  const text = message.jsonPath ? `${message.jsonPath} ${message.reason}` : message.reason
  return `::${kind} ${properties.join(',')}::${escapeData(text)}`
}

function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

function toData(file: VFile): FindingData[] {
  return file.messages.map((message) => {
    const data: FindingData = {
      file: displayPath(file),
      severity: severityOf(message),
      ruleId: message.ruleId ?? null,
      path: message.jsonPath ?? null,
      line: message.line ?? null,
      column: message.column ?? null,
      message: message.reason,
      url: message.url ?? null,
      source: message.source ?? null
    }
    const cause = message.cause as VFileMessage | undefined
    if (cause && typeof cause === 'object' && 'reason' in cause) {
      data.related = {path: cause.jsonPath ?? null, line: cause.line ?? null, column: cause.column ?? null, message: cause.reason}
    }
    return data
  })
}

/** A file's path relative to the working directory (what GitHub annotations and readers expect). */
function displayPath(file: VFile): string {
  if (!file.path) return '<stdin>'
  return path.relative(file.cwd, path.resolve(file.cwd, file.path)) || file.path
}
