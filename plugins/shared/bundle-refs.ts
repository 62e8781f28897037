/**
 * An OpenAPI document as the schema check reads it: what the importer follows is put in place of the refs that lead
 * to it, so that the check reads it too. That is every path item, operation and webhook written as a `$ref` (legal
 * or not, every mainstream tool follows them), everything held in another file (a schema, a parameter or a
 * response in a file of its own, nested across folders), and descriptions kept in Markdown files. Refs from the
 * root file into the root file stay: the schema allows them, and what they point to is checked where it is.
 *
 * The result is a copy where something changed (the document itself is not changed), and each node put in place is
 * remembered with its original, so that a problem found inside it is reported in the file and at the place that
 * hold it (see {@link BundledDocument.locate}).
 */
import type {JsonPath} from '../../pipeline/json-path.js'
import {isSwagger2, nextContext, type JsonRefs, type WalkContext} from './json-refs.js'

type Node = Record<string, unknown>

/** Where a node of the bundled document comes from. */
export interface Origin {
  /** Absolute path of the file that holds it. */
  file: string
  /** Its path in that file. */
  path: JsonPath
}

/** A document with what its refs lead to in place. */
export interface BundledDocument {
  document: Node
  /** Where the node at `path` of the bundled document is written. */
  locate(path: JsonPath): Origin
}

/** What a place of the document holds: a map of path items, a path item, an operation, or anything else. */
type Place = 'path items' | 'path item' | 'operation' | undefined

const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

const isNode = (value: unknown): value is Node => Boolean(value) && typeof value === 'object' && !Array.isArray(value)
const isRef = (value: unknown): value is Node => isNode(value) && typeof value.$ref === 'string'

/**
 * Bundle `document` for the check. `deep`: also look through the whole document for refs to other files (needed
 * only when it has any; a single-file document is only looked at where path items and operations are).
 */
export function bundleForCheck(document: Node, refs: JsonRefs, deep: boolean): BundledDocument {
  const origins = new Map<unknown, object>()
  /** Copies of what refs lead to, by place and walk context (`path item|plain`), by target. */
  const copies = new Map<string, Map<object, unknown>>()
  const inlining = new Set<object>()

  /** What `holder` (a `$ref`) leads to, bundled, or undefined to keep the ref. */
  const inline = (holder: Node, place: Place, always: boolean, context: WalkContext): unknown => {
    const text = refs.text(holder)
    if (text !== undefined) return text
    const target = refs.resolve(holder).value
    if (!target || inlining.has(target) || (!always && refs.fileOf(target) === refs.rootFile)) return undefined
    const key = `${place}|${context}`
    let byTarget = copies.get(key)
    if (!byTarget) copies.set(key, (byTarget = new Map()))
    let copy = byTarget.get(target)
    if (copy !== undefined) {
      // Once is enough to check what another file holds: put in at every place a ref leads to it, a schema shared
      // by many others would be checked once per path to it, and those multiply with depth (openEHR: 5 s).
      return always ? copy : undefined
    }
    inlining.add(target)
    // What a reference to an example leads to is an example: its value is data there too.
    copy = walk(target, place, deep, context)
    inlining.delete(target)
    byTarget.set(target, copy)
    origins.set(copy, target)
    return copy
  }

  const swagger2 = isSwagger2(document)
  const walk = (node: unknown, place: Place, everywhere: boolean, context: WalkContext = 'plain'): unknown => {
    if (!node || typeof node !== 'object') return node
    if (isRef(node)) return inline(node, place === 'path items' ? undefined : place, place === 'path item' || place === 'operation', context) ?? node
    if (place === undefined && !everywhere) return node
    if (Array.isArray(node)) {
      let changed = false
      const items = node.map((item) => {
        const bundled = walk(item, undefined, everywhere)
        changed ||= bundled !== item
        return bundled
      })
      return changed ? items : node
    }
    let copy: Node | undefined
    for (const [key, value] of Object.entries(node)) {
      // Examples are data, and `x-` extensions are not OpenAPI: refs there are not followed (JsonRefs.followAll).
      const next = nextContext(context, key, value, swagger2)
      if (next === undefined) continue
      const inner: Place = place === 'path items' ? 'path item' : place === 'path item' && methods.has(key) ? 'operation' : undefined
      const bundled = walk(value, inner, everywhere, next)
      if (bundled !== value) (copy ??= {...(node as Node)})[key] = bundled
    }
    return copy ?? node
  }

  let bundled: Node | undefined
  for (const [key, value] of Object.entries(document)) {
    // The document's and the tags' descriptions may be Markdown files of their own, in any document.
    const result = walk(value, key === 'paths' || key === 'webhooks' ? 'path items' : undefined, deep || key === 'info' || key === 'tags')
    if (result !== value) (bundled ??= {...document})[key] = result
  }
  const root = bundled ?? document

  return {
    document: root,
    locate(path) {
      let node: unknown = root
      let origin: object | undefined
      let rest = path
      path.forEach((key, index) => {
        node = node && typeof node === 'object' ? (node as Record<string | number, unknown>)[key] : undefined
        const found = origins.get(node)
        if (found) {
          origin = found
          rest = path.slice(index + 1)
        }
      })
      if (!origin) return {file: refs.rootFile, path}
      return {file: refs.fileOf(origin), path: [...refs.pathOf(origin), ...rest]}
    }
  }
}
