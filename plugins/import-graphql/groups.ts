/**
 * Groups of GraphQL operations, as a reader would sort them: the schema's own category where it declares one (a
 * directive on the field: `@tag(name: "…")`, `@group(name: "…")`, or any directive with a `category` argument such
 * as `@doc(category: "…")`), else the entity the operation acts on: the first word that is not a verb (nor a
 * wrapper such as `Connection` or `Payload`) of the object, interface or union type it returns, else of its own
 * name, as a capitalized plural (`products: ProductConnection`, `productCreate: ProductCreatePayload`,
 * `deleteProduct: Boolean` -> `Products`), which reads as a section and does not clash with the operations' ids or
 * the types' names. When that makes more than `maxGroups` groups, the largest are kept and the other operations go
 * to `Other`.
 */
import {getNamedType, isInterfaceType, isObjectType, isUnionType, Kind, type GraphQLField, type GraphQLNamedType} from 'graphql'

/** Most groups the name heuristic may make; beyond it the smallest are pooled in `other`. */
export const maxGroups = 40

const verbs = new Set([
  'get', 'list', 'all', 'find', 'fetch', 'search', 'query', 'lookup', 'read', 'load', 'count', 'create', 'add', 'new',
  'insert', 'update', 'edit', 'modify', 'set', 'upsert', 'save', 'put', 'patch', 'delete', 'remove', 'destroy',
  'archive', 'unarchive', 'cancel', 'confirm', 'send', 'request', 'start', 'stop', 'enable', 'disable', 'assign',
  'unassign', 'link', 'unlink', 'attach', 'detach', 'bulk', 'batch', 'my', 'me', 'current', 'viewer', 'is', 'has',
  'can', 'check', 'validate', 'verify', 'generate', 'mark', 'toggle', 'move', 'copy', 'clone', 'publish', 'unpublish',
  'subscribe', 'unsubscribe', 'on', 'register', 'reset', 'refresh', 'revoke', 'grant', 'accept', 'reject', 'approve',
  'complete', 'authorize', 'authenticate', 'dismiss', 'merge', 'unset', 'deliver', 'detect', 'discard', 'dislike', 'like',
  'distribute', 'end', 'exclude', 'include', 'reopen', 'reprocess', 'process', 'sync', 'transfer', 'trigger', 'submit',
  'fix', 'fulfill', 'select', 'initial', 'initiate', 'ack', 'acknowledge', 'and', 'or', 'by', 'for', 'with', 'to', 'from'
])
/** Words of a type name that wrap the entity rather than name it. */
const wrappers = new Set(['connection', 'edge', 'edges', 'payload', 'result', 'results', 'response', 'output', 'mutation', 'input'])

/** The category a field declares through a directive, if any. */
export function declaredGroup(field: GraphQLField<unknown, unknown>): string | undefined {
  for (const directive of field.astNode?.directives ?? []) {
    const name = directive.name.value
    const argument =
      directive.arguments?.find((item) => item.name.value === 'category') ??
      (name === 'tag' || name === 'group' ? (directive.arguments?.find((item) => item.name.value === 'name') ?? directive.arguments?.[0]) : undefined)
    if (argument?.value.kind === Kind.STRING && argument.value.value.trim() !== '') return argument.value.value.trim()
    if (argument?.value.kind === Kind.ENUM) return argument.value.value
  }
  return undefined
}

/** The entity an operation acts on, as a group: `productVariantCreate: ProductVariantCreatePayload` -> `Products`. */
export function entityOf(field: GraphQLField<unknown, unknown>, roots: ReadonlySet<GraphQLNamedType>): string {
  const returned = getNamedType(field.type)
  const composite = (isObjectType(returned) || isInterfaceType(returned) || isUnionType(returned)) && !roots.has(returned)
  const noun = (composite ? firstNoun(returned.name) : undefined) ?? firstNoun(field.name) ?? field.name.toLowerCase()
  const entity = plural(noun)
  return entity[0].toUpperCase() + entity.slice(1)
}

function firstNoun(name: string): string | undefined {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').split(/[^A-Za-z0-9]+/).filter(Boolean).map((word) => word.toLowerCase())
  // Participles and adverbs (`featured`, `recently`) qualify the entity rather than name it.
  return words.find((word) => !verbs.has(word) && !wrappers.has(word) && !/^\d/.test(word) && !/.(ed|ly)$/.test(word))
}


function plural(word: string): string {
  // Already plural, or uncountable (`analytics`, `species`, `news`).
  if (word.endsWith('s')) return word
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`
  if (/(s|x|ch|sh)$/.test(word)) return `${word}es`
  return `${word}s`
}

/**
 * The group of each operation (by index): declared categories as declared; beyond `maxGroups` groups, only the
 * largest heuristic groups are kept (ties: first met) and the rest go to `Other`.
 */
export function groupOperations(fields: Array<GraphQLField<unknown, unknown>>, roots: ReadonlySet<GraphQLNamedType>): string[] {
  const groups = fields.map((field) => {
    const declared = declaredGroup(field)
    return {declared: declared !== undefined, id: declared ?? entityOf(field, roots)}
  })
  const counts = new Map<string, number>()
  for (const {id} of groups) counts.set(id, (counts.get(id) ?? 0) + 1)
  if (counts.size <= maxGroups) return groups.map(({id}) => id)
  const declared = new Set(groups.filter((group) => group.declared).map((group) => group.id))
  const room = Math.max(maxGroups - declared.size - 1, 0)
  const kept = new Set([...counts.entries()].filter(([id]) => !declared.has(id)).sort((a, b) => b[1] - a[1]).slice(0, room).map(([id]) => id))
  return groups.map(({id}) => (declared.has(id) || kept.has(id) ? id : 'Other'))
}
