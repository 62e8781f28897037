/**
 * import-openapi: an OpenAPI 3.0/3.1 or Swagger 2.0 document (after resolve-refs) becomes a catalogue, replacing the
 * tree and adding `<name>.endpoints.json` as an output. Operations become endpoints (see operations.ts); a path item
 * or an operation may be a `$ref` (to another file: split descriptions write one file per operation). OpenAPI 3.1
 * `webhooks` (and the older `x-webhooks` extension) become `EVENT` endpoints with the webhook name as the path; 3.x
 * `callbacks` one `EVENT` endpoint per callback event, with the callback's name and expression as the path. The
 * first tag of each operation is its group (described and labelled from the document's `tags`), untagged ones go to
 * `default`. Types are the schemas operations reach (every one with `allTypes`). Endpoint ids and group ids that
 * clash with a type name or with each other are made unique (see separate-ids.ts). What cannot be imported is an
 * `openapi-dropped` warning; a document that cannot be imported at all is an `openapi` error.
 * `meta`: `info.title`, `info.version`, `info.description`, `api_kind: rest`, and `base_url` from `servers[0]`
 * (variables set to their defaults) or Swagger 2 `schemes[0]://host basePath`.
 */
import path from 'node:path'
import type {VFile} from 'vfile'
import type {ParsedTree} from '../parse.js'
import {hasErrors, type CatalogueTree} from '../../pipeline/data.js'
import {ApipeError, show} from '../../pipeline/errors.js'
import {ruleSet, type RuleSetting} from '../../pipeline/rule.js'
import type {Processor} from 'unified'
import type {JsonPath} from '../../pipeline/json-path.js'
import {translatePaths} from '../../pipeline/position.js'
import type {Catalogue, Endpoint, Group} from '../../schemas/types/endpoints.js'
import {authSchemes} from './auth.js'
import type {Context} from './context.js'
import {methodNames, methodsOf, operationEndpoint, paramOrigins, serverUrl} from './operations.js'
import {JsonRefs} from '../shared/json-refs.js'
import {pascal, record, text} from '../shared/readers.js'
import {SchemaTypes} from '../shared/schema-types.js'
import {renameTypes} from '../shared/rename-types.js'
import {separateIds} from '../shared/separate-ids.js'
import {importRule, note} from '../shared/import-findings.js'
import {addJsonOutput} from '../../pipeline/outputs.js'

/** Options of import-openapi. */
export interface Options {
  /** Keep every schema of the document as a type, not only those operations reach (default: false). */
  allTypes?: boolean
}

/** Rule `openapi` (error): the document cannot be imported (not OpenAPI, an unknown version, no operations). */
export const openapiDocument = importRule<ParsedTree>({id: 'openapi', severity: 'error'})

/** Rule `openapi-dropped` (warning): part of the document has no catalogue equivalent and is left out, said where. */
export const openapiDropped = importRule<ParsedTree>({id: 'openapi-dropped', severity: 'warn'})

/** Import OpenAPI trees into catalogue trees. */
export default function importOpenapi(this: Processor | void, options: Options = {}) {
  if (options.allTypes !== undefined && typeof options.allTypes !== 'boolean') {
    throw new ApipeError('APIPE_ERR_OPTION', [show(options.allTypes), 'allTypes', 'a boolean'])
  }
  const rules = ruleSet([openapiDocument, openapiDropped], {}, (this ? this.data('settings')?.rules : undefined) as Record<string, RuleSetting> | undefined)
  return (tree: ParsedTree, file: VFile): CatalogueTree | undefined => {
    if (hasErrors(file)) return undefined
    const catalogue = importTree(tree, file, options)
    rules?.(tree, file)
    return hasErrors(file) ? undefined : catalogue
  }
}

