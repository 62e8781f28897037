/**
 * What kind of API description a file holds, from its name and its first bytes, without parsing it (the preset
 * that imports it parses it once): GraphQL SDL (`.graphql`, `.gql`, `.graphqls`) or an introspection result, an
 * AsyncAPI document (its first key is `asyncapi`, as the specification asks), an OpenAPI or Swagger document (an
 * `openapi` or `swagger` key). `pipe map` and `pipe diff` import a file that says none of these as OpenAPI, whose
 * own import says what is missing; the `pipe import …` commands point at the right one when a file says another.
 */
import {open} from 'node:fs/promises'
import path from 'node:path'

export type DocumentKind = 'graphql' | 'asyncapi' | 'openapi'

/** The kind `text` (a file's start is enough) declares, or undefined when it declares none. */
export function declaredKind(filePath: string | undefined, text: string): DocumentKind | undefined {
  if (['.graphql', '.gql', '.graphqls'].includes(path.extname(filePath ?? '').toLowerCase())) return 'graphql'
  const head = text.slice(0, 4096)
  if (/^\s*\{\s*("data"\s*:\s*\{\s*)?"__schema"/.test(head)) return 'graphql'
  if (/^asyncapi\s*:/m.test(head) || /^\s*\{\s*"asyncapi"\s*:/.test(head)) return 'asyncapi'
  if (/^["']?(openapi|swagger)["']?\s*:/m.test(head) || /^\s*\{\s*"(openapi|swagger)"\s*:/.test(head)) return 'openapi'
  return undefined
}

/** The kind of `text`, read from the file at `filePath`: what it declares, else OpenAPI. */
export function documentKind(filePath: string | undefined, text: string): DocumentKind {
  return declaredKind(filePath, text) ?? 'openapi'
}

/** The kind the file at `filePath` declares in its first 4 KB, or undefined (also when it cannot be read: its import says why). */
export async function declaredFileKind(filePath: string): Promise<DocumentKind | undefined> {
  const handle = await open(filePath, 'r').catch(() => undefined)
  if (!handle) return declaredKind(filePath, '')
  try {
    const {buffer, bytesRead} = await handle.read(Buffer.alloc(4096), 0, 4096, 0)
    return declaredKind(filePath, buffer.subarray(0, bytesRead).toString('utf8'))
  } catch {
    return declaredKind(filePath, '')
  } finally {
    await handle.close()
  }
}

/** The kind of the file at `filePath`, from its first 4 KB (`openapi` when it declares none). */
export async function fileKind(filePath: string): Promise<DocumentKind> {
  return (await declaredFileKind(filePath)) ?? 'openapi'
}
