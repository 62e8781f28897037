/**
 * import-openapi: an OpenAPI 3.0/3.1 or Swagger 2.0 document (after resolve-refs) becomes a catalogue, replacing the
 * tree and adding `<name>.endpoints.json` as an output. Operations become endpoints (see operations.ts), OpenAPI
 * 3.1 `webhooks` and 3.x `callbacks` become `EVENT` endpoints with the webhook name or callback expression as the
 * path, the first tag of each operation is its group (described and labelled from the document's `tags`),
 * untagged ones go to `default`. Types are the schemas operations reach (every one with `allTypes`).
 * `meta`: `info.title`, `info.version`, `info.description`, `api_kind: rest`, and `base_url` from `servers[0]`
 * (variables set to their defaults) or Swagger 2 `schemes[0]://host basePath`.
 */
import path from 'node:path'
import type {VFile} from 'vfile'
import type {ParsedTree} from '../parse.js'
import {hasErrors, type CatalogueTree} from '../../pipeline/data.js'
import {ApipeError, show} from '../../pipeline/errors.js'
import {createFinding} from '../../pipeline/rule.js'
import type {JsonPath} from '../../pipeline/json-path.js'
import {translatePaths} from '../../pipeline/position.js'
import type {Catalogue, Endpoint, Group} from '../../schemas/types/endpoints.js'
import {methods, operationEndpoint, type Context} from './operations.js'
import {JsonRefs} from '../shared/json-refs.js'
import {pascal, record, text} from '../shared/readers.js'
import {SchemaTypes} from '../shared/schema-types.js'
import {addJsonOutput} from '../../pipeline/outputs.js'

/** Options of import-openapi. */
export interface Options {
  /** Keep every schema of the document as a type, not only those operations reach (default: false). */
  allTypes?: boolean
}

/** Import OpenAPI trees into catalogue trees. */
export default function importOpenapi(options: Options = {}) {
  if (options.allTypes !== undefined && typeof options.allTypes !== 'boolean') {
    throw new ApipeError('APIPE_ERR_OPTION', [show(options.allTypes), 'allTypes', 'a boolean'])
  }
  return (tree: ParsedTree, file: VFile): CatalogueTree | undefined => {
    if (hasErrors(file)) return undefined
    if (tree.type !== 'openapi') {
      fail(file, 'Unexpected document without an `openapi` or `swagger` field, expected an OpenAPI 3.x or Swagger 2.0 document (a file other documents reference is not one)')
      return undefined
    }
    if (!/^(2\.0|3\.[01])/.test(tree.version)) {
      fail(file, `Unexpected version \`${tree.version}\`, expected OpenAPI 3.0, 3.1 or Swagger 2.0`, ['openapi' in tree.document ? 'openapi' : 'swagger'])
      return undefined
    }
    const {spec, missing, sources} = openapiCatalogue(tree.document, options, file.path ? path.resolve(file.cwd, file.path) : undefined)
    // Findings about the catalogue point at what they came from: an endpoint at its operation, a type at its schema.
    translatePaths(file, (at) => sourceOf(at, spec, sources, tree.document))
    for (const ref of missing) createFinding(file, `Cannot follow \`$ref\` \`${ref}\`; the type behind it is left as \`object\``, 'openapi-ref', [])
    if (spec.endpoints.length === 0) {
      fail(file, 'Unexpected document without operations, expected at least one operation under `paths` (or a webhook)', ['paths'])
      return undefined
    }
    const stem = (file.stem ?? 'openapi').replace(/\.(openapi|swagger)$/, '')
    addJsonOutput(file, `${stem}.endpoints.json`, spec)
    return {type: 'catalogue', spec}
  }
}

