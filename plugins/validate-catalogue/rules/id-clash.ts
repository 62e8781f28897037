/**
 * Rule `id-clash` (error): an endpoint id, a group id and a type name are unique among all three collections
 * together, because links, deep links (`#<id>`) and references use them (an endpoint and a group both called `Owner`
 * clash). The finding names both places: the clash, and the first use in `cause`.
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
  // One name space for the three collections, in the order endpoints, groups, types.
  const first = new Map<string, {path: Array<string | number>; noun: string}>()
  for (const {key, field, noun} of collections) findClashes(entries<Record<string, unknown>>(tree.spec, key), key, field, noun, first, report)
})

function findClashes(items: Array<[number, Record<string, unknown>]>, key: string, field: string, noun: string, first: Map<string, {path: Array<string | number>; noun: string}>, report: Report) {
  for (const [index, item] of items) {
    const id = text(item[field])
    if (id === undefined) continue
    const earlier = first.get(id)
    if (earlier === undefined) {
      first.set(id, {path: [key, index, field], noun})
      continue
    }
    report(`${noun} \`${id}\` is already used by ${formatJsonPath(earlier.path)}`, {
      path: [key, index, field],
      also: {path: earlier.path, reason: `${earlier.noun} \`${id}\` is first defined here`}
    })
  }
}
