/**
 * Reporters for single-purpose commands (`pipe validate`, `pipe run --format`): the contract's plain lines, JSON for
 * scripts, GitHub Actions annotations and SARIF 2.1.0 for CI. `pipe run` uses vfile-reporter by default.
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {docsUrl, source} from './rule.js'
import {packageRoot} from './schemas.js'
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {statistics} from 'vfile-statistics'

/** An output format of {@link formatFindings}. */
export type Format = 'text' | 'json' | 'github' | 'sarif'

/** The formats, for flag validation and help. */
export const formats: readonly Format[] = ['text', 'json', 'github', 'sarif']

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

/** Options of {@link formatFindings}. */
export interface ReportOptions {
  /** Print only the findings that fail the run: errors, and warnings with `frail` (the total line still counts all). */
  quiet?: boolean
  frail?: boolean
  /** Start each text line with its file even when there is one (`pipe diff`: a finding may be of either input). */
  named?: boolean
}

/**
 * Format the findings of `files`, ending with the total line (text and github) or as one JSON document (json, sarif).
 * With more than one file, each text line starts with its file (`specs/a.json: error …`).
 */
export function formatFindings(files: VFile[], format: Format, options: ReportOptions = {}): string {
  const shown = (file: VFile) => (options.quiet ? file.messages.filter((message) => message.fatal === true || (options.frail && message.fatal === false)) : file.messages)
  // Code scanning and pull-request annotations show findings: that an output was written is none.
  const annotated = (file: VFile) => shown(file).filter((message) => !(message.ruleId === 'write' && message.fatal == null))
  if (format === 'json') {
    const {fatal: errors, warn: warnings} = statistics(files)
    return JSON.stringify({findings: files.flatMap((file) => toData(file, shown(file))), errors, warnings}, null, 2) + '\n'
  }
  if (format === 'sarif') return JSON.stringify(toSarif(files, annotated), null, 2) + '\n'
  const lines: string[] = []
  const prefix = format === 'text' && (files.length > 1 || options.named === true)
  for (const file of files) {
    for (const message of format === 'github' ? annotated(file) : shown(file)) {
      const line = format === 'github' ? githubLine(file, message) : textLine(file, message)
      lines.push(prefix ? `${displayPath(file)}: ${line}` : line)
    }
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

function toData(file: VFile, messages: VFileMessage[]): FindingData[] {
  return messages.map((message) => {
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

/**
 * A SARIF 2.1.0 log (https://docs.oasis-open.org/sarif/sarif/v2.1.0/): one run of apipe, its rules (id and
 * documentation URL), and one result per finding with its file, line and column, and the JSON path as a logical
 * location. GitHub code scanning and other CI tools read it.
 */
export function toSarif(files: VFile[], shown: (file: VFile) => VFileMessage[] = (file) => file.messages): Record<string, unknown> {
  const rules: Array<{id: string; helpUri?: string}> = []
  const ruleIndex = new Map<string, number>()
  const results = files.flatMap((file) =>
    shown(file).map((message) => {
      const ruleId = message.ruleId ?? 'unknown'
      if (!ruleIndex.has(ruleId)) {
        ruleIndex.set(ruleId, rules.length)
        // apipe's own rules are each documented in docs/rules.md, notes of an import included.
        const helpUri = message.url ?? (message.source === source && message.ruleId ? `${docsUrl}#${message.ruleId}` : undefined)
        rules.push(helpUri ? {id: ruleId, helpUri} : {id: ruleId})
      }
      const region = {startLine: message.line ?? 1, startColumn: message.column ?? 1}
      const location: Record<string, unknown> = {physicalLocation: {artifactLocation: {uri: sarifUri(file)}, region}}
      if (message.jsonPath) location.logicalLocations = [{fullyQualifiedName: message.jsonPath, kind: 'member'}]
      return {
        ruleId,
        ruleIndex: ruleIndex.get(ruleId),
        level: message.fatal === true ? 'error' : message.fatal === false ? 'warning' : 'note',
        message: {text: message.reason},
        locations: [location]
      }
    })
  )
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{tool: {driver: {name: 'apipe', version: packageVersion(), informationUri: 'https://github.com/apipe/apipe', rules}}, columnKind: 'utf16CodeUnits', results}]
  }
}

function sarifUri(file: VFile): string {
  if (!file.path) return 'stdin'
  return displayPath(file).split(path.sep).map(encodeURIComponent).join('/')
}

let version: string | undefined
function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as {version: string}).version
  return version
}

/** A file's path relative to the working directory (what GitHub annotations and readers expect). */
function displayPath(file: VFile): string {
  if (!file.path) return '<stdin>'
  const relative = path.relative(file.cwd, path.resolve(file.cwd, file.path)) || file.path
  // An input outside the working folder given by its absolute path is named so, not as `../../../x.yaml` (a file
  // that its refs led to is named from the working folder, as before).
  const shown = path.isAbsolute(file.path) && relative.startsWith('..') && file.data.relatedTo === undefined ? file.path : relative
  // A version read from git (`pipe diff main:api.yaml api.yaml`) is named as it was given.
  return file.data.gitRevision ? `${file.data.gitRevision}:${shown}` : shown
}
