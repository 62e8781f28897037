/**
 * Parse a JSON or YAML source into a plain tree: `{type: 'openapi', document, version}` when the document has an
 * `openapi` or `swagger` field, `{type: 'asyncapi', document, version}` with an `asyncapi` field, else
 * `{type: 'catalogue', spec}`. JSON goes through the fast `JSON.parse`, YAML through js-yaml; only a failure pays
 * for a second, position-aware parse to say where (positions of findings are found later, on demand). A source that
 * cannot be parsed is one fatal `parse` finding with line:column.
 */
import type {Processor} from 'unified'
import type {Point} from 'unist'
import type {VFile} from 'vfile'
import type {AsyncApiTree, CatalogueTree, OpenApiTree} from '../pipeline/data.js'
import {parseJsonText} from '../pipeline/json-text.js'
import {yaml} from '../pipeline/lazy.js'
import {fastYaml} from './shared/load-data.js'
import {rememberYamlDocument} from '../pipeline/position.js'
import {fatalFinding} from '../pipeline/rule.js'
import type {Catalogue} from '../schemas/types/endpoints.js'

/** Options of the parse plugin. */
export interface Options {
  /** Force a syntax instead of choosing by extension and content (default: by extension, then content). */
  syntax?: 'json' | 'yaml'
}

/** The tree the parser makes. */
export type ParsedTree = CatalogueTree | OpenApiTree | AsyncApiTree

/** Set the processor's parser. */
export default function parse(this: Processor, options: Options = {}) {
  this.parser = (text: string, file: VFile) => parseSource(text, file, options)
}

/** Parse `text` (the contents of `file`) into a tree; throws a fatal vfile message when it cannot. */
export function parseSource(text: string, file: VFile, options: Options = {}): ParsedTree {
  const value = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (value.trim() === '') fail(file, 'Unexpected empty file, expected a JSON or YAML document', {line: 1, column: 1})
  const syntax = options.syntax ?? chooseSyntax(file, value)
  file.data.syntax = syntax
  const data = syntax === 'json' ? parseJsonText(value, file) : parseYaml(value, file)
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const kind = data === null ? 'null' : Array.isArray(data) ? 'array' : typeof data
    fail(file, `Unexpected ${kind} at the top level, expected an object`, {line: 1, column: 1})
  }
  const record = data as Record<string, unknown>
  const version = record.openapi ?? record.swagger
  if (typeof version === 'string' || typeof version === 'number') {
    return {type: 'openapi', document: record, version: String(version)}
  }
  if (typeof record.asyncapi === 'string') return {type: 'asyncapi', document: record, version: record.asyncapi}
  return {type: 'catalogue', spec: record as unknown as Catalogue}
}

function chooseSyntax(file: VFile, value: string): 'json' | 'yaml' {
  const extension = file.extname?.toLowerCase()
  if (extension === '.json') return 'json'
  if (extension === '.yaml' || extension === '.yml') return 'yaml'
  const first = value.trimStart()[0]
  return first === '{' || first === '[' ? 'json' : 'yaml'
}

function parseYaml(value: string, file: VFile): unknown {
  // The fast parser, without positions: they are built from the source only when a finding's place is read. Aliases
  // and what js-yaml refuses (unknown tags, odd indentation) go to the `yaml` package, which decides, and says where
  // when the text really is not YAML.
  const fast = fastYaml(value)
  if (fast) return fast.value
  const {LineCounter, parseDocument} = yaml()
  const lines = new LineCounter()
  // Real-world documents repeat keys and use tags that strict parsers reject; keep what tools accept.
  const document = parseDocument(value, {lineCounter: lines, uniqueKeys: false, prettyErrors: false, strict: false})
  const error = document.errors[0]
  if (error) {
    const {line, col} = lines.linePos(error.pos[0])
    fail(file, `Cannot parse YAML: ${firstLine(error.message)}`, {line, column: col})
  }
  rememberYamlDocument(file, document, lines)
  try {
    return document.toJS({maxAliasCount: 10_000})
  } catch (error) {
    // An alias bomb (`a: &a [*a, *a]` nested) or a cycle: refuse it as input, not as a crash.
    fail(file, `Cannot parse YAML: ${firstLine((error as Error).message)}`, {line: 1, column: 1})
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
}

function fail(file: VFile, reason: string, place: Point): never {
  throw fatalFinding(file, reason, 'parse', place)
}
