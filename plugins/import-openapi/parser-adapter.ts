/**
 * The one module that talks to @readme/openapi-parser (STYLE: one adapter per outside API likely to change).
 * `checkDocument` validates against the OpenAPI/Swagger schemas (following refs to other files) and returns each
 * problem with the JSON path it is about, read from the code frame the parser prints over the pretty-printed
 * document.
 */
import {validate} from '@readme/openapi-parser'
import type {JsonPath} from '../../pipeline/json-path.js'
import {jsonc} from '../../pipeline/lazy.js'

/** A problem the parser found, with the path it points at when it could be read. */
export interface DocumentProblem {
  reason: string
  path: JsonPath
}

type Document = Record<string, unknown>

/**
 * Validate a document, following refs to other files from `filePath`; resolves to its problems. Rejects with the
 * parser's error when a reference cannot be resolved.
 */
export async function checkDocument(document: Document, filePath: string | undefined): Promise<{errors: DocumentProblem[]; warnings: DocumentProblem[]}> {
  const pretty = JSON.stringify(document, null, 2)
  // validate() dereferences an object argument in place: give it a copy, or the path when refs may leave the file.
  // Never fetch: the import is offline. Refs to URLs are taken out of the copy that is checked (the importer names
  // them without fetching); refs to other files are followed only when the document has no URL refs at all.
  const remote = /"\$ref":\s*"[a-z][\w+.-]*:\/\//i.test(pretty)
  const files = /"\$ref":\s*"(?![#]|[a-z][\w+.-]*:\/\/)/i.test(pretty)
  const input = filePath && files && !remote ? filePath : withoutRemoteRefs(structuredClone(document))
  const options = {resolve: {external: input === filePath}, validate: {errors: {colorize: false}}}
  const result = await validate(input as never, options as never)
  const errors = result.valid ? [] : result.errors.map((error) => problem(error.message, pretty))
  if (!result.valid && result.additionalErrors > 0) errors.push({reason: `… and ${result.additionalErrors} more schema error(s)`, path: []})
  return {errors, warnings: result.warnings.map((warning) => problem(warning.message, pretty))}
}

/** `REQUIRED must have required property 'x'` plus a code frame whose `>` line points into the pretty JSON. */
function problem(message: string, pretty: string): DocumentProblem {
  const [first, ...frame] = message.split('\n')
  const marked = frame.find((line) => /^>\s*\d+ \|/.test(line))
  const hint = frame.find((line) => /^\s+\|\s*\^/.test(line))?.replace(/^\s+\|\s*\^\s*/, '')
  const reason = `${first.replace(/^[A-Z_]+ /, '').trim()}${hint ? ` (${hint.replace(/!$/, '')})` : ''}`
  const line = marked ? Number(/^>\s*(\d+)/.exec(marked)![1]) : undefined
  return {reason: reason.charAt(0).toUpperCase() + reason.slice(1), path: line ? pathAtLine(pretty, line) : []}
}

/** The JSON path of the first value that starts on `line` (1-based) of pretty-printed JSON. */
function pathAtLine(pretty: string, line: number): JsonPath {
  let found: JsonPath | undefined
  const take = (startLine: number, pathSupplier: () => JsonPath) => {
    if (found === undefined && startLine + 1 === line) found = [...pathSupplier()]
  }
  jsonc().visit(pretty, {
    onObjectProperty: (property, _offset, _length, startLine, _character, pathSupplier) => take(startLine, () => [...pathSupplier(), property]),
    onObjectBegin: (_offset, _length, startLine, _character, pathSupplier) => take(startLine, pathSupplier),
    onArrayBegin: (_offset, _length, startLine, _character, pathSupplier) => take(startLine, pathSupplier),
    onLiteralValue: (_value, _offset, _length, startLine, _character, pathSupplier) => take(startLine, pathSupplier)
  })
  return found ?? []
}

/** Replace every `$ref` to a URL with an empty schema, in place. */
function withoutRemoteRefs<T>(node: T): T {
  if (Array.isArray(node)) node.forEach(withoutRemoteRefs)
  else if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>
    if (typeof record.$ref === 'string' && /^[a-z][\w+.-]*:\/\//i.test(record.$ref)) delete record.$ref
    for (const value of Object.values(record)) withoutRemoteRefs(value)
  }
  return node
}
