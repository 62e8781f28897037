/**
 * The inputs of `pipe validate`: files, folders, globs and `-` (stdin) become one list of inputs, validated with the
 * `validate` preset and the configuration nearest to each file (`.piperc*`, the `pipe` field of package.json).
 */
import {stat} from 'node:fs/promises'
import path from 'node:path'
import type {Preset} from 'unified'
import {VFile} from 'vfile'
import {runPreset, type RunOptions} from '../pipeline/process.js'
import {fatalFinding} from '../pipeline/rule.js'
import type {Input} from '../pipeline/read.js'
import validate from '../presets/validate.js'

/** What a folder is searched for, and what a search never enters. */
const searched = '**/*.{json,yaml,yml}'
const skipped = ['**/node_modules/**', '**/package.json', '**/package-lock.json']

/**
 * Expand arguments into inputs, in the order given (each folder's and glob's matches sorted): a file stays itself,
 * a folder is searched for `.json`, `.yaml` and `.yml` files (not in `node_modules` or dot-folders, and not
 * package.json), a glob is matched, `-` is stdin. A folder or glob without matches is a fatal `read` finding.
 */
export async function expandInputs(args: string[], readStdin: () => Promise<string>, cwd = process.cwd()): Promise<Input[]> {
  const inputs: Input[] = []
  const seen = new Set<string>()
  const add = (file: string) => {
    const full = path.resolve(cwd, file)
    if (seen.has(full)) return
    seen.add(full)
    inputs.push(file)
  }
  for (const arg of args) {
    if (arg === '-') {
      inputs.push(new VFile({value: await readStdin(), cwd}))
      continue
    }
    const info = await stat(path.resolve(cwd, arg)).catch(() => undefined)
    const {glob, isDynamicPattern} = await import('tinyglobby')
    if (info?.isFile() || (!info && !isDynamicPattern(arg))) {
      // A missing file is read anyway, so that it gets the `read` finding of every command.
      add(arg)
      continue
    }
    const matches = info?.isDirectory()
      ? await glob(searched, {cwd: path.resolve(cwd, arg), ignore: skipped}).then((found) => found.map((file) => path.join(arg, file)))
      : await glob(arg, {cwd, ignore: skipped})
    if (matches.length === 0) {
      const file = new VFile({path: arg, cwd})
      fatalFinding(file, info ? `Unexpected folder \`${arg}\` without .json, .yaml or .yml files` : `No files match \`${arg}\``, 'read')
      inputs.push(file)
      continue
    }
    for (const match of matches.sort()) add(match)
  }
  return inputs
}

/** Validate inputs with `preset` (default: `validate`) and each one's nearest configuration. */
export async function validateFiles(inputs: Input[], preset: Preset = validate, options: RunOptions = {}): Promise<VFile[]> {
  return runPreset(preset, inputs, {config: true, ...options})
}

/** All of stdin as text. */
export async function readStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8')
}
