/**
 * Rule `size` (warning): a catalogue with more than `max` endpoints (default: 80) is hard to read and usually spans
 * more than one bounded context; split it. Options: `{max: number}`.
 */
import type {CatalogueTree} from '../../../pipeline/data.js'
import {defineRule} from '../../../pipeline/rule.js'

/** Options of the `size` rule. */
export interface SizeOptions {
  /** Most endpoints a catalogue should have (default: 80). */
  max?: number
}

export const size = defineRule<CatalogueTree, SizeOptions>({id: 'size', severity: 'warn'}, (tree, _file, report, options) => {
  const max = options?.max ?? 80
  const count = Array.isArray(tree.spec.endpoints) ? tree.spec.endpoints.length : 0
  if (count > max) {
    report(`Catalogue has ${count} endpoints, expected at most ${max}; split it by bounded context`, {path: ['endpoints']})
  }
})
