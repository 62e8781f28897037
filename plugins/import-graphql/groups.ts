/**
 * Groups of GraphQL operations, as a reader would sort them: the schema's own category where it declares one (a
 * directive on the field: `@tag(name: "…")`, `@group(name: "…")`, or any directive with a `category` argument such
 * as `@doc(category: "…")`), else the entity the operation acts on, as the schema writes it: the words from the
 * first that is not a verb (nor a wrapper such as `Connection` or `Payload`) of the object, interface or union type
 * it returns, else of its own name (`products: ProductConnection`, `productCreate: ProductCreatePayload`,
 * `deleteProduct: Boolean` -> `Product`); an operation that acts on no entity, named by a verb alone or after
 * qualifiers and returning a type named after itself, is grouped under its verb (`search: SearchResultItemConnection`,
 * `predictiveSearch: PredictiveSearchResult` -> `Search`). The group's label is that name; its id is its plural
 * (`Products`), which clashes neither with the type nor with an operation of that name. An entity with one operation
 * joins the entity its first word names, or the others with one operation under that word ({@link joinedLoneEntities}).
 * When that makes more than `maxGroups` groups, entities that share their first word fold into it (`ProductVariant`
 * and `ProductImage` into `Product`; `PaymentSettings`, alone under `Payment`, stays), and when that is still too
 * many, into their first or last word, largest groups first (see {@link pooled}), the rest in `Other`.
 */
import {getNamedType, isInterfaceType, isObjectType, isUnionType, Kind, type GraphQLField, type GraphQLNamedType} from 'graphql'

/** Most groups the name heuristic may make; beyond it the smallest are pooled in `other`. */
export const maxGroups = 40

/** Words that are actions wherever they stand: they never name the entity, in an operation's name or a type's. */
const verbs = new Set([
  'get', 'list', 'all', 'many', 'find', 'fetch', 'search', 'query', 'lookup', 'read', 'load', 'count', 'create', 'add',
  'new', 'insert', 'update', 'edit', 'modify', 'set', 'upsert', 'save', 'put', 'patch', 'delete', 'remove', 'destroy',
  'archive', 'unarchive', 'cancel', 'confirm', 'send', 'start', 'stop', 'enable', 'disable', 'assign', 'unassign',
  'unlink', 'attach', 'detach', 'bulk', 'batch', 'my', 'me', 'current', 'viewer', 'is', 'has', 'can', 'validate',
  'verify', 'generate', 'toggle', 'clone', 'publish', 'unpublish', 'subscribe', 'unsubscribe', 'on', 'register',
  'reset', 'refresh', 'revoke', 'grant', 'accept', 'reject', 'approve', 'authorize', 'authenticate', 'dismiss',
  'unset', 'discard', 'reopen', 'reprocess', 'sync', 'submit', 'fulfill', 'initial', 'initiate', 'ack', 'acknowledge',
  'abort', 'change', 'clear', 'close', 'convert', 'decline', 'dequeue', 'enqueue', 'invite', 'minimize', 'unminimize',
  'regenerate', 'rename', 'reorder', 'rerequest', 'rerun', 'resolve', 'unresolve', 'restore', 'retire', 'revert',
  'unfollow', 'unlock', 'unmark', 'unpin', 'withdraw', 'activate', 'deactivate', 'pause', 'resume', 'skip', 'unskip',
  'replace', 'resend', 'calculate', 'opt',
  'and', 'or', 'by', 'for', 'with', 'to', 'from', 'as'
])
/**
 * Words that are actions when they open an operation's name (`linkAccount`, `requestRefund`, `followUser`) but
 * entities after a verb and in a type's name (`Link`, `Request`, `CheckRun`): `createLink: Link` acts on `Link`,
 * `createCheckRun` on `CheckRun`.
 */
