/**
 * map-app: a framework project becomes its catalogue (`api.endpoints.json`, then its page): a group per controller,
 * an endpoint per route with its auth (and roles as `role:<name>` tags), params, status codes, request and response
 * types from the entities, `entities` = the tables it touches, and `sources` = the controller file and line of the
 * route, plus the files of its hooks. The entity definitions also become the project's ERD (`api.erd.json`, see
 * runtime/erd.ts), which the catalogue names in `meta.erd`. The tree becomes a catalogue, so validate-catalogue and
 * render-html follow.
 */
import {existsSync} from 'node:fs'
import path from 'node:path'
import type {VFile} from 'vfile'
import {hasErrors, type CatalogueTree} from '../pipeline/data.js'
import {locate} from '../pipeline/position.js'
import {projectTitle} from '../runtime/config.js'
import {erdOf} from '../runtime/erd.js'
import {describeRoutes, responseFields, tableOf, typeName, type RouteInfo} from '../runtime/routes.js'
import {bodyMembers, fieldSchema} from '../runtime/http/body-schema.js'
import type {FieldDefinition} from '../schemas/types/entity.js'
import {entityModel, type EntityModel} from '../runtime/http/model.js'
import {documentVersion} from '../runtime/openapi.js'
import type {Catalogue, Endpoint} from '../schemas/types/endpoints.js'
import type {DefinitionsTree, RelatedTree} from './parse-definitions.js'
import {addJsonOutput} from '../pipeline/outputs.js'
import {describeEvents} from '../runtime/events/describe.js'
import {isInternal} from '../runtime/events/outbox.js'

/** Map project trees to catalogue trees. */
export default function mapApp() {
  return (tree: DefinitionsTree | RelatedTree, file: VFile): CatalogueTree | RelatedTree | undefined => {
    if (tree.type !== 'definitions') return tree
    if (hasErrors(file) || (file.data.related ?? []).some(hasErrors)) return undefined
    const spec = projectCatalogue(tree, file.cwd)
    addJsonOutput(file, 'api.endpoints.json', spec)
    addJsonOutput(file, 'api.erd.json', erdOf(tree.entities.map(({definition}) => definition)))
    return {type: 'catalogue', spec}
  }
}

/** Each declared event as an EVENT endpoint: its subject as the path, its data's type as the response. */
function eventEndpoints(tree: DefinitionsTree, entities: DefinitionsTree['entities'][number]['definition'][], relative: (full: string) => string, cwd: string): Endpoint[] {
  return describeEvents(tree.config, entities, tree.controllers).map((event) => {
    const entityFile = tree.entities.find(({definition}) => event.table && definition.name === event.type.split('.')[0])?.file
    const controllerFile = event.route ? tree.controllers.find(({definition}) => definition.name === event.controller)?.file : undefined
    const file = controllerFile ?? entityFile
    const place = file && (controllerFile ? locate(file, ['routes', event.route!, 'events']) : locate(file, ['events']))
    return {
      id: event.type,
      method: 'EVENT',
      path: event.subject,
      group: event.controller,
      summary: event.summary,
      auth: 'none',
      ...(event.payload ? {response: event.payload} : {}),
      ...(event.table ? {entities: [event.table]} : {}),
      ...(file ? {sources: [{file: relative(path.resolve(cwd, file.path)), ...(place ? {line: place.line} : {})}]} : {})
    }
  })
}

type Types = Map<string, NonNullable<Catalogue['types']>[number]>

/**
 * A field's values as the catalogue says them: from the JSON Schema the server checks them with (body-schema.ts), as an
 * import of the app's OpenAPI document reads it: a JSON type, with `x-format` (`date-time`, `email`, `uuid`) and `enum`
 * where the schema has them, `any` for `json`.
 */
function catalogueValue(field: FieldDefinition): {type: string; 'x-format'?: string; enum?: Array<string | number | boolean | null>} {
  const schema = fieldSchema(field) as {type?: string; format?: string; enum?: Array<string | number | boolean | null>}
  return {type: schema.type ?? 'any', ...(schema.format ? {'x-format': schema.format} : {}), ...(schema.enum ? {enum: schema.enum} : {})}
}

/** `post.list` -> `PostList`: the stem of the types named after an endpoint, as an import names them after an operation. */
const endpointStem = (id: string) => typeName(id.replace(/\./g, '_'))

