/**
 * import-graphql: a GraphQL schema becomes a catalogue. Every field of Query, Mutation and Subscription is an
 * endpoint: method `QUERY`, `MUTATION` or `SUBSCRIPTION`; the operation signature as the path
 * (`pet(id: ID!): Pet`); arguments as params `in: arg` (`required` for non-null ones
 * without a default; with one, `x-non-null`); the return type as the
 * response (`[Pet!]!` -> `Pet[]`); a single input-object argument as the request; the description's first line as
 * the summary and the whole as the description; `@deprecated` as `deprecated`. Endpoints are grouped by the
 * schema's own categories, else by the entity their name is about (see groups.ts). Types are those the operations
 * reach (all with `allTypes`), root types included when a field returns one; built-in scalars and introspection
 * types left out. Ids are unique across endpoints, groups and types. `meta.api_kind` is `graphql`.
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {astFromValue, getNamedType, isInputObjectType, isInterfaceType, print, type GraphQLField, type GraphQLNamedType, type GraphQLObjectType, type GraphQLSchema} from 'graphql'
import type {Processor} from 'unified'
import type {VFile} from 'vfile'
import type {GraphqlTree} from '../parse-graphql.js'
import {translatePaths} from '../../pipeline/position.js'
import {hasErrors, type CatalogueTree} from '../../pipeline/data.js'
import {ApipeError, show} from '../../pipeline/errors.js'
import {ruleSet, type RuleSetting} from '../../pipeline/rule.js'
import {importRule, note} from '../shared/import-findings.js'
import type {Catalogue, Endpoint, Group} from '../../schemas/types/endpoints.js'
import {describe} from '../shared/describe.js'
import {argumentParam, isCatalogued, referencedTypes, typeDefinition, typeExpression} from './types.js'
import {addJsonOutput} from '../../pipeline/outputs.js'
import {separateIds} from '../shared/separate-ids.js'
import {groupOperations} from './groups.js'

/** Options of import-graphql. */
export interface Options {
  /** Keep every type of the schema, not only those the operations reach (default: false). */
  allTypes?: boolean
  /** `meta.title` (default: the file name, or its folder's for generic names like `schema.graphql`). */
  title?: string
}

const roots = [
  ['QUERY', 'getQueryType'],
  ['MUTATION', 'getMutationType'],
  ['SUBSCRIPTION', 'getSubscriptionType']
] as const

/**
 * Rule `graphql-schema` (warning): the SDL breaks one of GraphQL's rules that the import can read past (a type, field,
 * argument or enum value defined twice: the last definition counts; an extension of a type never defined: left out).
 * Noted by parse-graphql, at its line and column.
 */
export const graphqlSchema = importRule<GraphqlTree>({id: 'graphql-schema', severity: 'warn'})

/** Rule `graphql` (error): the schema has nothing to import, no operation of Query, Mutation or Subscription. */
export const graphqlDocument = importRule<GraphqlTree>({id: 'graphql', severity: 'error'})

/** Import GraphQL trees into catalogue trees, and add `<name>.endpoints.json` as an output. */
export default function importGraphql(this: Processor | void, options: Options = {}) {
  if (options.allTypes !== undefined && typeof options.allTypes !== 'boolean') {
    throw new ApipeError('APIPE_ERR_OPTION', [show(options.allTypes), 'allTypes', 'a boolean'])
  }
  const rules = ruleSet([graphqlDocument, graphqlSchema], {}, (this ? this.data('settings')?.rules : undefined) as Record<string, RuleSetting> | undefined)
  return (tree: GraphqlTree, file: VFile): CatalogueTree | undefined => {
    if (tree.type !== 'graphql') return undefined
    const spec = graphqlCatalogue(tree, file, options)
    // As the OpenAPI and AsyncAPI imports: never an empty catalogue without a word (a file of types that a schema
    // elsewhere puts to use, or a `schema {}` that names no root).
    if (spec.endpoints.length === 0) note(file, 'graphql', 'Unexpected schema without operations, expected a `Query`, `Mutation` or `Subscription` type with fields (or a `schema { query: … }` that names one)')
    rules?.(tree, file)
    if (hasErrors(file)) return undefined
    const stem = file.stem ?? 'schema'
    addJsonOutput(file, `${stem}.endpoints.json`, spec)
    // Catalogue paths have no place in this source: findings about them carry none.
    translatePaths(file, () => undefined)
    return {type: 'catalogue', spec}
  }
}