const nounOrVerb = new Set([
  'link', 'request', 'check', 'mark', 'move', 'copy', 'merge', 'deliver', 'detect', 'like', 'dislike', 'distribute',
  'end', 'exclude', 'include', 'process', 'transfer', 'trigger', 'fix', 'select', 'complete', 'follow', 'import',
  'export', 'lock', 'pin', 'upload', 'download', 'apply', 'block', 'unblock', 'star', 'unstar', 'vote'
])
/** GraphQL's built-in scalars: a type named after one (`StringConnection`, `IntEdge`) wraps values, not an entity. */
const scalarNames = new Set(['string', 'int', 'float', 'boolean', 'id'])
/** Words of a type name that wrap the entity rather than name it. */
const wrappers = new Set(['connection', 'edge', 'edges', 'payload', 'result', 'results', 'response', 'output', 'mutation', 'input', 'type'])

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

/**
 * The entity an operation acts on, as written in the schema: `productVariantCreate: ProductVariantCreatePayload` ->
 * `ProductVariant`, `deleteProduct: Boolean` -> `Product`.
 */
export function entityOf(field: GraphQLField<unknown, unknown>, roots: ReadonlySet<GraphQLNamedType>): string {
  const returned = getNamedType(field.type)
  const composite = (isObjectType(returned) || isInterfaceType(returned) || isUnionType(returned)) && !roots.has(returned)
  // A type named after the operation (`requestRefund: RequestRefundPayload`, Relay's way) reads like the operation.
  const namedAfterOperation = returned.name.toLowerCase().startsWith(field.name.toLowerCase())
  // An operation that is an action on no entity (`search: SearchResultItemConnection`) is grouped under the action.
  const action = namedAfterOperation ? actionOf(field.name) : undefined
  if (action) return action
  const fromType = composite ? nounWords(returned.name, namedAfterOperation ? 'operation' : 'type') : undefined
  // A connection of scalars (`productTags: StringConnection`) names no entity: the operation's name does.
  const scalarOnly = fromType?.length === 1 && scalarNames.has(fromType[0].toLowerCase())
  const words = (scalarOnly ? undefined : fromType) ?? nounWords(field.name, 'operation') ?? [field.name]
  return words.map((word) => word[0].toUpperCase() + word.slice(1)).join('')
}

/**
 * The action an operation's name says when it names no entity: a verb alone or after qualifiers (`search`,
 * `predictiveSearch` -> `Search`); undefined when a word of the name may be a noun (`cartCreate`).
 */
function actionOf(name: string): string | undefined {
  const words = wordsOf(name)
  const last = words.at(-1)!.toLowerCase()
  if (!verbs.has(last) && !nounOrVerb.has(last)) return undefined
  // Before the verb only verbs and qualifiers: participles, adverbs and adjectives such as `predictive`.
  const qualifiers = words.slice(0, -1).every((word) => verbs.has(word.toLowerCase()) || /.(ed|ly|ive)$/i.test(word))
  return qualifiers ? last[0].toUpperCase() + last.slice(1) : undefined
}

/**
 * The words of a name from its first noun on, without the wrappers that end it (`Connection`, `Payload`); in a type's
 * name, a word that is a noun or a verb is a noun.
 */
function nounWords(name: string, of: 'type' | 'operation'): string[] | undefined {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').split(/[^A-Za-z0-9]+/).filter(Boolean)
  const isVerb = (word: string, index: number) => verbs.has(word.toLowerCase()) || (of === 'operation' && index === 0 && nounOrVerb.has(word.toLowerCase()))
  // `Subscription` before a wrapper wraps too: `LinkSubscriptionPayload` is the payload of a subscription to `Link`.
  const wraps = (word: string, next: string | undefined) => wrappers.has(word.toLowerCase()) || (word === 'Subscription' && next !== undefined && wrappers.has(next.toLowerCase()))
  // Participles and adverbs (`featured`, `recently`) qualify the entity rather than name it.
  const isNoun = (word: string, index: number) => !isVerb(word, index) && !wraps(word, words[index + 1]) && !/^\d/.test(word) && !/.(ed|ly)$/i.test(word)
  const first = words.findIndex(isNoun)
  if (first < 0) return undefined
  const rest = words.slice(first)
  const end = rest.findIndex((word, index) => index > 0 && (wraps(word, rest[index + 1]) || isVerb(word, first + index)))
  return end < 0 ? rest : rest.slice(0, end)
}

