/**
 * Parse JSON or YAML into plain data, fast: `JSON.parse`; for YAML, the block reader (block-yaml.ts), which reads
 * what API descriptions are written in, then js-yaml for what the reader gives up (both several times faster than
 * the `yaml` package, with far less garbage: Stripe's 3 MB in ~75 ms, ~110 ms and 1.4 s). Positions are not kept:
 * they are found later, only for a finding (see pipeline/position.ts). YAML with aliases, and YAML that js-yaml
 * refuses (unknown tags and other things lenient tools accept) go through the lenient `yaml` parser, which counts
 * what aliases expand to (an alias bomb is refused) and throws with line and column when the text really cannot be
 * read.
 */
import {jsYaml, yaml} from '../../pipeline/lazy.js'
import {readBlockYaml} from './block-yaml.js'
import {treeShaped} from './tree-shaped.js'

/**
 * An alias (`key: *name`, `- *name`, `<<: *name`, `[*a, *b]`): a `*name` that ends its line or a flow item, so that
 * Markdown emphasis in descriptions (`*Deprecated* since …`) does not send a document to the slow parser.
 */
const aliasPattern = /(^|[\s[{,:-])\*[\w.-]+[ \t]*($|[,\]}])/m

/** A YAML 1.1 merge key (`<<: {…}`, `<<: *name`), which js-yaml's core schema would keep as a key named `<<`. */
const mergeKeyPattern = /(^|[\s{,])<<[ \t]*:/m

/**
 * The data of YAML `text` by the fast parsers, or undefined when it is left to the `yaml` package (`blockTried`: the
 * block reader gave it up already).
 */
export function fastYaml(text: string, blockTried = false): {value: unknown} | undefined {
  const block = blockTried ? undefined : readBlockYaml(text)
  if (block !== undefined) return {value: treeShaped(block)}
  if (aliasPattern.test(text) || mergeKeyPattern.test(text)) return undefined
  try {
    const {load, CORE_SCHEMA} = jsYaml()
    // YAML 1.2 core schema, as the `yaml` package reads it (dates stay strings); repeated keys: the last wins.
    return {value: load(text, {schema: CORE_SCHEMA, json: true})}
  } catch {
    return undefined
  }
}

/** The data of `text`; throws when it cannot be parsed. */
export function loadData(text: string, syntax: 'json' | 'yaml'): unknown {
  if (syntax === 'json') {
    try {
      return treeShaped(JSON.parse(text))
    } catch {
      // JSON with comments or trailing commas: YAML reads it.
    }
  }
  const fast = fastYaml(text)
  if (fast) return fast.value
  return yaml().parse(text, {uniqueKeys: false, strict: false, merge: true, maxAliasCount: 10_000})
}
