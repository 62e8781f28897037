/**
 * Turn inputs (paths or in-memory values) into vfiles. A missing file, a folder or an unreadable file becomes one
 * fatal `read` finding on the vfile, never an exception.
 */
import {accessSync, constants, readFileSync, statSync} from 'node:fs'
import path from 'node:path'
import {VFile} from 'vfile'
import {ApipeError, show} from './errors.js'
import {fatalFinding} from './rule.js'
import {inputRead} from './input-size.js'

/**
 * Reads of input files that bin/pipe.js started on libuv's thread pool before the CLI loaded, by absolute path: the
 * bytes of a big description come in on another core while this one compiles the CLI (see `setEarlyReads`).
 */
let earlyReads: Map<string, Promise<Buffer | undefined>> | undefined

/**
 * Set by bin/pipe.js for the catalogue commands: `readInput` takes a file's bytes from its early read, once, and reads
 * the file itself when there is none or it could not (so a failure is reported as it always is).
 */
export function setEarlyReads(reads: Map<string, Promise<Buffer | undefined>> | undefined): void {
  earlyReads = reads
}

/** An input: a file path, a vfile, or a value with an optional path (used for the file's name and syntax). */
export type Input = string | VFile | {path?: string; value: string}

/** Read one input into a vfile. */
export async function readInput(input: Input, cwd = process.cwd()): Promise<VFile> {
  if (input instanceof VFile) return input
  if (typeof input === 'object' && input !== null && typeof input.value === 'string') {
    return new VFile({path: input.path, value: input.value, cwd})
  }
  if (typeof input !== 'string') throw new ApipeError('APIPE_ERR_INPUT', [show(input)])
  const file = new VFile({path: input, cwd})
  if (!checkFile(file)) return file
  try {
    // The bytes, decoded by the parser (`String(file)`) and again only when a finding's place is read: the text of
    // a 4 MB document is 8 MB of heap as soon as one character is outside Latin-1, held by nothing once it is
    // parsed, where the bytes are 4 MB outside the heap. Read in one synchronous call, unless bin/pipe.js read the
    // file early: the promise API reads a big file in chunks, one trip through libuv's thread pool each, and the
    // command waits on every trip (~15 ms of idle time for a 4 MB document, bench/import.js).
    const full = path.resolve(file.cwd, file.path)
    const early = earlyReads?.get(full)
    earlyReads?.delete(full)
    file.value = (early && (await early)) ?? readFileSync(full)
    inputRead(file.value.byteLength)
  } catch (error) {
    fail(file, `Cannot read file \`${file.path}\`: ${(error as Error).message}`)
  }
  return file
}

/** Check that `file.path` is a readable file without reading it; adds a fatal `read` finding and returns false if not. */
export function checkFile(file: VFile): boolean {
  const shown = file.history[0] ?? file.path
  try {
    const full = path.resolve(file.cwd, file.path)
    if (statSync(full).isDirectory()) return fail(file, `Unexpected folder \`${shown}\`, expected a file`)
    accessSync(full, constants.R_OK)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // `-` is standard input to `pipe validate` (which reads it before any file is checked), and a file name elsewhere.
    if (code === 'ENOENT' && shown === '-') return fail(file, 'Cannot read `-`: only `pipe validate` reads standard input; give a file')
    if (code === 'ENOENT') return fail(file, `Cannot find file \`${shown}\``)
    if (code === 'EACCES') return fail(file, `Cannot read file \`${shown}\`: permission denied`)
    return fail(file, `Cannot read file \`${shown}\`: ${(error as Error).message}`)
  }
}

function fail(file: VFile, reason: string): false {
  fatalFinding(file, reason, 'read')
  return false
}
