/**
 * Rule `duplicate-route` (warning): two endpoints with the same method and path (placeholders compared by position,
 * so `/pets/{id}` and `/pets/{petId}` are the same route, as are `:id` and `{id}`). A server can only route one.
 */
import type {CatalogueTree} from '../../../pipeline/data.js'
import {formatJsonPath} from '../../../pipeline/json-path.js'
import {defineRule} from '../../../pipeline/rule.js'
import {endpointsOf, text} from '../walk.js'

/** The route key of an endpoint: method and path with placeholders blanked and no trailing slash. */
export function routeKey(method: string, path: string): string {
  const normalized = path.replace(/\{[^{}]*\}/g, '{}').replace(/\/:[^/]+/g, '/{}')
  // Trailing slashes cut by hand: a pattern anchored at the end retries from every slash of a long run.
  let end = normalized.length
  while (end > 1 && normalized[end - 1] === '/') end--
  return `${method.toUpperCase()} ${normalized.slice(0, end)}`
}

export const duplicateRoute = defineRule<CatalogueTree>({id: 'duplicate-route', severity: 'warn'}, (tree, _file, report) => {
  const first = new Map<string, number>()
  for (const [index, endpoint] of endpointsOf(tree.spec)) {
    const method = text(endpoint.method)
    const path = text(endpoint.path)
    if (!method || !path) continue
    const key = routeKey(method, path)
    const earlier = first.get(key)
    if (earlier === undefined) {
      first.set(key, index)
      continue
    }
    const earlierPath = ['endpoints', earlier]
    report(`Route \`${method} ${path}\` is also declared by ${formatJsonPath(earlierPath)}${idOf(tree, earlier)}`, {
      path: ['endpoints', index, 'path'],
      also: {path: [...earlierPath, 'path'], reason: `Route \`${key}\` is first declared here`}
    })
  }
})

function idOf(tree: CatalogueTree, index: number): string {
  const id = text(tree.spec.endpoints[index]?.id)
  return id ? ` (\`${id}\`)` : ''
}
