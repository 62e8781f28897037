/**
 * The one helper that every rule goes through, in the spirit of unified-lint-rule: it owns the rule id, resolves the
 * severity (plugin option, else `settings.rules[id]`, else the rule's default) and stamps `ruleId`, `source`, `url`,
 * the JSON path and the place on every finding.
 */
import type {Plugin, Processor} from 'unified'
import type {Node, Point} from 'unist'
import type {VFile} from 'vfile'
import {VFileMessage} from 'vfile-message'
import {ApipeError, show} from './errors.js'
import {formatJsonPath, type JsonPath} from './json-path.js'
import {locator} from './position.js'

/** How seriously a rule's findings count. */
export type Severity = 'off' | 'warn' | 'error'

/** A rule's setting: a severity, `false` (off), `true` (default severity), or `[severity, options]`. */
export type RuleSetting = Severity | boolean | [Severity, unknown?]

/** `source` of every apipe finding. */
export const source = 'apipe'

/** Where rule documentation lives; each rule has an anchor. */
export const docsUrl = 'https://github.com/apipe/apipe/blob/main/docs/rules.md'

/** What a rule says about one place. */
export interface Finding {
  /** Path of the field at fault. */
  path: JsonPath
  /** The file at fault, when it is not the one being processed (a definition the project file names). */
  file?: VFile
  /** A second place the finding is about (the first definition of a clashing id). */
  also?: {path: JsonPath; reason: string}
  /** The finding's line and column, for a source that JSON paths do not address (a GraphQL schema). */
  place?: Point
  expected?: string[]
  actual?: string
  note?: string
}

/** Report a finding: `report('Unexpected …, expected …', {path})`. */
export type Report = (reason: string, finding: Finding) => VFileMessage

/** The check a rule runs on each tree. */
export type Check<Tree extends Node, Options> = (tree: Tree, file: VFile, report: Report, options: Options | undefined) => void

/** What a rule declares about itself. */
export interface RuleMeta {
  /** kebab-case rule id, also the finding's `ruleId`. */
  id: string
  /** Severity when nothing sets one. */
  severity: 'warn' | 'error'
}

/** A rule: usable alone as a unified plugin taking a {@link RuleSetting}, or in a group through {@link ruleSet}. */
export type Rule<Tree extends Node> = Plugin<[RuleSetting?], Tree> & {meta: RuleMeta; check: Check<Tree, any>}

/**
 * The id of every rule defined in this process, so that a setting for one is known (rule-settings.ts). Kept on
 * `globalThis` because a plugin may define its rules with its own copy of apipe rather than the CLI's.
 */
export const definedRuleIds: Set<string> = ((globalThis as {[key: symbol]: Set<string>})[Symbol.for('apipe.definedRuleIds')] ??= new Set())

/** Define a rule. */
export function defineRule<Tree extends Node, Options = unknown>(meta: RuleMeta, check: Check<Tree, Options>): Rule<Tree> {
  definedRuleIds.add(meta.id)
  function rule(this: Processor, setting?: RuleSetting) {
    return ruleSet([rule as unknown as Rule<Tree>], {[meta.id]: setting}, this.data('settings')?.rules)
  }
  Object.defineProperty(rule, 'name', {value: meta.id})
  return Object.assign(rule, {meta, check}) as unknown as Rule<Tree>
}

/**
 * One transformer running a group of rules in order. Each rule's setting comes from `settings` (plugin options),
 * else from `fallback` (the processor's `settings.rules`), else its default severity. Returns undefined when all are off.
 */
export function ruleSet<Tree extends Node>(
  rules: ReadonlyArray<Rule<Tree>>,
  settings: Record<string, RuleSetting | undefined> = {},
  fallback: Record<string, RuleSetting | undefined> = {}
): ((tree: Tree, file: VFile) => void) | undefined {
  const known = new Set(rules.map((rule) => rule.meta.id))
  for (const id of Object.keys(settings)) {
    if (!known.has(id)) throw new ApipeError('APIPE_ERR_OPTION', [show(id), 'rules', `one of ${[...known].join(', ')}`])
  }
  const enabled = rules
    .map((rule) => ({rule, setting: resolveSetting(rule.meta, settings[rule.meta.id] ?? fallback[rule.meta.id])}))
    .filter(({setting}) => setting[0] !== 'off')
  if (enabled.length === 0) return undefined
  return (tree, file) => {
    for (const {rule, setting} of enabled) {
      rule.check(tree, file, createReport(rule.meta.id, setting[0] as 'warn' | 'error', file), setting[1])
    }
  }
}

