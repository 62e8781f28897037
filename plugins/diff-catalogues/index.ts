/**
 * diff-catalogues: compares the catalogue tree with a previous catalogue (option `previous`, or `file.data.previous`)
 * and reports each change through its rule: `error` findings are breaking changes, `warn` findings non-breaking.
 * The file's own findings (parse, import, validation) come first; a file with an error is not compared.
 */
import type {Processor} from 'unified'
import type {VFile} from 'vfile'
import {hasErrors, type CatalogueTree} from '../../pipeline/data.js'
import {ApipeError, show} from '../../pipeline/errors.js'
import {fatalFinding, ruleSet, type RuleSetting} from '../../pipeline/rule.js'
import type {Catalogue} from '../../schemas/types/endpoints.js'
import {compareCatalogues} from './compare.js'
import {rules} from './rules.js'

export {changeCodes, rules} from './rules.js'
export type {Change} from './compare.js'

declare module 'vfile' {
  interface DataMap {
    /** The catalogue to compare with (the old one of `pipe diff`). */
    previous: Catalogue
  }
}

/** Options of diff-catalogues. */
export interface Options {
  /** The old catalogue (default: `file.data.previous`). */
  previous?: Catalogue
  /** Severity per change code; overrides `settings.rules` (default: each code's own). */
  rules?: Record<string, RuleSetting>
}

/** Compare catalogue trees with the previous catalogue. */
export default function diffCatalogues(this: Processor, options: Options = {}) {
  if (options.previous !== undefined && (typeof options.previous !== 'object' || !Array.isArray(options.previous?.endpoints))) {
    throw new ApipeError('APIPE_ERR_OPTION', [show(options.previous), 'previous', 'a catalogue'])
  }
  const run = ruleSet(rules, options.rules, this.data('settings')?.rules)
  return (tree: CatalogueTree, file: VFile) => {
    if (hasErrors(file)) return
    const previous = options.previous ?? file.data.previous
    if (tree.type !== 'catalogue' || !previous) {
      fatalFinding(file, 'Unexpected input without a previous catalogue to compare with', 'diff', {line: 1, column: 1})
      return
    }
    file.data.changes = compareCatalogues(previous, tree.spec)
    file.data.previousVersion = previous.meta?.version
    run?.(tree, file)
  }
}
