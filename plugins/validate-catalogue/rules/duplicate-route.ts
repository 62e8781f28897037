/**
 * Rule `duplicate-route` (warning): two endpoints with the same method and path (placeholders compared by position,
 * so `/pets/{id}` and `/pets/{petId}` are the same route, as are `:id` and `{id}`; a callback's runtime expression
 * such as `{$request.body#/url}` is no placeholder). A server can only route one. Events are not routes: several
 * kinds of event may share a channel.
 */
import type {CatalogueTree} from '../../../pipeline/data.js'
import {formatJsonPath} from '../../../pipeline/json-path.js'
import {defineRule} from '../../../pipeline/rule.js'
import {routeKey} from '../../shared/route-key.js'
import {endpointsOf, text} from '../walk.js'

export const duplicateRoute = defineRule<CatalogueTree>({id: 'duplicate-route', severity: 'warn'}, (tree, _file, report) => {
  const first = new Map<string, number>()
  for (const [index, endpoint] of endpointsOf(tree.spec)) {
    const method = text(endpoint.method)
    const path = text(endpoint.path)
    // Events share their channels (several kinds of message on one topic): only a request needs a route of its own.
    if (!method || !path || method === 'EVENT') continue
    const key = routeKey(method, path)
    const earlier = first.get(key)
    if (earlier === undefined) {
      first.set(key, index)
      continue
    }
    const earlierPath = ['endpoints', earlier]
    report(`Route \`${method} ${path}\` is also declared by ${formatJsonPath(earlierPath)}${idOf(tree, earlier)}`, {
      path: ['endpoints', index, 'path'],
      also: {path: [...earlierPath, 'path'], reason: `Route \`${text(tree.spec.endpoints[earlier]?.method)} ${text(tree.spec.endpoints[earlier]?.path)}\` is first declared here`}
    })
  }
})

function idOf(tree: CatalogueTree, index: number): string {
  const id = text(tree.spec.endpoints[index]?.id)
  return id ? ` (\`${id}\`)` : ''
}
