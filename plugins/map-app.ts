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

/** The catalogue type of a route's answer: the entity, a list of it, or the envelope the route wraps them in. */
function answerType(envelopes: Map<string, NonNullable<Catalogue['types']>[number]>, route: RouteInfo, authEnvelope?: string): string {
  const base = typeName(route.response!)
  if (route.authAnswer) {
    const session = {name: 'AuthSession', kind: 'object' as const, description: 'What the auth routes answer: the user and a token for `Authorization`', fields: [{name: 'token', type: 'string', required: true}, {name: 'user', type: base, required: true}]}
    envelopes.set(session.name, session)
    return authEnvelope ? envelopeType(envelopes, authEnvelope, {[authEnvelope]: 'AuthSession'}) : 'AuthSession'
  }
  const {single, list, count} = route.envelope ?? {}
  if ((route.kind === 'list' || route.responseList) && list) return envelopeType(envelopes, list, {[list]: `${base}[]`, ...(count ? {[count]: 'integer'} : {})})
  if (!route.responseList && route.kind !== 'list' && single) return envelopeType(envelopes, single, {[single]: base})
  return `${base}${route.responseList ? '[]' : ''}`
}

/** The type of an envelope (`{article: Article}` is `ArticleEnvelope`), added to the catalogue's types once. */
function envelopeType(envelopes: Map<string, NonNullable<Catalogue['types']>[number]>, member: string, fields: Record<string, string>): string {
  const name = `${typeName(member)}Envelope`
  envelopes.set(name, {name, kind: 'object', description: `The envelope of \`${member}\` bodies`, fields: Object.entries(fields).map(([field, type]) => ({name: field, type, required: true}))})
  return name
}

/** The catalogue of a loaded project; source paths are relative to the project folder. */
export function projectCatalogue(tree: DefinitionsTree, cwd: string): Catalogue {
  // Internal tables (the events outbox) are not API: no types, no rows.
  const entities = tree.entities.map(({definition}) => definition).filter((entity) => !isInternal(entity))
  const controllerFiles = new Map(tree.controllers.map((item) => [item.definition.name, item.file]))
  const routes = describeRoutes(tree.config, entities, tree.controllers)
  // Paths from the project folder: what the page's source links put after `<repository>/blob/HEAD/`.
  const relative = (full: string) => path.relative(tree.root, full).split(path.sep).join('/')
  const ids = new Set<string>()
  const envelopes = new Map<string, NonNullable<Catalogue['types']>[number]>()
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
      endpoint.request = route.envelope?.single ? envelopeType(envelopes, route.envelope.single, {[route.envelope.single]: typeName(route.request)}) : typeName(route.request)
      // A route with a body is documented as taking one, as the app's OpenAPI document says (`requestBody.required`):
      // both maps of an app tell clients the same, and `pipe diff` judges them alike.
      endpoint['x-request-required'] = true
    }
    if (route.response) endpoint.response = answerType(envelopes, route, tree.config.auth?.envelope)
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
      fields: responseFields(entity).map(({name, type, required}) => ({name, type, required}))
    })),
    ...envelopes.values()
  ]
  return {
    schema_version: 1,
    diagram_type: 'endpoints',
    meta: {title: projectTitle(tree.root), base_url: `http://localhost:${tree.config.port}`, api_kind: 'rest', erd: 'api.erd.json'},
    groups,
    endpoints,
    types
  }
}
