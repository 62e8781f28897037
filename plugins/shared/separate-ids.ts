/**
 * One name space for a catalogue's ids: an endpoint id, a group id and a type name are unique among all three
 * collections together (deep links `#<id>` and references use them). Importers build each collection from the
 * source's own names (operationIds, tags, schema names), which may coincide (`Owner` all three); this pass keeps type
 * names (requests, responses and fields name them), then makes endpoint ids and then group ids that clash with an
 * earlier one unique with `-2`, `-3`…, updating the endpoints' `group`. A group keeps its label.
 */
import type {Catalogue} from '../../schemas/types/endpoints.js'

/** Options of {@link separateIds}. */
export interface Options {
  /** Leave endpoint ids as they are (a merge reports repeated ones as `id-clash`) and only move groups (default: false). */
  keepEndpointIds?: boolean
}

/** Rename, in place, the endpoint ids and group ids of `spec` that clash with a type name or an earlier id. */
export function separateIds(spec: Catalogue, options: Options = {}): void {
  const taken = new Set((spec.types ?? []).map((type) => type.name))
  for (const endpoint of spec.endpoints) {
    if (options.keepEndpointIds) taken.add(endpoint.id)
    else endpoint.id = claim(taken, endpoint.id)
  }
  const renamed = new Map<string, string>()
  for (const group of spec.groups ?? []) {
    const id = claim(taken, group.id)
    if (id === group.id) continue
    renamed.set(group.id, id)
    group.label ??= group.id
    group.id = id
  }
  if (renamed.size === 0) return
  for (const endpoint of spec.endpoints) {
    const group = endpoint.group ?? 'default'
    if (renamed.has(group)) endpoint.group = renamed.get(group)
  }
}

function claim(taken: Set<string>, id: string): string {
  let candidate = id
  for (let counter = 2; taken.has(candidate); counter++) candidate = `${id}-${counter}`
  taken.add(candidate)
  return candidate
}
