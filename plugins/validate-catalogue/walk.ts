/** Defensive access to a catalogue that may not match its schema yet: rules run on what is there. */
import type {Catalogue, Endpoint, Group, TypeDefinition} from '../../schemas/types/endpoints.js'

/** Items of a top-level array that are objects, with their indices. */
export function entries<T>(spec: Catalogue, key: 'endpoints' | 'groups' | 'types'): Array<[number, Partial<T>]> {
  const list = (spec as unknown as Record<string, unknown>)[key]
  if (!Array.isArray(list)) return []
  const result: Array<[number, Partial<T>]> = []
  list.forEach((item, index) => {
    if (item && typeof item === 'object' && !Array.isArray(item)) result.push([index, item as Partial<T>])
  })
  return result
}

export const endpointsOf = (spec: Catalogue) => entries<Endpoint>(spec, 'endpoints')
export const groupsOf = (spec: Catalogue) => entries<Group>(spec, 'groups')
export const typesOf = (spec: Catalogue) => entries<TypeDefinition>(spec, 'types')

/** `value` when it is a non-empty string. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}