/** Create a finding at `path` (or at `place`) with the apipe fields set; used by rules. */
export function createFinding(file: VFile, reason: string, ruleId: string, path: JsonPath, place?: Point): VFileMessage {
  // A finding is data: its stack trace says nothing, and capturing one costs more than the rest of the message.
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  let message: VFileMessage
  try {
    message = file.message(reason, {place, ruleId, source})
  } finally {
    Error.stackTraceLimit = limit
  }
  if (!place) placeWhenRead(message, locator(file, path), file.path)
  message.url = `${docsUrl}#${ruleId}`
  // A finding placed by line and column in a source that JSON paths do not address (GraphQL) has none.
  if (!place || path.length > 0) message.jsonPath = formatJsonPath(path)
  return message
}

/**
 * Give `message` its place (`place`, `line`, `column`, and `name`, which vfile prefixes with the path) only when
 * one of them is first read: searching a 4 MB source for a thousand findings costs tens of milliseconds, and the
 * text report, which shows JSON paths, never reads them. Setting one replaces the lazy value, as on any message.
 */
function placeWhenRead(message: VFileMessage, find: () => Point | undefined, filePath: string | undefined): void {
  let looked = false
  let point: Point | undefined
  const place = () => {
    if (!looked) {
      looked = true
      point = find()
    }
    return point
  }
  const readers: Record<string, () => unknown> = {
    place,
    line: () => place()?.line,
    column: () => place()?.column,
    name: () => `${filePath ? `${filePath}:` : ''}${place() ? `${place()!.line}:${place()!.column}` : '1:1'}`
  }
  for (const [name, read] of Object.entries(readers)) {
    Object.defineProperty(message, name, {
      enumerable: true,
      configurable: true,
      get: read,
      set(value: unknown) {
        Object.defineProperty(message, name, {value, writable: true, enumerable: true, configurable: true})
      }
    })
  }
}

/**
 * Add a fatal finding that is not a rule's (a file that cannot be read or parsed, an input an importer cannot use):
 * `ruleId`, `source`, `url` and the place, no JSON path (the report shows line:column). Returns it, so that a parser
 * can `throw` it to stop the file.
 */
export function fatalFinding(file: VFile, reason: string, ruleId: string, place?: Point, cause?: Error): VFileMessage {
  const message = file.message(reason, {place, ruleId, source, cause})
  message.fatal = true
  message.url = `${docsUrl}#${ruleId}`
  return message
}

function createReport(ruleId: string, severity: 'warn' | 'error', file: VFile): Report {
  return (reason, finding) => {
    const target = finding.file ?? file
    const message = createFinding(target, reason, ruleId, finding.path, finding.place)
    message.fatal = severity === 'error'
    if (finding.also) {
      // Placed when read, as the finding itself: duplicate-route's other endpoint on a big document took ~14 ms to find.
      const cause = new VFileMessage(finding.also.reason, {ruleId, source})
      placeWhenRead(cause, locator(target, finding.also.path), undefined)
      cause.jsonPath = formatJsonPath(finding.also.path)
      cause.file = target.path ?? ''
      message.cause = cause
    }
    if (finding.expected) message.expected = finding.expected
    if (finding.actual !== undefined) message.actual = finding.actual
    if (finding.note) message.note = finding.note
    return message
  }
}

function resolveSetting(meta: RuleMeta, setting: unknown): [Severity, unknown] {
  if (setting === undefined || setting === null || setting === true) return [meta.severity, undefined]
  if (setting === false) return ['off', undefined]
  const [level, options] = Array.isArray(setting) ? setting : [setting, undefined]
  const severity = level === true || level === 'on' ? meta.severity : normalizeSeverity(level)
  if (!severity) throw new ApipeError('APIPE_ERR_RULE_SEVERITY', [show(level), meta.id])
  return [severity, options]
}

function normalizeSeverity(level: unknown): Severity | undefined {
  if (level === 'off' || level === 0 || level === false) return 'off'
  if (level === 'warn' || level === 'warning' || level === 1) return 'warn'
  if (level === 'error' || level === 2) return 'error'
  return undefined
}
