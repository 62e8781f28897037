/**
 * The checks of a project's definitions, each reporting in the definition file at fault:
 *
 * | rule | what |
 * | --- | --- |
 * | `definition-schema` | pipe.config.json breaks `project.schema.json`, or a definition `entity.schema.json` or `controller.schema.json` (unknown field type, unknown key, …) |
 * | `unknown-entity` | a relation, a controller or an event's `payload` names an entity that does not exist |
 * | `primary-key` | an entity with more than one primary key |
 * | `enum-values` | an `enum` field without values |
 * | `table-clash` | two entities with the same table |
 * | `relation-inverse` | a `one-to-many` relation without `inverse` |
 * | `unknown-action` | a route to an action that is neither a built-in action (the six auto-CRUD ones, `link`, `unlink`) nor a custom action of a code controller |
 * | `unknown-middleware` | a middleware name (in pipe.config.json or on a route) with no file in `src/middleware/` |
 * | `route-clash` | two routes with one method and path (`:id` and `{id}` alike, a trailing `/` ignored), in one controller or two |
 * | `computed-relation` | a computed field over a relation that is not a one-to-many or many-to-many of its entity |
 * | `relation-by` | a relation's `by` that is not a unique field of its target, or `fields` the target does not have |
 * | `route-scope` | a route's `where` through a field its entity lacks or a path parameter it lacks, a `link`/`unlink` without a many-to-many `relation`, or a lookup parameter (`{slug}`) that is neither the key nor a unique field |
 * | `unknown-hook` | a file of `src/hooks/` that no route runs: its folder names no controller, or its name is not `before`/`after` and an action of the controller's routes |
 * | `database-url` | `database.url` names another database than `database.type` (`sqlite` with `postgresql://…`) |
 */
import type {JsonPath} from '../../pipeline/json-path.js'
import {defineRule} from '../../pipeline/rule.js'
import {loadValidator} from '../../pipeline/schemas.js'
import {schemaViolations} from '../../pipeline/schema-violations.js'
import {databaseTypeOfUrl, sameDatabaseFamily} from '../config.js'
import {crudActions} from '../routes.js'
import {isInternal, routeEvents} from '../events/outbox.js'
import type {DefinitionsTree} from './types.js'
import type {EntityDefinition} from '../../schemas/types/entity.js'
import type {RouteOptions} from '../../schemas/types/controller.js'

export const definitionSchema = defineRule<DefinitionsTree>({id: 'definition-schema', severity: 'error'}, (tree, _file, report) => {
  // pipe.config.json itself: a misspelt key (`prot`) or a value of the wrong type (`bodyLimit: "big"`) is said there.
  for (const problem of schemaViolations(loadValidator('project'), tree.declared)) report(problem.reason, {path: problem.path})
  for (const [kind, items] of [['entity', tree.entities], ['controller', tree.controllers]] as const) {
    const validate = loadValidator(kind)
    for (const {file, definition} of items) {
      for (const problem of schemaViolations(validate, definition)) report(problem.reason, {path: problem.path, file})
    }
  }
})

export const unknownEntity = defineRule<DefinitionsTree>({id: 'unknown-entity', severity: 'error'}, (tree, _file, report) => {
  // The events outbox is an entity of the framework's own, which nothing of the project's may name.
  const names = tree.entities.map(({definition}) => definition).filter((definition) => typeof definition.name === 'string' && !isInternal(definition)).map((definition) => definition.name)
  const known = new Set(names)
  const check = (name: unknown, path: JsonPath, file: DefinitionsTree['entities'][number]['file']) => {
    if (typeof name === 'string' && !known.has(name)) report(`Unknown entity \`${name}\`; known entities: ${names.join(', ') || 'none'}`, {path, file})
  }
  for (const {file, definition} of tree.entities) {
    for (const [key, relation] of Object.entries(definition.relations ?? {})) check(relation?.entity, ['relations', key, 'entity'], file)
  }
  // A controller works on an entity when it names one or routes to an auto-CRUD action (then its own name is the entity).
  for (const {file, definition} of tree.controllers) {
    const crud = Object.values(definition.routes ?? {}).some((value) => (crudActions as readonly string[]).includes(typeof value === 'string' ? value : value?.action))
    if (definition.entity || crud) check(definition.entity ?? definition.name, definition.entity ? ['entity'] : ['name'], file)
    // The entity whose record a custom action's event carries.
    for (const [key, route] of Object.entries(definition.routes ?? {})) {
      for (const [index, event] of routeEvents(route).entries()) check(event.payload, ['routes', key, 'events', index, 'payload'], file)
    }
  }
})

