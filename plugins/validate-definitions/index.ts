/**
 * validate-definitions: checks a project's entity and controller definitions (the rules of
 * `runtime/definitions/rules.ts`); each finding is in the definition file at fault, with its line and column.
 * Severities are set like every rule's (`settings.rules` or the plugin's `rules` option).
 */
import type {Processor} from 'unified'
import type {VFile} from 'vfile'
import {ruleSet, type RuleSetting} from '../../pipeline/rule.js'
import {definitionRules, type DefinitionsTree, type RelatedTree} from '../../runtime/definitions/index.js'

/** The rules, in the order their findings are reported. */
export const rules = definitionRules

/** Options of validate-definitions. */
export interface Options {
  /** Severity (and options) per rule id (default: each rule's own). */
  rules?: Record<string, RuleSetting>
}

/** Validate project definitions. */
export default function validateDefinitions(this: Processor, options: Options = {}) {
  const run = ruleSet(rules, options.rules, this.data('settings')?.rules)
  return (tree: DefinitionsTree | RelatedTree, file: VFile) => {
    if (tree.type === 'definitions') run?.(tree, file)
  }
}
