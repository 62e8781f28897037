/**
 * Pointer-to-position lookup. Parsing keeps no positions (`JSON.parse`, js-yaml); a finding's place is found
 * afterwards by walking its path through the source: the YAML document, built with the `yaml` package and a
 * LineCounter only when the first place is read (or the one a lenient parse already built), or the JSON text,
 * scanned one container at a time (see `JsonPlaces`). Nothing is indexed up front, so a file without findings pays
 * nothing. What each file needs is kept in typed `file.data` fields.
 */
import type {Document, LineCounter, Node as YamlNode} from 'yaml'
import type {Point} from 'unist'
import type {VFile} from 'vfile'
import type {JsonPath} from './json-path.js'
import {yaml} from './lazy.js'

/** A YAML source with its ranges, built on first use. */
interface YamlSource {
  document: Document
  lines: LineCounter
}

declare module 'vfile' {
  interface DataMap {
    /** Places found so far in a JSON source. */
    jsonPlaces: JsonPlaces
    /** Where paths of a replaced tree come from in the source (see `translatePaths`). */
    translatePath: (path: JsonPath) => JsonPath | undefined
    /** The YAML document with ranges, once built. */
    yamlSource: YamlSource
    /** Set on a file of code: the keys of its JSON paths that never appear in the source (see `markAsCode`). */
    codeImplicitKeys: ReadonlySet<string>
  }
}

/** Let position lookup reuse a YAML document that a parser built anyway (a lenient parse after a failed fast one). */
export function rememberYamlDocument(file: VFile, document: Document, lines: LineCounter): void {
  file.data.yamlSource = {document, lines}
}

/**
 * Mark a file as code (a TypeScript definition): its findings are placed at the property or key that a JSON path
 * names last (`fields.title.length` -> `length` after `title =`), searched in order through the source.
 * `implicitKeys` are path segments that never appear in the source (wrappers the loader adds), skipped in the
 * search (default: none).
 */
export function markAsCode(file: VFile, implicitKeys: Iterable<string> = []): void {
  file.data.codeImplicitKeys = new Set(implicitKeys)
}

/**
 * Let a plugin that replaced the tree (an import turns OpenAPI into a catalogue) say where paths of the new tree
 * come from in the source (`endpoints[3]` -> `paths["/pets"].get`), so that later findings point at their origin.
 * A path the translator returns `undefined` for has no place.
 */
export function translatePaths(file: VFile, translate: (path: JsonPath) => JsonPath | undefined): void {
  file.data.translatePath = translate
}

/**
 * Find the place of `path` in the source of `file`: the key of an object member, the start of an array item. A path
 * that does not exist (a missing field) resolves to its closest existing ancestor.
 */
export function locate(file: VFile, path: JsonPath): Point | undefined {
  return locator(file, path)()
}

/**
 * `locate`, in two steps: the path is translated and the source chosen now (a later import must not change what
 * an earlier finding points at), the source is searched when the returned function is first called. Findings take
 * their place this way, so that a run whose report never shows a line (the text format shows JSON paths) never
 * searches the source at all.
 */
export function locator(file: VFile, path: JsonPath): () => Point | undefined {
  const translate = file.data.translatePath
  const sourcePath = translate ? translate(path) : path
  if (!sourcePath) return () => undefined
  // The source as it is now, decoded only when a place is read: a file read from disk holds its bytes (see
  // pipeline/read.ts), and the text of a big document is megabytes that most runs never look at again.
  const value = file.value
  // A byte order mark is no character of the document: places count from the character after it, as editors do.
  const text = () => String(value ?? '').replace(/^\ufeff/, '')
  const implicitKeys = file.data.codeImplicitKeys
  if (implicitKeys) return () => locateInCode(text(), sourcePath, implicitKeys)
  if (file.data.yamlSource || file.data.syntax === 'yaml') {
    return () => {
      const source = (file.data.yamlSource ??= yamlSourceOf(text()))
      return locateInYaml(source.document, source.lines, sourcePath)
    }
  }
  return () => (file.data.jsonPlaces ??= new JsonPlaces(text())).locate(sourcePath)
}

/** The YAML document of `text` with its ranges: the slow parse, paid only when a place is read. */
function yamlSourceOf(text: string): YamlSource {
  const {LineCounter, parseDocument} = yaml()
  const lines = new LineCounter()
  const document = parseDocument(text, {lineCounter: lines, uniqueKeys: false, prettyErrors: false, strict: false, merge: true})
  return {document, lines}
}

