/**
 * validate-definitions: checks a project's entity and controller definitions (see rules.ts for the rules); each
 * finding is in the definition file at fault, with its line and column. Severities are set like every rule's
 * (`settings.rules` or the plugin's `rules` option).
 */
import type {Processor} from 'unified'
import type {VFile} from 'vfile'
import {ruleSet, type RuleSetting} from '../../pipeline/rule.js'
import type {DefinitionsTree, RelatedTree} from '../parse-definitions.js'
import {definitionSchema, enumValues, primaryKey, relationInverse, tableClash, unknownAction, unknownEntity} from './rules.js'

/** The rules, in the order their findings are reported. */
export const rules = [definitionSchema, unknownEntity, primaryKey, enumValues, tableClash, relationInverse, unknownAction]

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