function importTree(tree: ParsedTree, file: VFile, options: Options): CatalogueTree | undefined {
  if (tree.type !== 'openapi') {
    // What the file is instead, when it says: an AsyncAPI document, or a catalogue already.
    const spec = tree.type === 'catalogue' ? (tree.spec as unknown as Record<string, unknown>) : undefined
    const instead = tree.type === 'asyncapi' ? ' (this is an AsyncAPI document: `pipe import asyncapi`)' : spec && spec.diagram_type === 'endpoints' && Array.isArray(spec.endpoints) ? ' (this is an endpoint catalogue already: `pipe validate`, `pipe render`)' : ' (a file other documents reference is not one)'
    note(file, 'openapi', `Unexpected document without an \`openapi\` or \`swagger\` field, expected an OpenAPI 3.x or Swagger 2.0 document${instead}`)
    return undefined
  }
  if (!/^(2\.0|3\.[01])/.test(tree.version)) {
    note(file, 'openapi', `Unexpected version \`${tree.version}\`, expected OpenAPI 3.0, 3.1 or Swagger 2.0`, ['openapi' in tree.document ? 'openapi' : 'swagger'])
    return undefined
  }
  const refs = file.data.refs ?? JsonRefs.of(tree.document, file)
  const {spec, sources, dropped, schemas} = openapiCatalogue(tree.document, options, refs)
  for (const {reason, path: at} of dropped) note(file, 'openapi-dropped', reason, at)
  // Findings about the catalogue point at what they came from: an endpoint at its operation, a type at its schema.
  // What that needs of the document is kept, and the document itself let go with its refs: a vfile that outlives the
  // run (the programmatic API returns them) does not hold the source document through them.
  translatePaths(file, (at) => sourceOf(at, spec, sources, schemas))
  delete file.data.refs
  if (spec.endpoints.length === 0) {
    note(file, 'openapi', 'Unexpected document without operations, expected at least one operation under `paths` (or a webhook)', ['paths'])
    return undefined
  }
  const stem = (file.stem ?? 'openapi').replace(/\.(openapi|swagger)$/, '')
  addJsonOutput(file, `${stem}.endpoints.json`, spec)
  return {type: 'catalogue', spec}
}

/** Something of the document left out of the catalogue, and where. */
export interface Dropped {
  reason: string
  path: JsonPath
}

/**
 * The catalogue of an OpenAPI or Swagger document, with the source path of each endpoint, what was left out, and the
 * names of the schemas the document defines (where findings about types point).
 * `refs` follows the document's refs (pass a `JsonRefs` made with the document's path, or the path, so that refs to
 * other files resolve).
 */
export function openapiCatalogue(source: Record<string, unknown>, options: Options = {}, refsOrPath?: JsonRefs | string): {spec: Catalogue; sources: JsonPath[]; dropped: Dropped[]; schemas: SchemaNames} {
  const refs = refsOrPath instanceof JsonRefs ? refsOrPath : new JsonRefs(source, refsOrPath)
  const document = withMapsFollowed(source, refs)
  const dropped: Dropped[] = []
  const reported = new WeakSet<object>()
  // Where each dropped node of the root sits is found once the import is done, by one walk (`pathsOf`).
  const placed: Array<{entry: Dropped; node: object}> = []
  const drop = (reason: string, node: object) => {
    if (reported.has(node)) return
    reported.add(node)
    const inRoot = refs.fileOf(node) === refs.rootFile
    const entry: Dropped = {reason: inRoot ? reason : `${reason} (in \`${path.relative(path.dirname(refs.rootFile), refs.fileOf(node))}\`)`, path: []}
    dropped.push(entry)
    if (inRoot) placed.push({entry, node})
  }
  // OpenAPI 3.1's document check leaves schemas to JSON Schema, so that no check reads their types: the import does.
  // OpenAPI 3.1's schemas are JSON Schema 2020-12, whose `$dynamicRef`s a `$dynamicAnchor` binds.
  const v31 = /^3\.1\./.test(String(document.openapi))
  const types = new SchemaTypes(refs, drop, {unknownTypes: v31, mergeInline: true, dynamicRefs: v31})
  const context: Context = {document, refs, types, ids: new Set(), drop}
  const endpoints: Endpoint[] = []
  const sources: JsonPath[] = []
  const seenCallbacks = new Set<object>()
  const eventPaths = new Set<string>()
  for (const [route, rawItem] of Object.entries(record(document.paths))) {
    const item = refs.resolve(rawItem).value ?? {}
    // TRACE has no catalogue method: said, not silently skipped.
    if (item.trace) dropped.push({reason: `Left out operation \`trace\` of \`${route}\`: the catalogue has no TRACE method`, path: ['paths', route, 'trace']})
    for (const method of methodsOf(item)) {
      // Operation-level `$ref` (`get: {$ref: ./operations/list.yaml}`) is not OpenAPI 3.0 but common: followed.
      const operation = refs.resolve(item[method]).value
      if (!operation) continue
      const endpoint = operationEndpoint(context, method, route, item, operation, 'route')
      endpoints.push(endpoint)
      sources.push(['paths', route, method])
      const events = callbacks(context, operation, endpoint, seenCallbacks, eventPaths)
      endpoints.push(...events)
      sources.push(...events.map((): JsonPath => ['paths', route, method, 'callbacks']))
    }
  }
  for (const key of ['webhooks', 'x-webhooks'] as const) {
    if (document[key] === undefined) continue
    if (!isMapOfObjects(document[key])) {
      dropped.push({reason: `Left out \`${key}\`: expected a map of webhook names to path items`, path: [key]})
      continue
    }
    for (const [name, rawItem] of Object.entries(record(document[key]))) {
      const item = refs.resolve(rawItem).value ?? {}
      const operations = methodsOf(item)
      if (operations.length === 0) dropped.push({reason: `Left out webhook \`${name}\`: expected a path item with at least one operation (\`post\`, …)`, path: [key, name]})
      for (const method of operations) {
        const operation = refs.resolve(item[method]).value
        if (!operation) continue
        endpoints.push(operationEndpoint(context, method, name, item, operation, 'event'))
        sources.push([key, name, method])
      }
    }
  }
  if (options.allTypes) {
    types.addAll(record(record(document.components).schemas), '#/components/schemas/')
    types.addAll(record(document.definitions), '#/definitions/')
  }
  const info = record(document.info)
  const meta: Catalogue['meta'] = {title: text(info.title)?.trim() ?? 'API'}
  // `version: 1.2` unquoted in YAML is a number (the schema check warns): kept as JavaScript prints it.
  if (text(info.version) || typeof info.version === 'number') meta.version = String(info.version)
  const baseUrl = baseUrlOf(document)
  if (baseUrl) meta.base_url = baseUrl
  meta.api_kind = 'rest'
  // A description may be a `$ref` to a Markdown file (a Redocly convention split descriptions use).
  const description = refs.text(info.description)
  if (description) meta.description = description.trim()
  const schemes = authSchemes(document, refs)
  if (schemes) meta['x-auth-schemes'] = schemes
  const spec: Catalogue = {schema_version: 1, diagram_type: 'endpoints', meta, groups: groupsOf(document, endpoints, refs), endpoints, types: [...types.types.values()]}
  renameTypes(spec, types.sharedNames())
  separateIds(spec)
  const places = refs.pathsOf(placed.map(({node}) => node))
  placed.forEach(({entry}, index) => (entry.path = places[index]))
  return {spec, sources, dropped, schemas: schemaNames(document)}
}

