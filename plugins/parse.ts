/**
 * Parse a JSON or YAML source into a plain tree: `{type: 'openapi', document, version}` when the document has an
 * `openapi` or `swagger` field, `{type: 'asyncapi', document, version}` with an `asyncapi` field, else
 * `{type: 'catalogue', spec}`. JSON goes through the fast `JSON.parse`, YAML through the block reader (from the
 * file's bytes, undecoded) or js-yaml; only a failure pays for a second, position-aware parse to say where (positions
 * of findings are found later, on demand). A source that cannot be parsed is one fatal `parse` finding with
 * line:column.
 */
import {isUtf8} from 'node:buffer'
import type {Processor} from 'unified'
import type {Point} from 'unist'
import type {VFile} from 'vfile'
import type {AsyncApiTree, CatalogueTree, OpenApiTree} from '../pipeline/data.js'
import {parseJsonText} from '../pipeline/json-text.js'
import {readsBytes} from '../pipeline/process.js'
import {yaml} from '../pipeline/lazy.js'
import {readBlockYamlBytes} from './shared/block-yaml.js'
import {notUtf8} from './shared/encoding.js'
import {decodedUtf8, latin1Text} from './shared/latin1-bytes.js'
import {fastYaml} from './shared/load-data.js'
import {treeShaped} from './shared/tree-shaped.js'
import {rememberYamlDocument} from '../pipeline/position.js'
import {fatalFinding} from '../pipeline/rule.js'
import {hotCode} from '../pipeline/tiering.js'
import type {Catalogue} from '../schemas/types/endpoints.js'

/** Options of the parse plugin. */
export interface Options {
  /** Force a syntax instead of choosing by extension and content (default: by extension, then content). */
  syntax?: 'json' | 'yaml'
}

/** The tree the parser makes. */
export type ParsedTree = CatalogueTree | OpenApiTree | AsyncApiTree

/** Set the processor's parser, which reads a file's bytes as they were read (see `readsBytes`). */
export default function parse(this: Processor, options: Options = {}) {
  this.parser = readsBytes((source: string | Uint8Array, file: VFile) => parseSource(source, file, options))
}

/**
 * Parse `source` (the contents of `file`: its text, or its bytes as read) into a tree; throws a fatal vfile message
 * when it cannot.
 */