/**
 * The catalogue type of a route's answer: the entity, a list page of it (`{data, meta}`), a count (`{count}`), or the
 * envelope the route wraps them in: what the server answers, as the app's OpenAPI document says (runtime/openapi.ts).
 */
function answerType(derived: Types, route: RouteInfo, id: string, authEnvelope?: string): string | undefined {
  if (route.action === 'count') {
    const name = `${endpointStem(id)}Response`
    derived.set(name, {name, kind: 'object', fields: [{name: 'count', type: 'integer', required: true}]})
    return name
  }
  if (!route.response) return undefined
  const base = typeName(route.response)
  if (route.authAnswer) {
    const session = {name: 'AuthSession', kind: 'object' as const, description: 'What the auth routes answer: the user and a token for `Authorization`', fields: [{name: 'token', type: 'string', required: true}, {name: 'user', type: base, required: true}]}
    derived.set(session.name, session)
    return authEnvelope ? envelopeType(derived, authEnvelope, {[authEnvelope]: 'AuthSession'}) : 'AuthSession'
  }
  const {single, list, count} = route.envelope ?? {}
  // Where a page of a list stands (4.3): `{page, limit, total, pages}`, beside the records unless a count replaces it.
  const pageMeta = () => {
    const meta = `${endpointStem(id)}ResponseMeta`
    derived.set(meta, {name: meta, kind: 'object', fields: ['page', 'limit', 'total', 'pages'].map((field) => ({name: field, type: 'integer', required: false}))})
    return meta
  }
  if (route.kind === 'list' && list) return envelopeType(derived, list, {[list]: `${base}[]`, ...(count ? {[count]: 'integer'} : {meta: pageMeta()})})
  if (route.responseList && list) return envelopeType(derived, list, {[list]: `${base}[]`, ...(count ? {[count]: 'integer'} : {})})
  if (!route.responseList && route.kind !== 'list' && single) return envelopeType(derived, single, {[single]: base})
  if (route.kind === 'list') {
    const name = `${endpointStem(id)}Response`
    derived.set(name, {name, kind: 'object', fields: [{name: 'data', type: `${base}[]`, required: true}, {name: 'meta', type: pageMeta(), required: true}]})
    return name
  }
  return `${base}${route.responseList ? '[]' : ''}`
}

/**
 * The catalogue type of a write route's body: `PostInput` for a create or replace, `PostPatch` for an update, with the
 * fields and relation keys the server takes and requires (runtime/http/body-schema.ts), not the record it answers,
 * whose key and timestamps the server owns; a route whose `where` sets fields takes a body without them, named after
 * the endpoint. A body that is no entity's keeps its name.
 */
function requestType(types: Types, route: RouteInfo, id: string, models: ReadonlyMap<string, EntityModel>): string {
  const model = models.get(route.request!)
  if (!model) return typeName(route.request!)
  const mode = route.kind === 'update' ? 'update' : 'create'
  const scoped = route.crud ? new Set(Object.keys(route.where ?? {}).map((where) => where.split('.')[0])) : new Set<string>()
  const name = scoped.size > 0 ? `${endpointStem(id)}Request` : `${typeName(route.request!)}${mode === 'update' ? 'Patch' : 'Input'}`
  const fields = bodyMembers(model, mode, models, scoped).map((member) => {
    const value = catalogueValue(member.value)
    return {name: member.name, ...value, type: `${value.type}${member.list ? '[]' : ''}`, required: member.required, ...(member.nullable ? {'x-nullable': true} : {})}
  })
  types.set(name, {name, kind: 'object', fields})
  return name
}

/**
 * The type of an envelope (`{article: Article}` is `ArticleEnvelope`; a body's, `{article: ArticleInput}`, is named
 * after what it holds: `ArticleInputEnvelope`), added to the catalogue's types once.
 */
function envelopeType(derived: Types, member: string, fields: Record<string, string>, holds?: string): string {
  const name = `${holds ?? typeName(member)}Envelope`
  derived.set(name, {name, kind: 'object', description: `The envelope of \`${member}\` bodies`, fields: Object.entries(fields).map(([field, type]) => ({name: field, type, required: true}))})
  return name
}

