/**
 * map-app: a framework project becomes its catalogue (`api.endpoints.json`, then its page): its OpenAPI document
 * imported (auth, params, status codes, request and response types, exactly as `pipe openapi` describes the app), a
 * group per controller, roles as `role:<name>` tags, `entities` = the tables each route touches, and `sources` = the
 * controller file and line of the route, plus the files of its hooks; its events as EVENT endpoints. The entity
 * definitions also become the project's ERD (`api.erd.json`, see runtime/erd.ts), which the catalogue names in
 * `meta.erd`. The tree becomes a catalogue, so validate-catalogue and render-html follow.
 */
import {existsSync} from 'node:fs'
import path from 'node:path'
import {VFile} from 'vfile'
import {hasErrors, type CatalogueTree} from '../pipeline/data.js'
import {locate} from '../pipeline/position.js'
import {createProcessor, transformFile} from '../pipeline/process.js'
import {projectInfo} from '../runtime/config.js'
import {erdOf} from '../runtime/erd.js'
import {describeRoutes, tableOf, typeName, type RouteInfo} from '../runtime/routes.js'
import {openapiDocument} from '../runtime/openapi.js'
import {loadAuthSchemes, loadErrorShape} from '../runtime/project.js'
import type {Catalogue, Endpoint} from '../schemas/types/endpoints.js'
import importOpenapi from './import-openapi/index.js'
import parse from './parse.js'
import resolveRefs from './resolve-refs.js'
import type {DefinitionsTree, RelatedTree} from './parse-definitions.js'
import {addJsonOutput} from '../pipeline/outputs.js'
import {describeEvents} from '../runtime/events/describe.js'
import {isInternal} from '../runtime/events/outbox.js'

/** Map project trees to catalogue trees. */
export default function mapApp() {
  return async (tree: DefinitionsTree | RelatedTree, file: VFile): Promise<CatalogueTree | RelatedTree | undefined> => {
    if (tree.type !== 'definitions') return tree
    if (hasErrors(file) || (file.data.related ?? []).some(hasErrors)) return undefined
    const spec = await projectCatalogue(tree, file.cwd)
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

/**
 * The catalogue of a loaded project: its OpenAPI document (runtime/openapi.ts, what `pipe openapi` writes and the
 * server serves) imported as any OpenAPI document is, so that the app's two maps describe one API and `pipe diff`
 * finds no change between them; then what only the project knows: a group per controller, the tables each route
 * touches, the controller and hook files, the roles as `role:<name>` tags, the events, and the ERD. Source paths
 * are relative to the project folder.
 */
export async function projectCatalogue(tree: DefinitionsTree, cwd: string): Promise<Catalogue> {
  const all = tree.entities.map(({definition}) => definition)
  // Internal tables (the events outbox) are not API: no types, no rows.
  const entities = all.filter((entity) => !isInternal(entity))
  const [{problemSchema}, authSchemes] = await Promise.all([loadErrorShape(tree.root), loadAuthSchemes(tree.root)])
  const document = openapiDocument(tree.config, all, tree.controllers, projectInfo(tree.root), {errorSchema: problemSchema, authSchemes}) as Parameters<typeof importedDocument>[0]
  const spec = await importedDocument(document, tree.root)
  const controllerFiles = new Map(tree.controllers.map((item) => [item.definition.name, item.file]))
  // The document's operation ids, as the import keeps them: `<controller>.<action>`, the method added to a repeat.
  const routes = new Map<string, RouteInfo>()
  for (const route of describeRoutes(tree.config, all, tree.controllers)) {
    const id = `${route.controller}.${route.action}`
    routes.set(routes.has(id) ? `${id}.${route.method.toLowerCase()}` : id, route)
  }
  // Paths from the project folder: what the page's source links put after `<repository>/blob/HEAD/`.
  const relative = (full: string) => path.relative(tree.root, full).split(path.sep).join('/')
  for (const endpoint of spec.endpoints) {
    const route = routes.get(endpoint.id)
    if (!route) continue
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
    endpoint.group = route.controller
    // An open route is said to be open: the project knows, where an imported document without `security` may not.
    endpoint.auth ??= 'none'
    if (route.entity) endpoint.entities = [tableOf(route.entity)]
    if (route.roles.length > 0) endpoint.tags = route.roles.map((role) => `role:${role}`)
    else delete endpoint.tags
    if (sources.length > 0) endpoint.sources = sources
  }
  const events = eventEndpoints(tree, entities, relative, cwd)
  // The auth entity's events are published by `POST /auth/register` (it seldom has a controller of its own).
  const authEntity = tree.config.auth?.entity
  for (const event of events) if (authEntity && event.id.startsWith(`${authEntity}.`) && !tree.controllers.some(({definition}) => definition.name === event.group)) event.group = 'auth'
  spec.endpoints.push(...events)
  const label = (name: string) => typeName(name).replace(/([a-z])([A-Z])/g, '$1 $2')
  const groups = tree.controllers.map(({definition}) => ({id: definition.name, label: label(definition.name)}))
  if (spec.endpoints.some((endpoint) => endpoint.group === 'auth') && !groups.some((group) => group.id === 'auth')) groups.unshift({id: 'auth', label: 'Auth'})
  // An entity's events without a controller serving the entity: a group of their own, named after the entity.
  for (const endpoint of spec.endpoints) if (endpoint.group && !groups.some((group) => group.id === endpoint.group)) groups.push({id: endpoint.group, label: label(endpoint.group)})
  return {...spec, meta: {...spec.meta, api_kind: 'rest', erd: 'api.erd.json'}, groups}
}

/**
 * The catalogue of the app's OpenAPI document, imported by the `openapi` preset's own plugins. The document is the
 * app's own: a finding on it is apipe's fault, reported as a crash rather than passed off as the user's.
 */
async function importedDocument(document: {info: {title: string; version: string}; paths: object; servers: Array<{url: string}>}, root: string): Promise<Catalogue> {
  // A project without routes (only entities, or only events) has nothing to import: a catalogue without endpoints.
  if (Object.keys(document.paths).length === 0) {
    return {schema_version: 1, diagram_type: 'endpoints', meta: {title: document.info.title, version: document.info.version, base_url: document.servers[0].url}, endpoints: [], types: []}
  }
  const file = new VFile({path: path.join(root, 'openapi.json'), value: JSON.stringify(document)})
  const tree = (await transformFile(createProcessor({plugins: [[parse], [resolveRefs], [importOpenapi]]}), file)) as CatalogueTree | undefined
  const fatal = file.messages.find((message) => message.fatal)
  if (!tree || tree.type !== 'catalogue' || fatal) throw new Error(`The app's OpenAPI document does not import: ${fatal?.reason ?? 'no catalogue'}`)
  return tree.spec
}
