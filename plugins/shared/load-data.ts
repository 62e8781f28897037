/**
 * Parse JSON or YAML into plain data, fast: `JSON.parse`, and js-yaml for YAML (about ten times faster than the
 * `yaml` package on a 2 MB document). Positions are not kept: they are found later, only for a finding (see
 * pipeline/position.ts). YAML that js-yaml refuses (unknown tags and other things lenient tools accept) goes
 * through the lenient `yaml` parser (so do aliases: it counts what they expand to), which throws with line and column when the text really cannot be read.
 */
import {jsYaml, yaml} from '../../pipeline/lazy.js'

/** The data of `text`; throws when it cannot be parsed. */
export function loadData(text: string, syntax: 'json' | 'yaml'): unknown {
  if (syntax === 'json') {
    try {
      return JSON.parse(text)
    } catch {
      // JSON with comments or trailing commas: YAML reads it.
    }
  }
  try {
    // Repeated keys: the last wins, as JSON.parse does and as lenient tools accept.
    return jsYaml().load(text, {json: true, maxAliases: 0})
  } catch {
    return yaml().parse(text, {uniqueKeys: false, strict: false, maxAliasCount: 10_000})
  }
}