/**
 * A group id from an entity name: a plural (`ProductVariant` -> `ProductVariants`), so that it clashes neither with
 * the type of that name nor with an operation named after it; the label keeps the name as written.
 */
function groupId(entity: string): string {
  // Already plural, or uncountable (`analytics`, `species`, `news`); but `Address` is one address.
  if (/ss$/.test(entity)) return `${entity}es`
  if (entity.endsWith('s')) return entity
  if (/[^aeiou]y$/.test(entity)) return `${entity.slice(0, -1)}ies`
  if (/(x|ch|sh)$/.test(entity)) return `${entity}es`
  return `${entity}s`
}

/**
 * The group of each operation (by index) and the label of each group: declared categories as declared; else the
 * entity, as written. Beyond `maxGroups` groups, entities are folded into their first word (`ProductVariant` and
 * `ProductImage` into `Product`), then only the largest groups are kept and the rest go to `other`.
 */
export function groupOperations(fields: Array<GraphQLField<unknown, unknown>>, roots: ReadonlySet<GraphQLNamedType>): Array<{id: string; label: string}> {
  const declared = fields.map((field) => declaredGroup(field))
  let entities = fields.map((field, index) => declared[index] ?? entityOf(field, roots))
  // `Films` (from `allFilms: FilmsConnection`) joins `Film` when both are there: one entity, named once.
  const named = new Set(entities)
  entities = entities.map((entity, index) => (declared[index] === undefined && entity.endsWith('s') && named.has(entity.slice(0, -1)) ? entity.slice(0, -1) : entity))
  const count = (names: string[]) => new Set(names).size
  const head = (entity: string) => entity.match(/^[A-Z][a-z0-9]*|^[a-z0-9]+/)?.[0] ?? entity
  const heads = new Set(entities.map(head))
  // `Artworks` joins `Artwork` when both are there: one entity, named once.
  const singular = (word: string) => (word.endsWith('s') && heads.has(word.slice(0, -1)) ? word.slice(0, -1) : word)
  const firstWord = (entity: string) => singular(head(entity))
  const lone = joinedLoneEntities(entities, declared, firstWord)
  if (count(lone) > maxGroups) {
    // An entity alone under its first word keeps its name (`PaymentSettings`, not `Payment`): folding it merges nothing.
    const sharers = new Map<string, Set<string>>()
    for (const entity of entities) sharers.set(firstWord(entity), (sharers.get(firstWord(entity)) ?? new Set()).add(entity))
    const fold = (entity: string) => (sharers.get(firstWord(entity))!.size > 1 ? firstWord(entity) : entity)
    const folded = entities.map((entity, index) => (declared[index] === undefined ? fold(entity) : entity))
    entities = count(folded) > maxGroups ? pooled(entities, declared) : folded
  } else {
    entities = lone
  }
  return entities.map((entity, index) => ({id: declared[index] !== undefined || entity === 'Other' ? entity : groupId(entity), label: entity}))
}

/**
 * A group of one row tells a reader little: an entity with one operation joins the entity named by its first word
 * (Shopify's `cartNoteUpdate: CartNoteUpdatePayload` goes to `Cart`, beside `cartCreate`), or, where no entity has
 * that name, the other entities with one operation under it, named by the words they all share (`BankAccountBalance`
 * and `BankDebitSetup` -> `Bank`). Alone under its first word, it keeps its own group.
 */
