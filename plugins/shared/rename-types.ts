/**
 * Rename types of a catalogue in place, with every reference to them: an endpoint's request and response, its params'
 * and responses' types and their headers', and in the types themselves their fields' types, union members, map
 * values (`x-map-values`, on a type and on a field) and a discriminator's mapping. A reference is a type expression
 * (`Pet`, `Pet[]`, `Pet[][]`), whose named type is renamed.
 */
import type {Catalogue} from '../../schemas/types/endpoints.js'

/** Rename the types of `spec` named in `renamed` (old name -> new name). */
export function renameTypes(spec: Catalogue, renamed: ReadonlyMap<string, string>): void {
  if (renamed.size === 0) return
  const rename = (expression: string): string => {
    const list = expression.indexOf('[')
    const base = list === -1 ? expression : expression.slice(0, list)
    const name = renamed.get(base)
    return name === undefined ? expression : name + expression.slice(base.length)
  }
  const renameIn = <T extends object, K extends keyof T>(holder: T, key: K) => {
    const value = holder[key]
    if (typeof value === 'string') holder[key] = rename(value) as T[K]
  }
  for (const endpoint of spec.endpoints) {
    renameIn(endpoint, 'request')
    renameIn(endpoint, 'response')
    for (const param of endpoint.params ?? []) renameIn(param, 'type')
    for (const response of endpoint.responses ?? []) {
      renameIn(response, 'type')
      for (const header of response.headers ?? []) renameIn(header, 'type')
    }
  }
  for (const type of spec.types ?? []) {
    type.name = renamed.get(type.name) ?? type.name
    for (const field of type.fields ?? []) {
      renameIn(field, 'type')
      renameIn(field, 'x-map-values')
    }
    if (type.members) type.members = type.members.map(rename)
    renameIn(type, 'x-map-values')
    const mapping = (type['x-discriminator'] as {mapping?: Record<string, string>} | undefined)?.mapping
    if (mapping) for (const value of Object.keys(mapping)) mapping[value] = rename(mapping[value])
  }
}
