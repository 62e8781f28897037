/**
 * Pointer-to-position lookup. Parsing uses the fast `JSON.parse`; the index from JSON paths to line:column is built
 * only when the first finding of a file asks for a place, then cached for that file.
 */
import type {Document, LineCounter, Node as YamlNode} from 'yaml'
import type {Point} from 'unist'
import type {VFile} from 'vfile'
import type {JsonPath} from './json-path.js'
import {yaml} from './lazy.js'

/** A node of the position tree: where a value starts, and its members or items. */
interface PlaceNode {
  line: number
  column: number
  members?: Map<string, PlaceNode>
  items?: PlaceNode[]
}

const indexes = new WeakMap<VFile, PlaceNode | undefined>()
const translators = new WeakMap<VFile, (path: JsonPath) => JsonPath | undefined>()
const yamlDocuments = new WeakMap<VFile, {document: Document; lines: LineCounter}>()
const codeFiles = new WeakSet<VFile>()

/** Let position lookup reuse the YAML document the parser built (YAML keeps its own ranges). */
export function rememberYamlDocument(file: VFile, document: Document, lines: LineCounter): void {
  yamlDocuments.set(file, {document, lines})
}

/**
 * Mark a file as code (a TypeScript definition): its findings are placed at the property or key that a JSON path
 * names last (`fields.title.length` -> `length` after `title =`), searched in order through the source.
 */
export function markAsCode(file: VFile): void {
  codeFiles.add(file)
}

/**
 * Let a plugin that replaced the tree (an import turns OpenAPI into a catalogue) say where paths of the new tree
 * come from in the source (`endpoints[3]` -> `paths["/pets"].get`), so that later findings point at their origin.
 * A path the translator returns `undefined` for has no place.
 */
export function translatePaths(file: VFile, translate: (path: JsonPath) => JsonPath | undefined): void {
  translators.set(file, translate)
}

/**
 * Find the place of `path` in the source of `file`: the key of an object member, the start of an array item. A path
 * that does not exist (a missing field) resolves to its closest existing ancestor.
 */
export function locate(file: VFile, path: JsonPath): Point | undefined {
  const translate = translators.get(file)
  const sourcePath = translate ? translate(path) : path
  if (!sourcePath) return undefined
  if (codeFiles.has(file)) return locateInCode(String(file.value ?? ''), sourcePath)
  if (!indexes.has(file)) indexes.set(file, buildIndex(file))
  let node: PlaceNode | undefined = indexes.get(file)
  if (!node) return undefined
  for (const segment of sourcePath) {
    const child: PlaceNode | undefined = typeof segment === 'number' ? node.items?.[segment] : node.members?.get(segment)
    if (!child) break
    node = child
  }
  return {line: node.line, column: node.column}
}

/** Wrappers of definitions as code whose keys never appear in the source (a class's properties are its fields). */
const implicitKeys = new Set(['fields', 'relations', 'routes', 'definition'])

function locateInCode(text: string, path: JsonPath): Point | undefined {
  let offset = -1
  for (const segment of path) {
    if (typeof segment !== 'string' || implicitKeys.has(segment)) continue
    const escaped = segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    const pattern = new RegExp(`(^|[^\\w$])(['"]?)${escaped}\\2\\s*[=:(]`, 'g')
    pattern.lastIndex = Math.max(offset, 0)
    const match = pattern.exec(text)
    if (!match) break
    offset = match.index + match[1].length
  }
  if (offset < 0) return undefined
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  return {line, column: offset - before.lastIndexOf('\n')}
}

function buildIndex(file: VFile): PlaceNode | undefined {
  const yamlSource = yamlDocuments.get(file)
  try {
    return yamlSource ? indexYaml(yamlSource.document, yamlSource.lines) : indexJson(String(file.value ?? ''))
  } catch (error) {
    // The YAML walk recurses: a document nested thousands of levels deep has findings without places, not a crash.
    if (error instanceof RangeError) return undefined
    throw error
  }
}