export const primaryKey = defineRule<DefinitionsTree>({id: 'primary-key', severity: 'error'}, (tree, _file, report) => {
  for (const {file, definition} of tree.entities) {
    const primaries = Object.entries(definition.fields ?? {}).filter(([, field]) => field?.primary === true).map(([name]) => name)
    if (primaries.length > 1) {
      report(`Entity \`${definition.name}\` has ${primaries.length} primary keys (${primaries.join(', ')}), expected one`, {
        path: ['fields', primaries[1], 'primary'],
        file,
        also: {path: ['fields', primaries[0], 'primary'], reason: `First primary key \`${primaries[0]}\``}
      })
    }
  }
})

export const enumValues = defineRule<DefinitionsTree>({id: 'enum-values', severity: 'error'}, (tree, _file, report) => {
  for (const {file, definition} of tree.entities) {
    for (const [name, field] of Object.entries(definition.fields ?? {})) {
      if (field?.type === 'enum' && !(Array.isArray(field.enum) && field.enum.length > 0)) {
        report(`Enum field \`${name}\` has no values, expected \`enum: ["a", "b"]\``, {path: ['fields', name], file})
      }
    }
  }
})

export const tableClash = defineRule<DefinitionsTree>({id: 'table-clash', severity: 'error'}, (tree, _file, report) => {
  const first = new Map<string, DefinitionsTree['entities'][number]>()
  for (const item of tree.entities) {
    const table = item.definition.table ?? item.definition.name
    if (typeof table !== 'string') continue
    const earlier = first.get(table)
    if (!earlier) {
      first.set(table, item)
      continue
    }
    report(`Table \`${table}\` is already used by ${earlier.file.path}`, {path: [item.definition.table ? 'table' : 'name'], file: item.file})
  }
})

export const relationInverse = defineRule<DefinitionsTree>({id: 'relation-inverse', severity: 'error'}, (tree, _file, report) => {
  for (const {file, definition} of tree.entities) {
    for (const [name, relation] of Object.entries(definition.relations ?? {})) {
      if (relation?.kind === 'one-to-many' && !relation.inverse) {
        report(`Relation \`${name}\` is one-to-many without \`inverse\`, expected the name of the many-to-one on \`${relation.entity}\``, {path: ['relations', name], file})
      }
    }
  }
})

export const unknownAction = defineRule<DefinitionsTree>({id: 'unknown-action', severity: 'error'}, (tree, _file, report) => {
  for (const {file, definition, actions} of tree.controllers) {
    const known = [...crudActions, ...Object.keys(actions ?? {})]
    for (const [route, value] of Object.entries(definition.routes ?? {})) {
      const action = typeof value === 'string' ? value : value?.action
      if (typeof action === 'string' && !known.includes(action)) {
        const reason = actions
          ? `Unknown action \`${action}\` for \`${route}\`; this controller has ${known.join(', ')}`
          : `Unknown action \`${action}\` for \`${route}\`; a JSON controller has ${crudActions.join(', ')} (custom actions need a code controller)`
        report(reason, {
          path: typeof value === 'string' ? ['routes', route] : ['routes', route, 'action'],
          file
        })
      }
    }
  }
})

export const unknownMiddleware = defineRule<DefinitionsTree>({id: 'unknown-middleware', severity: 'error'}, (tree, _file, report) => {
  const known = new Set(tree.middleware)
  const expected = `expected one of ${tree.middleware.map((name) => `\`${name}\``).join(', ') || 'the files of src/middleware/ (none yet)'}`
  for (const [index, name] of (tree.config.middleware ?? []).entries()) {
    if (!known.has(name)) report(`Unknown middleware \`${name}\`, ${expected}`, {path: ['middleware', index]})
  }
  for (const {file: controllerFile, definition} of tree.controllers) {
    for (const [route, value] of Object.entries(definition.routes ?? {})) {
      if (typeof value !== 'object' || !Array.isArray(value?.middleware)) continue
      for (const [index, name] of value.middleware.entries()) {
        if (!known.has(name)) report(`Unknown middleware \`${name}\` on \`${route}\`, ${expected}`, {path: ['routes', route, 'middleware', index], file: controllerFile})
      }
    }
  }
})

