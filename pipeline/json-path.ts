/** A path into a JSON document: object keys and array indices, from the root. */
export type JsonPath = ReadonlyArray<string | number>

const identifier = /^[A-Za-z_$][\w$]*$/

/**
 * Format a path the way users read it in findings: `endpoints[2].group`, `paths["/pets"].get`.
 * The root is `(root)`.
 */
export function formatJsonPath(path: JsonPath): string {
  let result = ''
  for (const segment of path) {
    if (typeof segment === 'number') result += `[${segment}]`
    else if (identifier.test(segment)) result += result === '' ? segment : '.' + segment
    else result += `[${JSON.stringify(segment)}]`
  }
  return result === '' ? '(root)' : result
}

/** Turn a JSON Pointer (`/endpoints/2/group`, as ajv reports) into a path; numeric segments inside arrays become numbers. */
export function pointerToPath(pointer: string, document: unknown): Array<string | number> {
  if (pointer === '') return []
  const path: Array<string | number> = []
  let node: unknown = document
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (Array.isArray(node)) {
      const index = Number(key)
      path.push(index)
      node = node[index]
    } else {
      path.push(key)
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined
    }
  }
  return path
}