function locateInCode(text: string, path: JsonPath, implicitKeys: ReadonlySet<string>): Point | undefined {
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

/** Where a member's key or an item's value starts, and where the value itself starts. */
interface JsonPlace {
  place: number
  value: number
}

/**
 * Places in a JSON text (valid: `JSON.parse` accepted it), found on demand: resolving a path scans only the
 * containers along it, one level each, skipping nested values by bracket matching, and caches what each scan found.
 * Findings of a 4 MB OpenAPI document touch a few hundred containers, so this costs a few passes over the text and
 * keeps a few hundred entries, where indexing every value would keep hundreds of thousands. A member is placed at
 * its key, an array item at its value.
 */
export class JsonPlaces {
  private readonly containers = new Map<number, Map<string, JsonPlace> | JsonPlace[]>()
  private lineStarts: number[] | undefined

  constructor(private readonly text: string) {}

  locate(path: JsonPath): Point {
    const rootAt = skipSpace(this.text, 0)
    let found: JsonPlace = {place: rootAt, value: rootAt}
    for (const segment of path) {
      const children = this.children(found.value)
      const child = Array.isArray(children) ? (typeof segment === 'number' ? children[segment] : undefined) : typeof segment === 'string' ? children?.get(segment) : undefined
      if (!child) break
      found = child
    }
    return this.point(found.place)
  }

  /** The members or items of the container that starts at `offset` (undefined for a scalar). */
  private children(offset: number): Map<string, JsonPlace> | JsonPlace[] | undefined {
    const open = this.text.charCodeAt(offset)
    if (open !== 123 && open !== 91) return undefined
    let children = this.containers.get(offset)
    if (!children) {
      children = open === 123 ? this.scanObject(offset) : this.scanArray(offset)
      this.containers.set(offset, children)
    }
    return children
  }

  private scanObject(offset: number): Map<string, JsonPlace> {
    const {text} = this
    const members = new Map<string, JsonPlace>()
    for (let index = skipSpace(text, offset + 1); text.charCodeAt(index) === 34; ) {
      const keyEnd = stringEnd(text, index)
      const raw = text.slice(index + 1, keyEnd)
      const name = raw.includes('\\') ? (JSON.parse(text.slice(index, keyEnd + 1)) as string) : raw
      const value = skipSpace(text, skipSpace(text, keyEnd + 1) + 1)
      // The first of repeated keys wins, as in the places other tools report.
      if (!members.has(name)) members.set(name, {place: index, value})
      index = skipSpace(text, valueEnd(text, value))
      if (text.charCodeAt(index) !== 44) break
      index = skipSpace(text, index + 1)
    }
    return members
  }

  private scanArray(offset: number): JsonPlace[] {
    const {text} = this
    const items: JsonPlace[] = []
    for (let index = skipSpace(text, offset + 1); index < text.length && text.charCodeAt(index) !== 93; ) {
      items.push({place: index, value: index})
      index = skipSpace(text, valueEnd(text, index))
      if (text.charCodeAt(index) !== 44) break
      index = skipSpace(text, index + 1)
    }
    return items
  }

  /** Line and column (1-based, in UTF-16 units) of an offset; `\r\n`, `\n` and a lone `\r` end lines. */
  private point(offset: number): Point {
    this.lineStarts ??= lineStartsOf(this.text)
    const starts = this.lineStarts
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (starts[middle] <= offset) low = middle
      else high = middle - 1
    }
    return {line: low + 1, column: offset - starts[low] + 1}
  }
}

function lineStartsOf(text: string): number[] {
  const starts = [0]
  if (!text.includes('\r')) {
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1)
    return starts
  }
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === 13 && text.charCodeAt(index + 1) === 10) index++
    if (code === 10 || code === 13) starts.push(index + 1)
  }
  return starts
}

function skipSpace(text: string, index: number): number {
  let at = index
  for (let code = text.charCodeAt(at); code === 32 || code === 10 || code === 13 || code === 9; code = text.charCodeAt(++at));
  return at
}

/** The index just past the JSON value that starts at `start`. */
function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start)
  if (first === 34) return stringEnd(text, start) + 1
  if (first !== 123 && first !== 91) {
    let at = start
    for (let code = text.charCodeAt(at); at < text.length && code > 32 && code !== 44 && code !== 93 && code !== 125; code = text.charCodeAt(++at));
    return at
  }
  let depth = 0
  for (let at = start; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (code === 34) at = stringEnd(text, at)
    else if (code === 123 || code === 91) depth++
    else if ((code === 125 || code === 93) && --depth === 0) return at + 1
  }
  return text.length
}

/** Walk `path` through a parsed YAML document: a member is placed at its key, an item at its value. */
function locateInYaml(document: Document, lines: LineCounter, path: JsonPath): Point | undefined {
  const {isMap, isPair, isScalar, isSeq} = yaml()
  let node: unknown = document.contents
  let offset = (node as YamlNode | null)?.range?.[0]
  if (offset === undefined) return undefined
  for (const segment of path) {
    let next: YamlNode | null | undefined
    let at: number | undefined
    if (isMap(node) && typeof segment === 'string') {
      const pair = node.items.find((candidate) => isPair(candidate) && (isScalar(candidate.key) ? String(candidate.key.value) : String(candidate.key)) === segment)
      if (!pair) break
      next = pair.value as YamlNode | null
      at = (pair.key as YamlNode | null)?.range?.[0]
    } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
      next = node.items[segment] as YamlNode | null
      at = next?.range?.[0]
    } else {
      break
    }
    offset = at ?? offset
    node = next
  }
  const {line, col} = lines.linePos(offset)
  return {line, column: col}
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