/** The catalogue of an OpenAPI or Swagger document (refs to other files resolve against `filePath`), and the refs that led nowhere. */
export function openapiCatalogue(document: Record<string, unknown>, options: Options = {}, filePath?: string): {spec: Catalogue; missing: string[]; sources: JsonPath[]} {
  const refs = new JsonRefs(document, filePath)
  const types = new SchemaTypes(refs)
  const context: Context = {document, refs, types, ids: new Set()}
  const endpoints: Endpoint[] = []
  const sources: JsonPath[] = []
  for (const [route, rawItem] of Object.entries(record(document.paths))) {
    const item = refs.resolve(rawItem).value ?? {}
    for (const method of methods) {
      const operation = record(item[method])
      if (!item[method]) continue
      const endpoint = operationEndpoint(context, method, route, item, operation, 'route')
      endpoints.push(endpoint)
      sources.push(['paths', route, method])
      const events = callbacks(context, operation, endpoint)
      endpoints.push(...events)
      sources.push(...events.map((): JsonPath => ['paths', route, method, 'callbacks']))
    }
  }
  for (const [name, rawItem] of Object.entries(record(document.webhooks))) {
    const item = refs.resolve(rawItem).value ?? {}
    for (const method of methods) {
      if (!item[method]) continue
      endpoints.push(operationEndpoint(context, method, name, item, record(item[method]), 'event'))
      sources.push(['webhooks', name, method])
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
  if (text(info.description)) meta.description = String(info.description).trim()
  const spec: Catalogue = {schema_version: 1, diagram_type: 'endpoints', meta, groups: groupsOf(document, endpoints), endpoints, types: [...types.types.values()]}
  return {spec, missing: [...types.missing], sources}
}

/** Where a path of the imported catalogue comes from in the OpenAPI source (undefined: nowhere in particular). */
function sourceOf(at: JsonPath, spec: Catalogue, sources: JsonPath[], document: Record<string, unknown>): JsonPath | undefined {
  const [key, index] = at
  if (key === 'endpoints') return typeof index === 'number' ? sources[index] : ['paths']
  if (key === 'groups') return ['tags']
  if (key === 'types' && typeof index === 'number') {
    const name = spec.types?.[index]?.name ?? ''
    if (name in record(record(document.components).schemas)) return ['components', 'schemas', name]
    if (name in record(document.definitions)) return ['definitions', name]
  }
  if (key === 'meta') return ['info']
  return undefined
}

/** Callbacks of an operation as EVENT endpoints in its group: `{$request.body#/callbackUrl}` and the like. */
function callbacks(context: Context, operation: Record<string, unknown>, parent: Endpoint): Endpoint[] {
  const events: Endpoint[] = []
  for (const [name, rawCallback] of Object.entries(record(operation.callbacks))) {
    const callback = context.refs.resolve(rawCallback).value ?? {}
    for (const [expression, rawItem] of Object.entries(callback)) {
      const item = context.refs.resolve(rawItem).value ?? {}
      for (const method of methods) {
        if (!item[method]) continue
        const callbackOperation = record(item[method])
        // Without an id or tags of its own, a callback is named after its operation and sits in its group.
        const named = {...callbackOperation}
        if (!text(named.operationId)) named.operationId = `${parent.id}${pascal(name)}`
        if (!(Array.isArray(named.tags) && named.tags.length > 0) && parent.group) named.tags = [parent.group]
        events.push(operationEndpoint(context, method, expression, item, named, 'event'))
      }
    }
  }
  return events
}

/** Groups in the order of the document's `tags`, then of first use, then `default` when used. */
function groupsOf(document: Record<string, unknown>, endpoints: Endpoint[]): Group[] {
  const declared = new Map<string, Record<string, unknown>>()
  for (const tag of Array.isArray(document.tags) ? document.tags : []) if (text(record(tag).name)) declared.set(String(record(tag).name), record(tag))
  const used = new Set(endpoints.map((endpoint) => endpoint.group ?? 'default'))
  const order = [...[...declared.keys()].filter((id) => used.has(id)), ...[...used].filter((id) => !declared.has(id) && id !== 'default')]
  const groups: Group[] = order.map((id) => {
    const tag = declared.get(id) ?? {}
    const group: Group = {id, label: text(tag['x-displayName']) ?? id}
    if (text(tag.description)) group.description = String(tag.description).trim()
    return group
  })
  if (used.has('default') && !declared.has('default')) groups.push({id: 'default', label: 'Default'})
  return groups
}

function baseUrlOf(document: Record<string, unknown>): string | undefined {
  const server = record(Array.isArray(document.servers) ? document.servers[0] : undefined)
  if (text(server.url)) {
    let url = String(server.url)
    for (const [name, variable] of Object.entries(record(server.variables))) {
      if (record(variable).default !== undefined) url = url.split(`{${name}}`).join(String(record(variable).default))
    }
    return url
  }
  if (text(document.host)) {
    const scheme = Array.isArray(document.schemes) && text(document.schemes[0]) ? document.schemes[0] : 'https'
    return `${scheme}://${document.host}${text(document.basePath) ?? ''}`
  }
  return text(document.basePath)
}

function fail(file: VFile, reason: string, at: string[] = []) {
  const message = createFinding(file, reason, 'openapi', at)
  message.fatal = true
}