export const unknownHook = defineRule<DefinitionsTree>({id: 'unknown-hook', severity: 'warn'}, (tree, _file, report) => {
  const actionsOf = new Map<string, Set<string>>()
  for (const {definition} of tree.controllers) {
    const actions = (actionsOf.get(definition.name) ?? new Set<string>())
    for (const value of Object.values(definition.routes ?? {})) {
      const action = typeof value === 'string' ? value : value?.action
      if (typeof action === 'string') actions.add(action)
    }
    actionsOf.set(definition.name, actions)
  }
  const listed = (names: Iterable<string>) => [...names].map((name) => `\`${name}\``).join(', ')
  for (const [folder, names] of Object.entries(tree.hooks)) {
    const actions = actionsOf.get(folder)
    if (!actions) {
      if (names.length > 0) report(`\`src/hooks/${folder}/\` names no controller, so its hooks never run; hooks go in \`src/hooks/<controller>/\`, expected one of ${listed(actionsOf.keys()) || 'the controllers (none yet)'}`, {path: []})
      continue
    }
    const hooks = [...actions].flatMap((action) => ['before', 'after'].map((when) => `${when}${action[0].toUpperCase()}${action.slice(1)}`))
    for (const name of names) {
      if (!hooks.includes(name)) report(`\`src/hooks/${folder}/${name}\` runs for no route of controller \`${folder}\`: a hook is named \`before<Action>\` or \`after<Action>\`, expected one of ${listed(hooks)}`, {path: []})
    }
  }
})

export const routeClash = defineRule<DefinitionsTree>({id: 'route-clash', severity: 'error'}, (tree, _file, report) => {
  const first = new Map<string, {controller: string; file: DefinitionsTree['controllers'][number]['file']; route: string}>()
  for (const {file, definition} of tree.controllers) {
    for (const route of Object.keys(definition.routes ?? {})) {
      const [method, rawPath = ''] = route.split(' ')
      // `:id` and `{id}` are one parameter, whatever its name, and `/posts/` is `/posts`: fastify routes them alike.
      const path = rawPath.replace(/\{[^}]+\}|:[A-Za-z_][A-Za-z0-9_]*/g, ':').replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1')
      const key = `${method.toUpperCase()} ${path}`
      const earlier = first.get(key)
      if (!earlier) {
        first.set(key, {controller: definition.name, file, route})
        continue
      }
      const where = earlier.file === file ? '' : ` in ${earlier.file.path}`
      report(`Route \`${route}\` is already declared as \`${earlier.route}\` by controller \`${earlier.controller}\`${where}`, {path: ['routes', route], file})
    }
  }
})

export const computedRelation = defineRule<DefinitionsTree>({id: 'computed-relation', severity: 'error'}, (tree, _file, report) => {
  for (const {file, definition} of tree.entities) {
    for (const [name, spec] of Object.entries(definition.computed ?? {})) {
      const relation = spec && typeof spec === 'object' ? ('count' in spec ? spec.count : spec.viewerIn) : undefined
      const kind = typeof relation === 'string' ? definition.relations?.[relation]?.kind : undefined
      if (typeof relation === 'string' && kind !== 'one-to-many' && kind !== 'many-to-many') {
        const lists = Object.entries(definition.relations ?? {}).filter(([, item]) => item.kind === 'one-to-many' || item.kind === 'many-to-many').map(([item]) => `\`${item}\``)
        report(`Unexpected relation \`${relation}\` for computed field \`${name}\`, expected a one-to-many or many-to-many of \`${definition.name}\`: ${lists.join(', ') || 'it has none'}`, {path: ['computed', name], file})
      }
    }
  }
})

export const databaseUrl = defineRule<DefinitionsTree>({id: 'database-url', severity: 'error'}, (tree, _file, report) => {
  const {type, url} = tree.config.database
  const named = databaseTypeOfUrl(url)
  if (named && !sameDatabaseFamily(named, type)) {
    report(`Unexpected \`${named}\` URL for \`database.type\` \`${type}\`, expected a ${type} ${type === 'sqlite' ? 'file path' : 'URL'}; or leave \`type\` out: the URL says it`, {path: ['database', 'url']})
  }
})

