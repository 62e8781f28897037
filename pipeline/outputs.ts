/**
 * Write what plugins produced (`file.data.outputs`) to disk: beside the input, or into `outputDir`. Outputs of a
 * file with an error are never written. A failed write is a fatal `write` finding on the input file.
 */
import {closeSync, openSync, writeFileSync, writeSync} from 'node:fs'
import path from 'node:path'
import {VFile} from 'vfile'
import {addOutput, hasErrors} from './data.js'
import {fileInTheWay} from './file-in-the-way.js'
import {makeFolder} from './make-folder.js'
import {docsUrl, source} from './rule.js'

/** Options of {@link writeOutputs}. */
export interface WriteOptions {
  /** Directory to write into (default: each output's own path, which plugins set beside the input). */
  outputDir?: string
  /** Report each written file as an info message on its input (default: true). */
  announce?: boolean
}

/** Write the outputs of `files`; resolves to the paths written. */
export async function writeOutputs(files: VFile[], options: WriteOptions = {}): Promise<string[]> {
  const written: string[] = []
  // Into a folder, outputs keep their inputs' folders below the inputs' common folder (as tsc's outDir does), so
  // that `a/openapi.json` and `b/openapi.json` never write over each other.
  const base = options.outputDir ? commonFolder(files.filter((file) => file.path && (file.data.outputs?.length ?? 0) > 0).map((file) => path.resolve(file.cwd, file.dirname ?? '.'))) : undefined
  for (const file of files) {
    if (hasErrors(file)) continue
    for (const output of file.data.outputs ?? []) {
      const target = options.outputDir
        ? path.resolve(output.cwd, options.outputDir, base ? path.relative(base, path.resolve(output.cwd, output.dirname ?? '.')) : '', output.basename ?? 'output')
        : path.resolve(output.cwd, output.path)
      try {
        makeFolder(path.dirname(target))
        if (output.data.json === undefined) writeFileSync(target, output.value ?? '')
        else writeChunks(target, prettyJsonChunks(output.data.json))
        written.push(target)
        if (options.announce !== false) file.info(`Wrote \`${shortPath(file.cwd, target)}\``, {ruleId: 'write', source})
      } catch (error) {
        const message = file.message(`Cannot write \`${target}\`: ${writeFailure(error, target)}`, {ruleId: 'write', source})
        message.fatal = true
        message.url = `${docsUrl}#write`
      }
    }
  }
  return written
}

/** Why writing `target` failed: a file where a folder should be is said so, not as `mkdir`'s EEXIST or ENOTDIR. */
function writeFailure(error: unknown, target: string): string {
  const file = fileInTheWay(error, path.dirname(target))
  return file ? `\`${file}\` is a file, not a folder` : (error as Error).message
}

/**
 * Add `<name>` beside `file` (in its folder) as an output holding `value` as pretty JSON. The text of a big
 * catalogue is megabytes, and nothing needs it whole before it is written: it is made when `value` is first read
 * (tests, the programmatic API), and {@link writeOutputs} streams it to disk piece by piece.
 */
export function addJsonOutput(file: VFile, name: string, value: unknown): void {
  const output = new VFile({cwd: file.cwd, path: path.join(file.dirname ?? '.', name)})
  output.data.json = value
  let bytes: VFile['value']
  Object.defineProperty(output, 'value', {
    enumerable: true,
    get: () => (bytes ??= Buffer.concat([...prettyJsonChunks(value)].map((piece) => Buffer.from(piece)))),
    set(next: VFile['value']) {
      // A plugin that replaces the text replaces what is written.
      bytes = next
      delete output.data.json
    }
  })
  addOutput(file, output)
}

/**
 * Write `chunks` to `target` one after the other, each encoded as UTF-8 by the write itself (no buffer object made in
 * JavaScript for it). Synchronously, as the input is read (pipeline/read.ts): each asynchronous write is a trip
 * through libuv's thread pool that the command only waits on.
 */
function writeChunks(target: string, chunks: Iterable<string>): void {
  const descriptor = openSync(target, 'w')
  try {
    for (const chunk of chunks) writeSync(descriptor, chunk)
  } finally {
    closeSync(descriptor)
  }
}

/**
 * `JSON.stringify(value, null, 2) + '\n'` in pieces, each serialized natively by one `JSON.stringify`. As one
 * string, the catalogue of a big API is megabytes, two bytes per character as soon as one character is outside
 * Latin-1 (a `’` in a description), and writing it needs a UTF-8 copy besides; these pieces die young, and no piece
 * is copied into a bigger one.
 */
export function* prettyJsonChunks(value: unknown): Generator<string> {
  yield* jsonPieces(value)
  yield '\n'
}

/** Items of a top-level array serialized by one call: few native calls, each piece a few hundred K at most. */
const itemsPerPiece = 64

/**
 * The pretty JSON of `value` in pieces: each member of a top-level object alone, and the items of a top-level
 * array member `itemsPerPiece` at a time. Each piece is serialized natively by JSON.stringify already at its depth,
 * wrapped in one or two arrays whose brackets are then cut off the bytes (`[[a, b]]` prints `a` and `b` four spaces
 * in, as they sit in `{"endpoints": [a, b]}`), so no piece needs re-indenting.
 */
function* jsonPieces(value: unknown): Generator<string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || typeof (value as {toJSON?: unknown}).toJSON === 'function') {
    yield JSON.stringify(value, null, 2) ?? 'null'
    return
  }
  const members = Object.entries(value).filter(([, item]) => item !== undefined && typeof item !== 'function' && typeof item !== 'symbol')
  if (members.length === 0) {
    yield '{}'
    return
  }
  for (const [index, [key, item]] of members.entries()) {
    yield `${index === 0 ? '{' : ','}\n  ${JSON.stringify(key)}: `
    if (!Array.isArray(item) || item.length === 0) {
      // `[\n  <item>\n]`: the item two spaces in, as it sits in the object.
      yield trimmed(JSON.stringify([item], null, 2), 4, 2)
      continue
    }
    for (let start = 0; start < item.length; start += itemsPerPiece) {
      // `[\n  [\n    <items>\n  ]\n]`: the items four spaces in, as they sit in the member's array.
      yield `${start === 0 ? '[' : ','}\n    `
      yield trimmed(JSON.stringify([item.slice(start, start + itemsPerPiece)], null, 2), 10, 6)
    }
    yield '\n  ]'
  }
  yield '\n}'
}

/** `text` but its first `head` and last `tail` characters (brackets and spaces). */
function trimmed(text: string, head: number, tail: number): string {
  return text.slice(head, text.length - tail)
}

/** The deepest folder holding every one of `folders` (absolute), or undefined for none. */
function commonFolder(folders: string[]): string | undefined {
  if (folders.length === 0) return undefined
  return folders.reduce((common, folder) => {
    while (common !== path.dirname(common) && path.relative(common, folder).startsWith('..')) common = path.dirname(common)
    return common
  })
}

/** `target` relative to `cwd` when it is inside it, else absolute. */
function shortPath(cwd: string, target: string): string {
  const relative = path.relative(cwd, target)
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : target
}