/** The parts of a document that split descriptions keep in files of their own, each behind one `$ref`. */
const topParts = ['info', 'servers', 'security', 'tags', 'paths', 'webhooks', 'x-webhooks', 'components', 'definitions', 'parameters', 'responses', 'securityDefinitions']

/**
 * The document with its parts read through their refs (`info: {$ref: info.yaml}`, `paths: {$ref:
 * paths/_index.yaml}`, `components: {schemas: {$ref: …}}`): OpenAPI allows no `$ref` there, but split descriptions
 * write them, and mainstream tools follow them. A ref that leads nowhere is nothing, and an `openapi-ref` finding
 * at the ref.
 */
function withMapsFollowed(document: Record<string, unknown>, refs: JsonRefs): Record<string, unknown> {
  const followed = (value: unknown) => (value && typeof value === 'object' && '$ref' in value ? refs.target(value) : value)
  const result = {...document}
  for (const key of topParts) if (key in result) result[key] = followed(result[key])
  if (result.components && typeof result.components === 'object') {
    result.components = Object.fromEntries(Object.entries(result.components).map(([key, value]) => [key, followed(value)]))
  }
  return result
}

function isMapOfObjects(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((item) => item !== null && typeof item === 'object' && !Array.isArray(item))
}

/** Where a path of the imported catalogue comes from in the OpenAPI source (undefined: nowhere in particular). */
function sourceOf(at: JsonPath, spec: Catalogue, sources: JsonPath[], schemas: SchemaNames): JsonPath | undefined {
  const [key, index] = at
  if (key === 'endpoints' && typeof index === 'number' && at[2] === 'params' && typeof at[3] === 'number') {
    // A param at its declaration: in the path item's `parameters`, or the operation's.
    const declared = paramOrigins.get(spec.endpoints[index])?.origins[at[3]]
    const {shared = 0} = paramOrigins.get(spec.endpoints[index]) ?? {}
    const source = sources[index]
    if (declared === undefined || !source || !methodNames.has(String(source.at(-1)))) return source
    return declared < shared ? [...source.slice(0, -1), 'parameters', declared] : [...source, 'parameters', declared - shared]
  }
  if (key === 'endpoints') return typeof index === 'number' ? sources[index] : ['paths']
  if (key === 'groups') return ['tags']
  if (key === 'types' && typeof index === 'number') {
    const type = spec.types?.[index]
    const name = type?.name ?? ''
    const schema = schemas.components.has(name) ? ['components', 'schemas', name] : schemas.definitions.has(name) ? ['definitions', name] : undefined
    // A field is its schema's property; one that an `allOf` member declares is placed at the schema itself.
    const field = at[2] === 'fields' && typeof at[3] === 'number' ? type?.fields?.[at[3]]?.name : undefined
    const place = schema ?? inlineSchemaOf(name, spec, sources)
    if (place) return field === undefined ? place : [...place, 'properties', field]
  }
  if (key === 'meta') return at[1] === 'version' ? ['info', 'version'] : ['info']
  return undefined
}

