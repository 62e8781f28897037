/**
 * validate-catalogue: checks a catalogue tree against its contract and reports findings (an ERD spec, `diagram_type:
 * "erd"`, against its own: the three schema rules). Each check is a rule with
 * an id and a severity that options or `settings.rules` can change:
 *
 * | rule | default | what |
 * | --- | --- | --- |
 * | `missing` | error | a required field is absent |
 * | `type` | error | a value of the wrong type or outside its enum |
 * | `schema` | error | any other JSON-Schema violation (unknown field, empty id, status out of range) |
 * | `dangling-ref` | error | an unknown group or type |
 * | `id-clash` | error | a repeated endpoint id, group id or type name |
 * | `duplicate-route` | warn | the same method and path twice |
 * | `summary` | warn | an endpoint without summary |
 * | `size` | warn | more than 80 endpoints (`['warn', {max}]`) |
 * | `unknown-table` | warn | an `entities` id that the ERD of `meta.erd` lacks |
 */
import type {Processor} from 'unified'
import type {VFile} from 'vfile'
import type {ParsedTree} from '../parse.js'
import {fatalFinding, ruleSet, type RuleSetting} from '../../pipeline/rule.js'
import {hasErrors, type CatalogueTree} from '../../pipeline/data.js'
import {missing, type, schema} from './rules/schema.js'
import {isErd} from './schema-check.js'
import {danglingRef} from './rules/dangling-ref.js'
import {idClash} from './rules/id-clash.js'
import {duplicateRoute} from './rules/duplicate-route.js'
import {summary} from './rules/summary.js'
import {size} from './rules/size.js'
import {unknownTable} from './rules/unknown-table.js'

/** The rules, in the order their findings are reported. */
export const rules = [missing, type, schema, danglingRef, idClash, duplicateRoute, summary, size, unknownTable]

/** Options of validate-catalogue. */
export interface Options {
  /** Severity (and options) per rule id; overrides `settings.rules` (default: each rule's own severity). */
  rules?: Record<string, RuleSetting>
}

/** Validate catalogue trees. */
export default function validateCatalogue(this: Processor, options: Options = {}) {
  const run = ruleSet(rules, options.rules, this.data('settings')?.rules)
  // An ERD spec (`api.erd.json` beside the catalogue `pipe map` writes) has its own contract, and no endpoints.
  const runOnErd = ruleSet([missing, type, schema], options.rules, this.data('settings')?.rules)
  return (tree: ParsedTree, file: VFile) => {
    // An earlier stage (an import) already said why this file is not a usable catalogue.
    if (hasErrors(file)) return
    if (tree.type !== 'catalogue') {
      const kind = tree.type === 'openapi' ? `OpenAPI ${tree.version}` : tree.type === 'asyncapi' ? `AsyncAPI ${tree.version}` : String((tree as {type: unknown}).type)
      const command = tree.type === 'asyncapi' ? 'asyncapi' : 'openapi'
      fatalFinding(file, `Unexpected ${kind} document, expected an endpoint catalogue; convert it with \`pipe import ${command}\``, 'schema', {line: 1, column: 1})
      return
    }
    ;(isErd(tree.spec) ? runOnErd : run)?.(tree as CatalogueTree, file)
  }
}
