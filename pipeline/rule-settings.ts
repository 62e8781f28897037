/**
 * What a configuration may say, checked before any file is processed: a rule id that no rule has (`sumary`) or a
 * field unified-engine does not read (`{"rules": …}` at the top of a `.piperc.json`) would otherwise be ignored
 * without a word, and the team would believe a rule turned off that still runs, or one turned on that never does.
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import leven from 'leven'
import type {Processor} from 'unified'
import type {ConfigTransform} from 'unified-engine'
import {ApipeError, show} from './errors.js'
import {definedRuleIds} from './rule.js'
import {packageRoot} from './schemas.js'

/** The fields unified-engine reads of a configuration. */
const configFields = new Set(['plugins', 'settings'])

/**
 * unified-engine's `configTransform`: refuse a configuration with fields the engine would ignore, naming the one
 * to use instead for the ones users bring from other linters (`rules`, `extends`).
 */
export const checkConfig: ConfigTransform = (config, filePath) => {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return config
  const name = path.basename(filePath)
  const where = name === 'package.json' ? 'the `pipe` field of `package.json`' : show(name)
  for (const field of Object.keys(config)) {
    if (configFields.has(field)) continue
    const hint = field === 'rules' ? ' (rule severities go in `settings.rules`)' : field === 'extends' ? ' (presets go in `plugins`)' : ''
    throw new ApipeError('APIPE_ERR_CONFIG_FIELD', [show(field), where, hint])
  }
  // Where each rule is named, for the finding of one that no rule has: the configuration to mend.
  const rules = (config as {settings?: {rules?: unknown}}).settings?.rules
  if (rules && typeof rules === 'object') for (const id of Object.keys(rules)) ruleNamedIn.set(id, where)
  return config
}

/** The configuration each rule id of a `settings.rules` was read from (`.piperc.json`, as findings name it). */
const ruleNamedIn = new Map<string, string>()

/** A plugin, attached last: refuses `settings.rules` that name a rule no built-in rule or loaded plugin has. */
export function knownRules(this: Processor): void {
  const rules = this.data('settings')?.rules
  if (!rules) return
  for (const id of Object.keys(rules)) {
    if (definedRuleIds.has(id) || documentedRuleIds().has(id)) continue
    const where = ruleNamedIn.get(id)
    throw new ApipeError('APIPE_ERR_RULE', [show(id), where ? ` of ${where}` : '', closestRule(id)])
  }
}

let documented: Set<string> | undefined
/**
 * The ids of the built-in rules: the sections of docs/rules.md, where every finding's `url` points. Read from there,
 * not by loading every plugin: a command loads only the plugins it runs, and the diff's codes belong in a shared
 * `.piperc` as much as the catalogue's rules.
 */
function documentedRuleIds(): Set<string> {
  documented ??= new Set(readFileSync(path.join(packageRoot, 'docs', 'rules.md'), 'utf8').match(/^### [a-z0-9-]+$/gm)?.map((heading) => heading.slice(4)))
  return documented
}

/** What to suggest for an unknown id: the closest known one, when it is near enough to be a typo. */
function closestRule(id: string): string {
  let best: string | undefined
  let distance = Infinity
  for (const known of new Set([...documentedRuleIds(), ...definedRuleIds])) {
    const next = leven(id, known)
    if (next < distance) [best, distance] = [known, next]
  }
  const near = best !== undefined && distance <= Math.max(2, Math.floor(best.length / 3))
  return near ? `a rule id such as ${show(best)}` : 'a rule id of docs/rules.md or of a plugin in `plugins`'
}