/** The catalogue of a loaded project; source paths are relative to the project folder. */
export function projectCatalogue(tree: DefinitionsTree, cwd: string): Catalogue {
  // Internal tables (the events outbox) are not API: no types, no rows.
  const entities = tree.entities.map(({definition}) => definition).filter((entity) => !isInternal(entity))
  const controllerFiles = new Map(tree.controllers.map((item) => [item.definition.name, item.file]))
  const routes = describeRoutes(tree.config, entities, tree.controllers)
  const models = new Map(tree.entities.map(({definition}) => [definition.name, entityModel(definition)]))
  // Paths from the project folder: what the page's source links put after `<repository>/blob/HEAD/`.
  const relative = (full: string) => path.relative(tree.root, full).split(path.sep).join('/')
  const ids = new Set<string>()
  // Types the routes' bodies and answers make beside the entities': envelopes, list pages, counts, input bodies.
  const derived: Types = new Map()
  const endpoints: Endpoint[] = routes.map((route) => {
    let id = `${route.controller}.${route.action}`
    if (ids.has(id)) id = `${id}.${route.method.toLowerCase()}`
    ids.add(id)
    const controllerFile = controllerFiles.get(route.controller)
    const place = controllerFile ? locate(controllerFile, ['routes', route.key]) : undefined
    const sources: NonNullable<Endpoint['sources']> = controllerFile ? [{file: relative(path.resolve(cwd, controllerFile.path)), ...(place ? {line: place.line} : {})}] : []
    for (const when of ['before', 'after']) {
      const hook = `${when}${route.action[0].toUpperCase()}${route.action.slice(1)}`
      for (const extension of ['ts', 'js', 'mts', 'mjs']) {
        const full = path.join(tree.root, 'src/hooks', route.controller, `${hook}.${extension}`)
        if (existsSync(full)) sources.push({file: relative(full), line: 1})
      }
    }
    const endpoint: Endpoint = {id, method: route.method as Endpoint['method'], path: route.path, group: route.controller, summary: route.summary, auth: route.auth, status: route.status}
    const params = [
      ...route.pathParams.map((param) => ({name: param.name, in: 'path' as const, type: param.type, required: true})),
      ...route.queryParams.map((param) => ({name: param.name, in: 'query' as const, type: 'string', required: false, description: param.description}))
    ]
    if (params.length > 0) endpoint.params = params
    if (route.request) {
      const body = requestType(derived, route, id, models)
      endpoint.request = route.envelope?.single ? envelopeType(derived, route.envelope.single, {[route.envelope.single]: body}, body) : body
      // A route with a body is documented as taking one, as the app's OpenAPI document says (`requestBody.required`):
      // both maps of an app tell clients the same, and `pipe diff` judges them alike.
      endpoint['x-request-required'] = true
    }
    const answer = answerType(derived, route, id, tree.config.auth?.envelope)
    if (answer) endpoint.response = answer
    if (route.entity) endpoint.entities = [tableOf(route.entity)]
    if (route.roles.length > 0) endpoint.tags = route.roles.map((role) => `role:${role}`)
    if (sources.length > 0) endpoint.sources = sources
    return endpoint
  })
  endpoints.push(...eventEndpoints(tree, entities, relative, cwd))
  const groups = tree.controllers.map(({definition}) => ({id: definition.name, label: typeName(definition.name).replace(/([a-z])([A-Z])/g, '$1 $2')}))
  if (routes.some((route) => route.controller === 'auth') && !groups.some((group) => group.id === 'auth')) groups.unshift({id: 'auth', label: 'Auth'})
  const types = [
    ...entities.map((entity) => ({
      name: typeName(entity.name),
      kind: 'object' as const,
      // A field's values as the server writes them; a relation as its type (`Author`, `Tag[]`), timestamps as date-times.
      fields: responseFields(entity).map(({name, type, required, field}) => ({name, ...(field ? catalogueValue(field) : type === 'datetime' ? {type: 'string', 'x-format': 'date-time'} : {type}), required}))
    })),
    ...derived.values()
  ]
  return {
    schema_version: 1,
    diagram_type: 'endpoints',
    meta: {title: projectTitle(tree.root), base_url: `http://localhost:${tree.config.port}`, version: documentVersion, api_kind: 'rest', erd: 'api.erd.json'},
    groups,
    endpoints,
    types
  }
}
