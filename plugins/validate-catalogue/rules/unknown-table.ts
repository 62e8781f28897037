/**
 * Rule `unknown-table` (warning): a catalogue that names its ERD (`meta.erd`) has endpoints whose `entities` are ids of
 * that ERD's tables; an id the ERD lacks is reported with the known ids, and so is an ERD that cannot be read.
 */
import type {CatalogueTree} from '../../../pipeline/data.js'
import {defineRule} from '../../../pipeline/rule.js'
import {erdFile} from '../../shared/erd-file.js'
import {endpointsOf} from '../walk.js'

export const unknownTable = defineRule<CatalogueTree>({id: 'unknown-table', severity: 'warn'}, (tree, file, report) => {
  const lookup = erdFile(tree.spec, file)
  if (!lookup) return
  if (!lookup.erd) {
    report(lookup.problem, {path: ['meta', 'erd']})
    return
  }
  const known = lookup.erd.tables.map((table) => table.id)
  const ids = new Set(known)
  for (const [index, endpoint] of endpointsOf(tree.spec)) {
    const entities = Array.isArray(endpoint.entities) ? endpoint.entities : []
    entities.forEach((entity, position) => {
      if (typeof entity !== 'string' || ids.has(entity)) return
      report(`Unknown table \`${entity}\` in ERD \`${tree.spec.meta.erd}\`; known ids: ${known.join(', ') || 'none'}`, {path: ['endpoints', index, 'entities', position], expected: known, actual: entity})
    })
  }
})
