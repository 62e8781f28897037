/**
 * Pointer-to-position lookup. Parsing uses the fast `JSON.parse`; the index from JSON paths to line:column is built
 * only when the first finding of a file asks for a place, then cached for that file.
 */
import type {Document, LineCounter, Node as YamlNode} from 'yaml'
import type {Point} from 'unist'
import type {VFile} from 'vfile'
import type {JsonPath} from './json-path.js'
import {jsonc, yaml} from './lazy.js'

type Index = Map<string, Point>

const indexes = new WeakMap<VFile, Index>()
const yamlDocuments = new WeakMap<VFile, {document: Document; lines: LineCounter}>()

/** Let position lookup reuse the YAML document the parser built (YAML keeps its own ranges). */
export function rememberYamlDocument(file: VFile, document: Document, lines: LineCounter): void {
  yamlDocuments.set(file, {document, lines})
}

/**
 * Find the place of `path` in the source of `file`: the key of an object member, the start of an array item. A path
 * that does not exist (a missing field) resolves to its closest existing ancestor.
 */
export function locate(file: VFile, path: JsonPath): Point | undefined {
  let index = indexes.get(file)
  if (!index) {
    index = buildIndex(file)
    indexes.set(file, index)
  }
  for (let length = path.length; length >= 0; length--) {
    const point = index.get(key(path.slice(0, length)))
    if (point) return point
  }
  return undefined
}

function key(path: JsonPath): string {
  return path.join('\u0000')
}

function buildIndex(file: VFile): Index {
  const yamlSource = yamlDocuments.get(file)
  return yamlSource ? indexYaml(yamlSource.document, yamlSource.lines) : indexJson(String(file.value ?? ''))
}

function indexJson(text: string): Index {
  const index: Index = new Map()
  const record = (path: JsonPath, line: number, character: number) => {
    const id = key(path)
    if (!index.has(id)) index.set(id, {line: line + 1, column: character + 1})
  }
  jsonc().visit(text, {
    onObjectProperty(property, _offset, _length, line, character, pathSupplier) {
      record([...pathSupplier(), property], line, character)
    },
    onObjectBegin(_offset, _length, line, character, pathSupplier) {
      record(pathSupplier(), line, character)
    },
    onArrayBegin(_offset, _length, line, character, pathSupplier) {
      record(pathSupplier(), line, character)
    },
    onLiteralValue(_value, _offset, _length, line, character, pathSupplier) {
      record(pathSupplier(), line, character)
    }
  })
  return index
}

function indexYaml(document: Document, lines: LineCounter): Index {
  const {isMap, isPair, isScalar, isSeq} = yaml()
  const index: Index = new Map()
  const record = (path: JsonPath, offset: number | undefined) => {
    if (offset === undefined) return
    const id = key(path)
    if (index.has(id)) return
    const {line, col} = lines.linePos(offset)
    index.set(id, {line, column: col})
  }
  const walk = (node: unknown, path: JsonPath) => {
    if (isMap(node)) {
      record(path, node.range?.[0])
      for (const pair of node.items) {
        if (!isPair(pair)) continue
        const name = isScalar(pair.key) ? String(pair.key.value) : String(pair.key)
        record([...path, name], (pair.key as YamlNode | null)?.range?.[0])
        walk(pair.value, [...path, name])
      }
    } else if (isSeq(node)) {
      record(path, node.range?.[0])
      node.items.forEach((item, position) => walk(item, [...path, position]))
    } else if (isScalar(node)) {
      record(path, node.range?.[0])
    }
  }
  walk(document.contents, [])
  return index
}