/**
 * Where an operation's own body schema is, for the type the import named after it (`CreatePetRequest`): its
 * request body's schema (Swagger 2's `body` param has none there: the operation is the closest place), else its
 * responses. Asked only when a finding's place is read.
 */
function inlineSchemaOf(name: string, spec: Catalogue, sources: JsonPath[]): JsonPath | undefined {
  const index = spec.endpoints.findIndex((endpoint) => endpoint.request === name || endpoint.response === name)
  const endpoint = spec.endpoints[index]
  const source = sources[index]
  if (!endpoint || !source) return undefined
  if (endpoint.request === name) return [...source, 'requestBody', 'content', String(endpoint['x-request-media'] ?? 'application/json'), 'schema']
  return [...source, 'responses']
}

/** The names of the schemas a document defines where types come from: OpenAPI 3's components and Swagger's definitions. */
interface SchemaNames {
  components: ReadonlySet<string>
  definitions: ReadonlySet<string>
}

function schemaNames(document: Record<string, unknown>): SchemaNames {
  return {components: new Set(Object.keys(record(record(document.components).schemas))), definitions: new Set(Object.keys(record(document.definitions)))}
}

/**
 * Callbacks of an operation as EVENT endpoints in its group, one per callback event: the path is the callback's
 * name and its expression (`petCreated {$request.body#/callbackUrl}`), since many events share one expression. A
 * callback that several operations reference (one `$ref` target) is one event, under the first.
 */
function callbacks(context: Context, operation: Record<string, unknown>, parent: Endpoint, seen: Set<object>, paths: Set<string>): Endpoint[] {
  const events: Endpoint[] = []
  for (const [name, rawCallback] of Object.entries(record(operation.callbacks))) {
    const callback = context.refs.resolve(rawCallback).value ?? {}
    for (const [expression, rawItem] of Object.entries(callback)) {
      const item = context.refs.resolve(rawItem).value ?? {}
      for (const method of methodsOf(item)) {
        const callbackOperation = context.refs.resolve(item[method]).value
        if (!callbackOperation || seen.has(callbackOperation)) continue
        seen.add(callbackOperation)
        // Without an id or tags of its own, a callback is named after its operation and sits in its group.
        const named = {...callbackOperation}
        if (!text(named.operationId)) named.operationId = `${parent.id}${pascal(name)}`
        if (!(Array.isArray(named.tags) && named.tags.length > 0) && parent.group) named.tags = [parent.group]
        let eventPath = `${name} ${expression}`
        if (paths.has(eventPath)) eventPath = `${parent.id} ${eventPath}`
        paths.add(eventPath)
        events.push(operationEndpoint(context, method, eventPath, item, named, 'event'))
      }
    }
  }
  return events
}

/** Groups in the order of the document's `tags`, then of first use, then `default` when used. */
function groupsOf(document: Record<string, unknown>, endpoints: Endpoint[], refs: JsonRefs): Group[] {
  const declared = new Map<string, Record<string, unknown>>()
  for (const tag of Array.isArray(document.tags) ? document.tags : []) if (text(record(tag).name)) declared.set(String(record(tag).name), record(tag))
  const used = new Set(endpoints.map((endpoint) => endpoint.group ?? 'default'))
  const order = [...[...declared.keys()].filter((id) => used.has(id)), ...[...used].filter((id) => !declared.has(id) && id !== 'default')]
  const groups: Group[] = order.map((id) => {
    const tag = declared.get(id) ?? {}
    const group: Group = {id, label: text(tag['x-displayName']) ?? id}
    const description = refs.text(tag.description)
    if (description) group.description = description.trim()
    return group
  })
  if (used.has('default') && !declared.has('default')) groups.push({id: 'default', label: 'Default'})
  return groups
}

function baseUrlOf(document: Record<string, unknown>): string | undefined {
  const url = serverUrl(document.servers)
  if (url) return url
  if (text(document.host)) {
    const scheme = Array.isArray(document.schemes) && text(document.schemes[0]) ? document.schemes[0] : 'https'
    return `${scheme}://${document.host}${text(document.basePath) ?? ''}`
  }
  return text(document.basePath)
}
