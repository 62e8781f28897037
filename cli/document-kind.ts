/**
 * What kind of API description a file holds, from its name and its first bytes, without parsing it (the preset
 * that imports it parses it once): GraphQL SDL (`.graphql`, `.gql`, `.graphqls`) or an introspection result, an
 * AsyncAPI document (its first key is `asyncapi`, as the specification asks), else OpenAPI or Swagger, whose own
 * import says so when the file is neither. Shared by `pipe map` and `pipe diff`.
 */
import {open} from 'node:fs/promises'
import path from 'node:path'

export type DocumentKind = 'graphql' | 'asyncapi' | 'openapi'

/** The kind of `text` (a file's start is enough), read from the file at `filePath`. */
export function documentKind(filePath: string | undefined, text: string): DocumentKind {
  if (['.graphql', '.gql', '.graphqls'].includes(path.extname(filePath ?? '').toLowerCase())) return 'graphql'
  const head = text.slice(0, 4096)
  if (/^\s*\{\s*("data"\s*:\s*\{\s*)?"__schema"/.test(head)) return 'graphql'
  if (/^asyncapi\s*:/m.test(head) || /^\s*\{\s*"asyncapi"\s*:/.test(head)) return 'asyncapi'
  return 'openapi'
}

/** The kind of the file at `filePath`, from its first 4 KB (`openapi` when it cannot be read: the import says why). */
export async function fileKind(filePath: string): Promise<DocumentKind> {
  const handle = await open(filePath, 'r').catch(() => undefined)
  if (!handle) return documentKind(filePath, '')
  try {
    const {buffer, bytesRead} = await handle.read(Buffer.alloc(4096), 0, 4096, 0)
    return documentKind(filePath, buffer.subarray(0, bytesRead).toString('utf8'))
  } catch {
    return documentKind(filePath, '')
  } finally {
    await handle.close()
  }
}
