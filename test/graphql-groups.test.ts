/** Grouping of GraphQL operations past the group limit (plugins/import-graphql/groups.ts). */
import {buildSchema, type GraphQLNamedType, type GraphQLObjectType, type GraphQLSchema} from 'graphql'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {VFile} from 'vfile'
import {groupOperations, maxGroups} from '../plugins/import-graphql/groups.js'
import {graphqlCatalogue} from '../plugins/import-graphql/index.js'

test('past the limit, operations join the largest groups by the first or last word of their entity, the rest go to Other', () => {
  const factors = ['AppSecondFactor', 'SmsSecondFactor', 'BackupSecondFactor']
  // 45 one-word entities with two operations each: with the three factors, 48 entities for 40 groups.
  const fillers = Array.from({length: 45}, (_, index) => `W${String.fromCharCode(97 + Math.floor(index / 26))}${String.fromCharCode(97 + (index % 26))}`)
  const types = [...factors, ...fillers].map((name) => `type ${name} { id: ID }`).join('\n')
  const queries = fillers.map((name) => `${name.toLowerCase()}: ${name}\n${name.toLowerCase()}List: [${name}]`).join('\n')
  const mutations = factors.map((name) => `create${name}: ${name}\nupdate${name}: ${name}`).join('\n')
  const schema = buildSchema(`${types}\ntype Query {\n${queries}\n}\ntype Mutation {\n${mutations}\n}`)
  const {fields, groups} = grouped(schema)
  const byName = new Map(fields.map((field, index) => [field.name, groups[index]]))
  assert.equal(byName.get('createSmsSecondFactor'), {id: 'SecondFactors', label: 'SecondFactor'})
  assert.equal(byName.get('updateBackupSecondFactor'), {id: 'SecondFactors', label: 'SecondFactor'})
  assert.equal(byName.get('waa'), {id: 'Waas', label: 'Waa'})
  assert.is(new Set(groups.map((group) => group.id)).size, maxGroups)
  assert.is(groups.filter((group) => group.id === 'Other').length, (45 - (maxGroups - 2)) * 2)
  // In the catalogue, `Other` is the last group, though its first operation comes before others'.
  const catalogue = graphqlCatalogue({type: 'graphql', schema}, new VFile({path: 'fillers.graphql'}))
  assert.is(catalogue.groups!.at(-1)!.id, 'Other')
  assert.is(catalogue.groups!.filter((group) => group.id === 'Other').length, 1)
  assert.ok(catalogue.endpoints.findIndex((endpoint) => endpoint.group === 'Other') < catalogue.endpoints.findIndex((endpoint) => endpoint.group === 'SecondFactors'))
})

test('a type named with a word that is also a verb is an entity; a payload named after its operation reads like the operation', () => {
  const schema = buildSchema(`
    type Link { id: ID! }
    type LinkSubscriptionPayload { node: Link }
    type RequestRefundPayload { ok: Boolean }
    type CheckRun { id: ID! }
    type CheckRunConnection { nodes: [CheckRun] }
    type Query { link(id: ID!): Link, checkRuns: CheckRunConnection }
    type Mutation { createLink(url: String!): Link, updateManyLinks(url: String): Int, requestRefund(id: ID!): RequestRefundPayload }
    type Subscription { link: LinkSubscriptionPayload }
  `)
  const {operations: named, groups} = grouped(schema)
  const byName = Object.fromEntries(named.map(({root, field}, index) => [`${root}.${field.name}`, groups[index].id]))
  assert.equal(byName, {
    'Query.link': 'Links',
    'Query.checkRuns': 'CheckRuns',
    'Mutation.createLink': 'Links',
    'Mutation.updateManyLinks': 'Links',
    'Mutation.requestRefund': 'Refunds',
    'Subscription.link': 'Links'
  })
})

test('GitHub-style mutations: a verb that opens the name, or a noun-or-verb word that opens it, is the action; after a verb such a word is the entity; `As` ends it', () => {
  // Two operations each for CheckRun and CheckSuite: an entity with one would join their shared first word (`Check`).
  const payloads = ['AbortQueuedMigrations', 'UnmarkFileAsViewed', 'MarkFileAsViewed', 'CreateCheckRun', 'UpdateCheckRun', 'RerequestCheckSuite', 'UpdateCheckSuite', 'FollowUser', 'UnfollowUser', 'RegenerateVerifiableDomainToken']
  const schema = buildSchema(`
    type User { id: ID! }
    ${payloads.map((name) => `type ${name}Payload { clientMutationId: String }`).join('\n')}
    type Query { user(login: String!): User }
    type Mutation { ${payloads.map((name) => `${name[0].toLowerCase()}${name.slice(1)}(id: ID!): ${name}Payload`).join(', ')} }
  `)
  const {fields, groups} = grouped(schema)
  assert.equal(Object.fromEntries(fields.map((field, index) => [field.name, groups[index].id])), {
    user: 'Users',
    abortQueuedMigrations: 'Migrations',
    unmarkFileAsViewed: 'Files',
    markFileAsViewed: 'Files',
    createCheckRun: 'CheckRuns',
    updateCheckRun: 'CheckRuns',
    rerequestCheckSuite: 'CheckSuites',
    updateCheckSuite: 'CheckSuites',
    followUser: 'Users',
    unfollowUser: 'Users',
    regenerateVerifiableDomainToken: 'VerifiableDomainTokens'
  })
})