/** Every check, in the order their findings are reported. */
export const relationBy = defineRule<DefinitionsTree>({id: 'relation-by', severity: 'error'}, (tree, _file, report) => {
  const byName = new Map(tree.entities.map(({definition}) => [definition.name, definition]))
  for (const {file, definition} of tree.entities) {
    for (const [name, relation] of Object.entries(definition.relations ?? {})) {
      const target = byName.get(relation?.entity)
      if (!target) continue
      if (relation.by && !target.fields?.[relation.by]?.unique) {
        report(`Relation \`${name}\` is written by \`${relation.by}\`, which is not a unique field of \`${target.name}\`; add \`"unique": true\` to it or name another field`, {path: ['relations', name, 'by'], file})
      }
      for (const [index, field] of (relation.fields ?? []).entries()) {
        if (!target.fields?.[field] && !target.computed?.[field] && field !== 'id' && !(target.timestamps && ['createdAt', 'updatedAt'].includes(field))) {
          report(`Unknown field \`${field}\` of \`${target.name}\` in the \`fields\` of relation \`${name}\``, {path: ['relations', name, 'fields', index], file})
        }
      }
    }
  }
})

export const routeScope = defineRule<DefinitionsTree>({id: 'route-scope', severity: 'error'}, (tree, _file, report) => {
  const byName = new Map(tree.entities.map(({definition}) => [definition.name, definition]))
  for (const {file, definition} of tree.controllers) {
    const entity = byName.get(definition.entity ?? definition.name)
    if (!entity) continue
    for (const [route, value] of Object.entries(definition.routes ?? {})) {
      const options = typeof value === 'string' ? {action: value} : value
      if (!options || typeof options !== 'object') continue
      const params = [...route.matchAll(/\{([^}]+)\}|:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] ?? match[2])
      for (const problem of scopeProblems(entity, byName, options, params)) report(problem.reason, {path: ['routes', route, ...problem.path], file})
    }
  }
})

/** What is wrong with one route's `where`, `relation` and lookup parameter. */
function scopeProblems(entity: EntityDefinition, byName: Map<string, EntityDefinition>, options: RouteOptions, params: string[]): Array<{path: JsonPath; reason: string}> {
  const problems: Array<{path: JsonPath; reason: string}> = []
  for (const [path, source] of Object.entries(options.where ?? {})) {
    let current: EntityDefinition | undefined = entity
    for (const segment of path.split('.')) {
      const relation: {entity: string} | undefined = current?.relations?.[segment]
      const field = segment === 'id' || Boolean(current?.fields?.[segment])
      if (!current || (!relation && !field)) {
        problems.push({path: ['where', path], reason: `Unknown field \`${segment}\` in \`where\` path \`${path}\` of \`${entity.name}\``})
        break
      }
      current = relation ? byName.get(relation.entity) : undefined
    }
    if (typeof source === 'string' && source.startsWith('params.') && !params.includes(source.slice('params.'.length))) {
      problems.push({path: ['where', path], reason: `\`${source}\` names no parameter of this route's path; it has ${params.map((name) => `\`${name}\``).join(', ') || 'none'}`})
    }
  }
  if (options.action === 'link' || options.action === 'unlink') {
    if (entity.relations?.[options.relation ?? '']?.kind !== 'many-to-many') {
      const lists = Object.entries(entity.relations ?? {}).filter(([, relation]) => relation.kind === 'many-to-many').map(([name]) => `\`${name}\``)
      problems.push({path: options.relation ? ['relation'] : ['action'], reason: `\`${options.action}\` needs \`relation\`, a many-to-many of \`${entity.name}\`: ${lists.join(', ') || 'it has none'}`})
    }
  }
  const last = params.at(-1)
  const findsOne = ['read', 'update', 'delete', 'link', 'unlink'].includes(options.action)
  if (findsOne && last && last !== 'id' && !entity.fields?.[last]?.primary && !entity.fields?.[last]?.unique && !options.where) {
    problems.push({path: ['action'], reason: `\`{${last}}\` names no record: it is neither the key nor a unique field of \`${entity.name}\`; mark the field unique, or say how to find the record with \`where\``})
  }
  return problems
}

export const definitionRules = [definitionSchema, unknownEntity, primaryKey, enumValues, tableClash, relationInverse, unknownAction, unknownMiddleware, unknownHook, routeClash, computedRelation, relationBy, routeScope, databaseUrl]
