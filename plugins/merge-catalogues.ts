/**
 * Merge the catalogues of one bounded context (say its REST routes, its GraphQL operations and its events) into one.
 * `meta` comes from the first catalogue with `api_kind: mixed`; groups are united by id (first wins); endpoints are
 * concatenated in input order; types with the same name and the same definition are kept once, different ones are
 * both kept so that validation reports the clash (`id-clash`), as it does for repeated endpoint ids. A group id that
 * an endpoint or a type of another input already uses gets `-2` (see separate-ids.ts).
 */
import type {Catalogue, Group, TypeDefinition} from '../schemas/types/endpoints.js'
import {separateIds} from './shared/separate-ids.js'

/** The merged catalogue of `specs` (at least one). */
export function mergeCatalogues(specs: Catalogue[]): Catalogue {
  const [first] = specs
  const groups = new Map<string, Group>()
  const types: TypeDefinition[] = []
  const seenTypes = new Map<string, string[]>()
  for (const spec of specs) {
    for (const group of spec.groups ?? []) if (!groups.has(group.id)) groups.set(group.id, group)
    for (const type of spec.types ?? []) {
      const body = JSON.stringify(type)
      const bodies = seenTypes.get(type.name) ?? []
      if (bodies.includes(body)) continue
      seenTypes.set(type.name, [...bodies, body])
      types.push(type)
    }
  }
  const merged: Catalogue = {
    schema_version: 1,
    diagram_type: 'endpoints',
    meta: {...first.meta, api_kind: 'mixed'},
    groups: [...groups.values()],
    endpoints: specs.flatMap((spec) => spec.endpoints),
    types
  }
  if (first.layout) merged.layout = first.layout
  // A group of one input may carry the name of another input's type or endpoint: the group moves (it keeps its label).
  separateIds(merged, {keepEndpointIds: true})
  return merged
}