test('a connection of scalars names no entity: the operation acts on what its own name says, then joins the entity its first word names (Shopify: `productTags: StringConnection!`)', () => {
  const schema = buildSchema(`
    type Product { id: ID! }
    type ProductConnection { nodes: [Product!]! }
    type StringConnection { nodes: [String!]! }
    type Query { products: ProductConnection!, productTags(first: Int!): StringConnection!, productTypes(first: Int!): StringConnection! }
  `)
  const {fields, groups} = grouped(schema)
  assert.equal(Object.fromEntries(fields.map((field, index) => [field.name, groups[index].id])), {products: 'Products', productTags: 'Products', productTypes: 'Products'})
})

test('an entity with one operation joins the entity its first word names, else the others with one operation under that word; alone there, it keeps its group', () => {
  const names = ['Cart', 'CartLine', 'CartNote', 'BankAccountBalance', 'BankDebitSetup', 'ApplePayCard', 'ApplePaySession', 'PaymentSettings']
  const schema = buildSchema(`
    ${names.map((name) => `type ${name} { id: ID }`).join('\n')}
    type Query { cart: Cart, bankAccountBalance: BankAccountBalance, bankDebitSetup: BankDebitSetup, applePaySession: ApplePaySession, paymentSettings: PaymentSettings }
    type Mutation { cartCreate: Cart, cartLinesAdd: CartLine, cartLinesRemove: CartLine, cartNoteUpdate: CartNote, applePayCardAdd: ApplePayCard, applePayCardRemove: ApplePayCard }
  `)
  const {fields, groups} = grouped(schema)
  assert.equal(Object.fromEntries(fields.map((field, index) => [field.name, groups[index].label])), {
    cart: 'Cart',
    bankAccountBalance: 'Bank',
    bankDebitSetup: 'Bank',
    applePaySession: 'ApplePaySession',
    paymentSettings: 'PaymentSettings',
    cartCreate: 'Cart',
    cartLinesAdd: 'CartLine',
    cartLinesRemove: 'CartLine',
    cartNoteUpdate: 'Cart',
    applePayCardAdd: 'ApplePayCard',
    applePayCardRemove: 'ApplePayCard'
  })
  // A category the schema declares is not an entity to join: `Cart` declared, `CartNote` keeps its own group.
  const declaring = buildSchema(`
    directive @tag(name: String!) on FIELD_DEFINITION
    type Cart { id: ID }
    type CartNote { id: ID }
    type Query { cart: Cart @tag(name: "Cart") }
    type Mutation { cartNoteUpdate: CartNote }
  `)
  const {fields: tagged, groups: taggedGroups} = grouped(declaring)
  assert.equal(Object.fromEntries(tagged.map((field, index) => [field.name, taggedGroups[index]])), {cart: {id: 'Cart', label: 'Cart'}, cartNoteUpdate: {id: 'CartNotes', label: 'CartNote'}})
})

test('an action on no entity is grouped under its verb (Shopify and GitHub: `search: SearchResultItemConnection`, `predictiveSearch: PredictiveSearchResult`)', () => {
  const schema = buildSchema(`
    type Product { id: ID! }
    type SearchResultItemConnection { nodes: [Product!]! }
    type PredictiveSearchResult { products: [Product!]! }
    type CartCreatePayload { ok: Boolean }
    type Query { search(query: String!): SearchResultItemConnection!, predictiveSearch(query: String!): PredictiveSearchResult, product: Product }
    type Mutation { cartCreate: CartCreatePayload }
  `)
  const {fields, groups} = grouped(schema)
  assert.equal(Object.fromEntries(fields.map((field, index) => [field.name, groups[index].label])), {search: 'Search', predictiveSearch: 'Search', product: 'Product', cartCreate: 'Cart'})
})

test('past the limit, only entities that share their first word fold into it; one alone keeps its name; `Address` is made plural', () => {
  // 37 one-word entities, `ProductVariant` and `ProductImage` (which fold into `Product`), `PaymentSettings` and
  // `CustomerAddress`: 41 entities, 40 once folded.
  const fillers = Array.from({length: 37}, (_, index) => `W${String.fromCharCode(97 + Math.floor(index / 26))}${String.fromCharCode(97 + (index % 26))}`)
  const names = [...fillers, 'ProductVariant', 'ProductImage', 'PaymentSettings', 'CustomerAddress']
  const schema = buildSchema(`${names.map((name) => `type ${name} { id: ID }`).join('\n')}\ntype Query {\n${names.map((name) => `${name[0].toLowerCase()}${name.slice(1)}: ${name}`).join('\n')}\n}`)
  const {fields, groups} = grouped(schema)
  const byName = new Map(fields.map((field, index) => [field.name, groups[index]]))
  assert.equal(byName.get('productVariant'), {id: 'Products', label: 'Product'})
  assert.equal(byName.get('productImage'), {id: 'Products', label: 'Product'})
  assert.equal(byName.get('paymentSettings'), {id: 'PaymentSettings', label: 'PaymentSettings'})
  assert.equal(byName.get('customerAddress'), {id: 'CustomerAddresses', label: 'CustomerAddress'})
})

/** The operations of every root type of `schema`, in order, with their groups. */
function grouped(schema: GraphQLSchema) {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter((root): root is GraphQLObjectType => Boolean(root))
  const operations = roots.flatMap((root) => Object.values(root.getFields()).map((field) => ({root: root.name, field})))
  const fields = operations.map(({field}) => field)
  return {fields, operations, groups: groupOperations(fields, new Set<GraphQLNamedType>(roots))}
}

test.run()