function joinedLoneEntities(entities: string[], declared: Array<string | undefined>, firstWord: (entity: string) => string): string[] {
  // Entities only: a declared category of the same name is another group (its id is not made plural).
  const operations = new Map<string, number>()
  entities.forEach((entity, index) => {
    if (declared[index] === undefined) operations.set(entity, (operations.get(entity) ?? 0) + 1)
  })
  const isLone = (entity: string, index: number) => declared[index] === undefined && operations.get(entity) === 1
  const loneByWord = new Map<string, string[]>()
  entities.forEach((entity, index) => {
    if (!isLone(entity, index) || firstWord(entity) === entity) return
    const together = loneByWord.get(firstWord(entity)) ?? []
    loneByWord.set(firstWord(entity), together)
    together.push(entity)
  })
  return entities.map((entity, index) => {
    if (!isLone(entity, index) || firstWord(entity) === entity) return entity
    const word = firstWord(entity)
    if (operations.has(word)) return word
    const together = loneByWord.get(word)!
    return together.length > 1 ? sharedWords(together, true) : entity
  })
}

/** The words of a name (`AppSecondFactor` -> `App`, `Second`, `Factor`; `CMSLastAccess` -> `CMS`, `Last`, `Access`). */
function wordsOf(name: string): string[] {
  return name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+/g) ?? [name]
}

/** A word as groups compare it: case and a plural `s` aside (`Sets` and `set` are one). */
function wordKey(word: string): string {
  const lower = word.toLowerCase()
  return lower.length > 3 && lower.endsWith('s') && !lower.endsWith('ss') ? lower.slice(0, -1) : lower
}

/**
 * Groups for more entities than `maxGroups`: an operation may join the group of its entity's first word
 * (`ProductVariant` -> `Product`) or of its last (`AppSecondFactor`, `SmsSecondFactor` -> `Factor`). The largest such
 * group is taken first, with the operations not placed yet, then the next, until the room is used; what is left (and
 * any group of one) goes to `Other`. A group is named by the words all its entities share at that end
 * (`SecondFactor`), as the shortest of them writes them.
 */
function pooled(entities: string[], declared: Array<string | undefined>): string[] {
  const ends = entities.map((entity, index) => {
    if (declared[index] !== undefined) return []
    const words = wordsOf(entity)
    return [`first ${wordKey(words[0])}`, `last ${wordKey(words.at(-1)!)}`]
  })
  const members = new Map<string, number[]>()
  ends.forEach((keys, index) => {
    for (const key of new Set(keys)) members.set(key, [...(members.get(key) ?? []), index])
  })
  const chosen: Array<string | undefined> = entities.map((entity, index) => declared[index])
  const room = Math.max(maxGroups - new Set(declared.filter(Boolean)).size - 1, 0)
  for (let slot = 0; slot < room; slot++) {
    let best: {key: string; free: number[]} | undefined
    for (const [key, indexes] of members) {
      const free = indexes.filter((index) => chosen[index] === undefined)
      // Ties go to the first word, the one the names lead with.
      if (!best || free.length > best.free.length || (free.length === best.free.length && key.startsWith('first') && best.key.startsWith('last'))) best = {key, free}
    }
    if (!best || best.free.length < 2) break
    const label = sharedWords(best.free.map((index) => entities[index]), best.key.startsWith('first'))
    for (const index of best.free) chosen[index] = label
    members.delete(best.key)
  }
  return chosen.map((label) => label ?? 'Other')
}

/** The words that every name shares at its start (or end), as the name with fewest words writes them. */
function sharedWords(names: string[], atStart: boolean): string {
  const split = names.map((name) => (atStart ? wordsOf(name) : wordsOf(name).reverse()))
  const shortest = split.reduce((a, b) => (b.length < a.length ? b : a))
  let length = 0
  while (length < shortest.length && split.every((words) => wordKey(words[length] ?? '') === wordKey(shortest[length]))) length++
  const shared = shortest.slice(0, Math.max(length, 1))
  return (atStart ? shared : shared.reverse()).map((word) => word[0].toUpperCase() + word.slice(1)).join('')
}
