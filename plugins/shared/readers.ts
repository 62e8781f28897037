/**
 * Small readers for untyped documents (OpenAPI, AsyncAPI, JSON Schema) that every importer shares, and of the
 * catalogue's type expressions.
 */

type Node = Record<string, unknown>

/** `value` when it is a plain object, else an empty one. */
export function record(value: unknown): Node {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : {}
}

/** `value` when it is a non-empty string. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}

/** `create pet`, `/pets/{petId}` -> `CreatePet`, `PetsPetId`. */
export function pascal(value: string): string {
  // Most names asked for are built from names already in this form (`${owner}${pascal(field)}`): they stay as they are.
  if (pascalShape.test(value)) return value
  let result = pascalCache.get(value)
  if (result === undefined) {
    result = toPascal(value)
    pascalCache.set(value, result)
  }
  return result
}

const pascalShape = /^[A-Z][A-Za-z0-9]*$/

/** Big documents name the same inline schemas over and over (Stripe: a few thousand names, asked for many times each). */
const pascalCache = new Map<string, string>()

function toPascal(value: string): string {
  const words = value.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^A-Za-z0-9]+/).filter(Boolean)
  const joined = words.map((word) => word[0].toUpperCase() + word.slice(1)).join('')
  return /^[0-9]/.test(joined) ? `T${joined}` : joined
}

/**
 * A schema name as a catalogue type name: kept as written, except for what the catalogue's type notation uses
 * (`[]`, `!`, `?`) and spaces: `Resource[Item]` -> `ResourceOfItem`, `List<Pet>` -> `ListOfPet`, `my type` -> `my_type`.
 */
export function typeName(name: string): string {
  // Most names have none of these characters: one test instead of three replacements (asked for at every `$ref`).
  if (name !== '' && !/[[\]<>!?\s,]/.test(name)) return name
  return name.replace(/[[<]/g, 'Of').replace(/[\]>]/g, '').replace(/[!?\s,]+/g, '_') || 'Unnamed'
}

/** The named type inside a catalogue type expression: `Pet` for `Pet`, `Pet[]`, `[Pet!]!` and `Pet?`. */
export function baseTypeName(expression: string): string {
  return expression.replace(/[[\]!?\s]/g, '')
}