/** The catalogue of a GraphQL schema. */
export function graphqlCatalogue(tree: GraphqlTree, file: VFile, options: Options = {}): Catalogue {
  const {schema} = tree
  const endpoints: Endpoint[] = []
  const groups = new Map<string, Group>()
  const ids = new Set<string>()
  const rootTypes = new Set<GraphQLObjectType>()
  const operations: Array<{field: GraphQLField<unknown, unknown>; method: Endpoint['method']}> = []
  for (const [method, getter] of roots) {
    const root = schema[getter]() as GraphQLObjectType | null | undefined
    if (!root) continue
    rootTypes.add(root)
    for (const field of Object.values(root.getFields())) operations.push({field, method})
  }
  const grouped = groupOperations(operations.map(({field}) => field), rootTypes)
  for (const [index, {field, method}] of operations.entries()) {
    const endpoint = operation(field, method, uniqueId(field.name, method, ids), grouped[index].id)
    if (!groups.has(endpoint.group!)) groups.set(endpoint.group!, grouped[index].id === grouped[index].label ? {id: endpoint.group!} : {id: endpoint.group!, label: grouped[index].label})
    endpoints.push(endpoint)
  }
  // A root type is a type like any other when a field returns it (`relay: Query!`); only then, or with allTypes.
  const named = options.allTypes
    ? Object.values(schema.getTypeMap())
    : reached(endpoints.length === 0 ? [] : [...rootTypes].flatMap((root) => Object.values(root.getFields()).flatMap(fieldTypes)), schema)
  const types = named.filter((type) => isCatalogued(type)).map(typeDefinition)
  const meta: Catalogue['meta'] = {title: options.title ?? titleFromPath(file), api_kind: 'graphql'}
  if (schema.description?.trim()) meta.description = schema.description.trim()
  // `Other` (the operations no group took) comes last, as a reader looks for it.
  const ordered = [...groups.values()].sort((a, b) => Number(a.id === 'Other') - Number(b.id === 'Other'))
  const spec: Catalogue = {schema_version: 1, diagram_type: 'endpoints', meta, groups: ordered, endpoints, types}
  separateIds(spec)
  return spec
}

function operation(field: GraphQLField<unknown, unknown>, method: Endpoint['method'], id: string, group: string): Endpoint {
  const args = field.args.map((arg) => {
    const fallback = arg.defaultValue === undefined ? undefined : astFromValue(arg.defaultValue, arg.type)
    return `${arg.name}: ${String(arg.type)}${fallback ? ` = ${print(fallback)}` : ''}`
  })
  const endpoint: Endpoint = {
    id,
    method,
    path: `${field.name}${args.length > 0 ? `(${args.join(', ')})` : ''}: ${String(field.type)}`,
    group,
    ...describe(field.description)
  }
  if (field.args.length > 0) endpoint.params = field.args.map(argumentParam)
  const inputs = field.args.filter((arg) => isInputObjectType(getNamedType(arg.type)))
  if (inputs.length === 1) endpoint.request = typeExpression(inputs[0].type)
  endpoint.response = typeExpression(field.type)
  if (field.deprecationReason != null) {
    endpoint.deprecated = true
    if (field.deprecationReason) endpoint['x-deprecation-reason'] = field.deprecationReason
  }
  return endpoint
}

/** Field names are unique per root type; across roots, a clash gets the root's name (`nodeMutation`). */
function uniqueId(name: string, method: string, ids: Set<string>): string {
  let id = name
  if (ids.has(id)) id = `${name}${method[0]}${method.slice(1).toLowerCase()}`
  for (let counter = 2; ids.has(id); counter++) id = `${name}${counter}`
  ids.add(id)
  return id
}

function fieldTypes(field: GraphQLField<unknown, unknown>): GraphQLNamedType[] {
  return [getNamedType(field.type), ...field.args.map((arg) => getNamedType(arg.type))]
}

/**
 * Every named type reachable from `start` through fields, arguments, members and interfaces, and the types that
 * implement an interface reached (what a field returning it may hold), in first-seen order.
 */
function reached(start: GraphQLNamedType[], schema: GraphQLSchema): GraphQLNamedType[] {
  const seen = new Set<GraphQLNamedType>()
  const queue = [...start]
  while (queue.length > 0) {
    const type = queue.shift()!
    if (seen.has(type)) continue
    seen.add(type)
    queue.push(...referencedTypes(type))
    if (isInterfaceType(type)) queue.push(...schema.getPossibleTypes(type))
  }
  return [...seen]
}

const genericNames = new Set(['schema', 'index', 'api', 'graphql', 'introspection', 'openapi', 'swagger', 'asyncapi'])
/** Folders that say where a file sits, not what it is (`package` is the folder of every npm tarball). */
const placeFolders = new Set(['package', 'dist', 'build', 'lib', 'src', 'generated', 'schemas', 'spec', 'specs', 'docs'])

/**
 * A title from the file name without its generic closing words (Shopify's `storefront.schema.json` -> `storefront`);
 * when the name says nothing else, its folder's name (`swapi/schema.graphql` -> `swapi`); where that folder only says
 * where the file sits (`package`, `dist`), the `name` of a package.json there (an npm package's
 * `package/schema.graphql` -> `@octokit/graphql-schema`), else the folder above.
 */
export function titleFromPath(file: VFile): string {
  const parts = (file.stem ?? '').replace(/^_+/, '').split('.')
  while (parts.length > 1 && genericNames.has(parts.at(-1)!.toLowerCase())) parts.pop()
  const stem = parts.join('.')
  if (stem && !genericNames.has(stem.toLowerCase())) return stem
  let at = file.dirname ? path.resolve(file.cwd, file.dirname) : undefined
  for (let step = 0; at && step < 4; step++, at = path.dirname(at) === at ? undefined : path.dirname(at)) {
    const name = path.basename(at)
    if (!placeFolders.has(name.toLowerCase())) return name || stem || 'API'
    const named = packageName(at)
    if (named) return named
  }
  return stem || 'API'
}

/** The `name` of the package.json in `folder`, when it has one. */
function packageName(folder: string): string | undefined {
  try {
    const name = (JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as {name?: unknown}).name
    return typeof name === 'string' && name.trim() ? name.trim() : undefined
  } catch {
    // No package.json here, or not one that can be read.
    return undefined
  }
}