export function parseSource(source: string | Uint8Array, file: VFile, options: Options = {}): ParsedTree {
  const data = typeof source === 'string' ? parseText(source, file, options) : parseBytes(source, file, options)
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

function parseText(text: string, file: VFile, options: Options, blockTried = false): unknown {
  const value = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  if (value.trim() === '') fail(file, 'Unexpected empty file, expected a JSON or YAML document', {line: 1, column: 1})
  const named = options.syntax ?? syntaxByName(file)
  // A `.json` file that is YAML (`openapi: 3.1.0` on its first line) is read as what it is, as a `.yaml` file holding
  // JSON is; one that is broken JSON (`{…`) or neither stays JSON, whose error says where.
  const syntax = named === 'json' && !options.syntax && yamlMappingStart.test(value) ? 'yaml' : (named ?? syntaxByContent(value))
  file.data.syntax = syntax
  return syntax === 'json' ? treeShaped(parseJsonText(value, file)) : parseYaml(value, file, blockTried)
}

/** A YAML file this big keeps the block reader's loops busy long enough to repay compiling them (see tiering.ts). */
const hotYamlBytes = 256 * 1024

/**
 * The bytes of a file, as read: JSON and YAML, when its name says so, are parsed undecoded (JSON as an ASCII text,
 * see `asciiJson`; YAML by the block reader, which reads UTF-8 as Latin-1, see block-yaml.ts); anything else, and
 * what those give up, through the decoded text as before.
 */
function parseBytes(bytes: Uint8Array, file: VFile, options: Options): unknown {
  const named = options.syntax ?? syntaxByName(file)
  if (named === 'json') {
    const text = asciiJson(bytes)
    if (text !== undefined) {
      try {
        const value = JSON.parse(text)
        file.data.syntax = 'json'
        return treeShaped(value)
      } catch {
        // Not JSON: the decoded text below says where, as it always did.
      }
    }
  }
  const yamlByName = named === 'yaml'
  const data = !yamlByName ? undefined : bytes.byteLength >= hotYamlBytes ? hotCode(() => readBlockYamlBytes(bytes)) : readBlockYamlBytes(bytes)
  if (data !== undefined) {
    file.data.syntax = 'yaml'
    return treeShaped(data)
  }
  // The block reader read valid UTF-8 as it stands, and gave it up: the decoded text goes to js-yaml directly.
  const utf8 = isUtf8(bytes)
  const text = new TextDecoder().decode(bytes)
  if (!utf8) notUtf8(text, bytes, file)
  return parseText(text, file, options, yamlByName && utf8)
}

/**
 * JSON's UTF-8 bytes as an ASCII text that `JSON.parse` reads to the same value, or undefined when they are not
 * UTF-8. JSON allows characters past ASCII only inside strings, where each may be written as its `\u` escape: so
 * written, the text is the bytes as Latin-1 (see latin1-bytes.ts), half the size of the decoded text when one
 * character is past Latin-1, and outside V8's heap when all are ASCII (Node makes a big Latin-1 text an external
 * string). `pipe diff` of two 4 MB descriptions: ~13 ms less (bench/NOTES.md). A character past ASCII outside a
 * string fails to parse either way, and the caller then parses the decoded text to say where.
 */
export function asciiJson(source: Uint8Array): string | undefined {
  const bytes = latin1Text(source)
  if (bytes === undefined || bytes.ascii) return bytes?.text
  return bytes.text.replace(/[\x80-\xff]+/g, (run: string) => {
    const text = decodedUtf8(run)
    let escaped = ''
    for (let index = 0; index < text.length; index++) escaped += `\\u${text.charCodeAt(index).toString(16).padStart(4, '0')}`
    return escaped
  })
}

function syntaxByName(file: VFile): 'json' | 'yaml' | undefined {
  const extension = file.extname?.toLowerCase()
  if (extension === '.json') return 'json'
  if (extension === '.yaml' || extension === '.yml') return 'yaml'
  return undefined
}

/** A text that opens as a YAML mapping: comments and blank lines, then `key:` followed by a space or a line end. */
const yamlMappingStart = /^(?:\s*#[^\n]*\n|\s*\n)*[A-Za-z_$][\w$.-]*:(?:[ \t]|\r?\n)/

function syntaxByContent(value: string): 'json' | 'yaml' {
  const first = value.trimStart()[0]
  return first === '{' || first === '[' ? 'json' : 'yaml'
}

function parseYaml(value: string, file: VFile, blockTried: boolean): unknown {
  // The fast parser, without positions: they are built from the source only when a finding's place is read. Aliases
  // and what js-yaml refuses (unknown tags, odd indentation) go to the `yaml` package, which decides, and says where
  // when the text really is not YAML. (`blockTried`: the block reader gave the same text up already, read as bytes.)
  const fast = fastYaml(value, blockTried)
  if (fast) return fast.value
  const {LineCounter, parseDocument} = yaml()
  const lines = new LineCounter()
  // Real-world documents repeat keys, use tags that strict parsers reject and YAML 1.1's merge keys (`<<: *errors`,
  // which js-yaml and every OpenAPI tool apply); keep what tools accept.
  const document = parseDocument(value, {lineCounter: lines, uniqueKeys: false, prettyErrors: false, strict: false, merge: true})
  const error = document.errors[0]
  if (error) {
    const {line, col} = lines.linePos(error.pos[0])
    fail(file, `Cannot parse YAML: ${yamlProblem(error.code, error.message)}`, {line, column: col})
  }
  rememberYamlDocument(file, document, lines)
  try {
    return document.toJS({maxAliasCount: 10_000})
  } catch (error) {
    // An alias bomb (`a: &a [*a, *a]` nested) or a cycle: refuse it as input, not as a crash.
    fail(file, `Cannot parse YAML: ${yamlProblem(undefined, (error as Error).message)}`, {line: 1, column: 1})
  }
}

/** What the `yaml` package's error (`code`, `message`) means for the file, in its words where they are the user's. */
function yamlProblem(code: string | undefined, message: string): string {
  if (code === 'MULTIPLE_DOCS') return 'a second document starts here (`---`), where one file holds one document'
  if (/Maximum call stack size exceeded/.test(message)) return 'nested too deeply to read'
  return firstLine(message)
}

function firstLine(text: string): string {
  return text.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')
}

function fail(file: VFile, reason: string, place: Point): never {
  throw fatalFinding(file, reason, 'parse', place)
}