/**
 * One pass over the JSON text (valid: `JSON.parse` accepted it) with a stack of open containers, reading character
 * codes directly: a 4 MB OpenAPI document indexes in a fraction of the time a tokenizer with callbacks takes. A member
 * is placed at its key, an array item at its value.
 */
function indexJson(text: string): PlaceNode | undefined {
  let root: PlaceNode | undefined
  const stack: PlaceNode[] = []
  let pendingKey: {name: string; line: number; column: number} | undefined
  let expectKey = false
  let line = 1
  let lineStart = 0
  const attach = (node: PlaceNode) => {
    const parent = stack[stack.length - 1]
    if (!parent) {
      root ??= node
    } else if (parent.items) {
      parent.items.push(node)
    } else if (parent.members && pendingKey) {
      node.line = pendingKey.line
      node.column = pendingKey.column
      if (!parent.members.has(pendingKey.name)) parent.members.set(pendingKey.name, node)
      pendingKey = undefined
    }
    return node
  }
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === 10 || code === 13) {
      if (code === 13 && text.charCodeAt(index + 1) === 10) index++
      line++
      lineStart = index + 1
    } else if (code === 123 || code === 91) {
      const node: PlaceNode = code === 123 ? {line, column: index - lineStart + 1, members: new Map()} : {line, column: index - lineStart + 1, items: []}
      stack.push(attach(node))
      expectKey = code === 123
    } else if (code === 125 || code === 93) {
      stack.pop()
    } else if (code === 44) {
      expectKey = stack[stack.length - 1]?.members !== undefined
    } else if (code === 34) {
      const end = stringEnd(text, index)
      const column = index - lineStart + 1
      if (expectKey) {
        const raw = text.slice(index + 1, end)
        pendingKey = {name: raw.includes('\\') ? (JSON.parse(text.slice(index, end + 1)) as string) : raw, line, column}
        expectKey = false
      } else {
        attach({line, column})
      }
      index = end
    } else if (code === 45 || (code >= 48 && code <= 57) || code === 116 || code === 102 || code === 110) {
      // A number, true, false or null: place it, then skip to its end.
      attach({line, column: index - lineStart + 1})
      for (let next = text.charCodeAt(index + 1); next > 32 && next !== 44 && next !== 93 && next !== 125; next = text.charCodeAt(index + 1)) index++
    }
  }
  return root
}

/** The index of the quote closing the string that opens at `start`. */
function stringEnd(text: string, start: number): number {
  for (let quote = text.indexOf('"', start + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++
    if (backslashes % 2 === 0) return quote
  }
  return text.length
}

function indexYaml(document: Document, lines: LineCounter): PlaceNode | undefined {
  const {isMap, isPair, isScalar, isSeq} = yaml()
  const place = (offset: number | undefined): PlaceNode => {
    const {line, col} = lines.linePos(offset ?? 0)
    return {line, column: col}
  }
  const walk = (node: unknown, at?: number): PlaceNode | undefined => {
    const range = (node as YamlNode | null)?.range
    if (isMap(node)) {
      const result = place(at ?? range?.[0])
      result.members = new Map()
      for (const pair of node.items) {
        if (!isPair(pair)) continue
        const name = isScalar(pair.key) ? String(pair.key.value) : String(pair.key)
        const child = walk(pair.value, (pair.key as YamlNode | null)?.range?.[0]) ?? place((pair.key as YamlNode | null)?.range?.[0])
        if (!result.members.has(name)) result.members.set(name, child)
      }
      return result
    }
    if (isSeq(node)) {
      const result = place(at ?? range?.[0])
      result.items = node.items.map((item) => walk(item) ?? place((item as YamlNode | null)?.range?.[0]))
      return result
    }
    return isScalar(node) ? place(at ?? range?.[0]) : at === undefined ? undefined : place(at)
  }
  return walk(document.contents)
}
