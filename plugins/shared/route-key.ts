/**
 * What makes two routes one to a client or a server: the method, and the path with its placeholders made anonymous
 * (compared by position: `/pets/{id}`, `/pets/{petId}` and `/pets/:id` are one route) and no trailing slash. A
 * callback's runtime expression (`{$request.body#/callbackUrl}`) is no placeholder: events of one callback written
 * under two expressions are two routes. Shared by `duplicate-route` and `pipe diff`, which pairs endpoints by it.
 */
export function routeKey(method: string, path: string): string {
  const normalized = path.replace(/\{(?!\$)[^{}]*\}/g, '{}').replace(/\/:[^/]+/g, '/{}')
  // Trailing slashes cut by hand: a pattern anchored at the end retries from every slash of a long run.
  let end = normalized.length
  while (end > 1 && normalized[end - 1] === '/') end--
  return `${method.toUpperCase()} ${normalized.slice(0, end)}`
}
