/**
 * Rule `dangling-ref` (error): every reference resolves. An endpoint's `group` names a declared group (or
 * `default`, which always exists). When the catalogue declares `types`, every type an endpoint, response, param,
 * field or union names (`Pet`, `Pet[]`, `[Pet!]!`) is declared there or is a built-in scalar (`string`, `integer`, `ID`, …).
 * The finding lists the known ids so the fix is one look away.
 */
import type {CatalogueTree} from '../../../pipeline/data.js'
import type {JsonPath} from '../../../pipeline/json-path.js'
import {defineRule, type Report} from '../../../pipeline/rule.js'
import {baseTypeName} from '../../shared/readers.js'
import {endpointsOf, groupsOf, text, typesOf} from '../walk.js'

/** Type names that never need a declaration (compared case-insensitively). */
export const builtinTypes = new Set(
  [
    'string', 'integer', 'number', 'boolean', 'object', 'array', 'null', 'any', 'unknown', 'void', 'file', 'binary',
    'byte', 'date', 'datetime', 'date-time', 'time', 'timestamp', 'duration', 'uuid', 'email', 'uri', 'url', 'json',
    'int', 'int32', 'int64', 'float', 'double', 'decimal', 'bigint', 'long', 'password', 'text', 'id'
  ].map((name) => name.toLowerCase())
)

export const danglingRef = defineRule<CatalogueTree>({id: 'dangling-ref', severity: 'error'}, (tree, _file, report) => {
  const groupIds = ['default', ...groupsOf(tree.spec).map(([, group]) => text(group.id)).filter((id): id is string => id !== undefined)]
  const known = [...new Set(groupIds)]
  const groups = new Set(known)
  for (const [index, endpoint] of endpointsOf(tree.spec)) {
    const group = endpoint.group
    if (typeof group === 'string' && !groups.has(group)) {
      report(`Unknown group \`${group}\`; known ids: ${known.join(', ')}`, {path: ['endpoints', index, 'group']})
    }
  }
  if (Array.isArray(tree.spec.types)) checkTypeReferences(tree, report)
})

function checkTypeReferences(tree: CatalogueTree, report: Report) {
  const declared = typesOf(tree.spec).map(([, type]) => text(type.name)).filter((name): name is string => name !== undefined)
  const names = new Set(declared)
  const check = (expression: unknown, path: JsonPath) => {
    // Asked of every field, param and response (tens of thousands in big APIs): a declared or built-in name as
    // written is answered before the expression is taken apart.
    if (typeof expression !== 'string' || names.has(expression) || builtinTypes.has(expression)) return
    const name = baseTypeName(expression)
    if (name === '' || names.has(name) || builtinTypes.has(name.toLowerCase()) || !/^[A-Za-z_][\w.-]*$/.test(name)) return
    report(`Unknown type \`${name}\`; known types: ${listed([...names])}`, {path})
  }
  for (const [index, endpoint] of endpointsOf(tree.spec)) {
    check(endpoint.request, ['endpoints', index, 'request'])
    check(endpoint.response, ['endpoints', index, 'response'])
    eachObject(endpoint.params, (param, position) => check(param.type, ['endpoints', index, 'params', position, 'type']))
    eachObject(endpoint.responses, (response, position) => check(response.type, ['endpoints', index, 'responses', position, 'type']))
  }
  for (const [index, type] of typesOf(tree.spec)) {
    eachObject(type.fields, (field, position) => check(field.type, ['types', index, 'fields', position, 'type']))
    if (Array.isArray(type.members)) type.members.forEach((member, position) => check(member, ['types', index, 'members', position]))
  }
}

function eachObject(list: unknown, visit: (item: Record<string, unknown>, index: number) => void) {
  if (!Array.isArray(list)) return
  list.forEach((item, index) => {
    if (item && typeof item === 'object') visit(item as Record<string, unknown>, index)
  })
}

function listed(names: string[]): string {
  if (names.length === 0) return 'none'
  const shown = names.slice(0, 10).join(', ')
  return names.length > 10 ? `${shown} and ${names.length - 10} more` : shown
}
