/**
 * Rule `id-clash` (error): endpoint ids, group ids and type names are each unique, because links, deep links
 * (`#<id>`) and references use them. The finding names both places: the clash, and the first use in `cause`.
 */
import type {CatalogueTree} from '../../../pipeline/data.js'
import {formatJsonPath} from '../../../pipeline/json-path.js'
import {defineRule, type Report} from '../../../pipeline/rule.js'
import {entries, text} from '../walk.js'

const collections = [
  {key: 'endpoints', field: 'id', noun: 'Endpoint id'},
  {key: 'groups', field: 'id', noun: 'Group id'},
  {key: 'types', field: 'name', noun: 'Type name'}
] as const

export const idClash = defineRule<CatalogueTree>({id: 'id-clash', severity: 'error'}, (tree, _file, report) => {
  for (const {key, field, noun} of collections) findClashes(entries<Record<string, unknown>>(tree.spec, key), key, field, noun, report)
})

function findClashes(items: Array<[number, Record<string, unknown>]>, key: string, field: string, noun: string, report: Report) {
  const first = new Map<string, number>()
  for (const [index, item] of items) {
    const id = text(item[field])
    if (id === undefined) continue
    const earlier = first.get(id)
    if (earlier === undefined) {
      first.set(id, index)
      continue
    }
    const earlierPath = [key, earlier, field]
    report(`${noun} \`${id}\` is already used by ${formatJsonPath(earlierPath)}`, {
      path: [key, index, field],
      also: {path: earlierPath, reason: `${noun} \`${id}\` is first defined here`}
    })
  }
}
