/**
 * The inputs of `pipe validate`: files, folders, globs and `-` (stdin) become one list of inputs, validated with the
 * `validate` preset and the configuration nearest to each file (`.piperc*`, the `pipe` field of package.json).
 */
import {readFile, stat} from 'node:fs/promises'
import path from 'node:path'
import ignoreModule, {type Ignore} from 'ignore'
import type {Preset} from 'unified'
import {VFile} from 'vfile'
import {runPreset, type RunOptions} from '../pipeline/process.js'
import {fatalFinding} from '../pipeline/rule.js'
import type {Input} from '../pipeline/read.js'
import validate from '../presets/validate.js'

// `ignore` is CommonJS (`module.exports = ignore`); its types say an ES module's default export.
const ignore = ignoreModule as unknown as typeof ignoreModule.default

/** What a folder is searched for, and what a search never enters. */
const searched = '**/*.{json,yaml,yml}'
const skipped = ['**/node_modules/**', '**/package.json', '**/package-lock.json']

/**
 * Expand arguments into inputs, in the order given (each folder's and glob's matches sorted): a file stays itself,
 * a folder is searched for `.json`, `.yaml` and `.yml` files (not in `node_modules` or dot-folders, not dotfiles
 * such as `.piperc.json`, and not package.json), a glob is matched, `-` is stdin when `readStdin` is given. What a
 * search finds is left out when the nearest `.pipeignore` lists it; a file named outright is kept. A folder or glob
 * without matches is a fatal `read` finding (with an empty value, so that unified-engine keeps it as it is).
 */
export async function expandInputs(args: string[], readStdin?: () => Promise<string>, cwd = process.cwd()): Promise<Input[]> {
  const ignored = pipeignore(cwd)
  const inputs: Input[] = []
  const seen = new Set<string>()
  const add = (file: string) => {
    const full = path.resolve(cwd, file)
    if (seen.has(full)) return
    seen.add(full)
    inputs.push(file)
  }
  for (const arg of args) {
    if (arg === '-' && readStdin) {
      // Standard input is read once, as a file named twice is (`pipe validate - -` is one input, not a second, empty one).
      if (!seen.has('-')) inputs.push(new VFile({value: await readStdin(), cwd}))
      seen.add('-')
      continue
    }
    const info = await stat(path.resolve(cwd, arg)).catch(() => undefined)
    const {glob, isDynamicPattern} = await import('tinyglobby')
    if (info?.isFile() || (!info && !isDynamicPattern(arg))) {
      // A missing file is read anyway, so that it gets the `read` finding of every command.
      add(arg)
      continue
    }
    // Files only: a folder that a pattern matches (`out.json/`, which `pipe map --output out.json` makes) is not
    // searched in turn, as tinyglobby would by default, for its `.html` and every other file.
    const matches = info?.isDirectory()
      ? await glob(searched, {cwd: path.resolve(cwd, arg), ignore: skipped, expandDirectories: false}).then((found) => found.map((file) => path.join(arg, file)))
      : await glob(arg, {cwd, ignore: skipped, expandDirectories: false})
    const kept: string[] = []
    for (const match of matches) if (!(await ignored(match))) kept.push(match)
    if (kept.length === 0) {
      const file = new VFile({path: arg, value: '', cwd})
      const what = info ? `Unexpected folder \`${arg}\` without .json, .yaml or .yml files` : `No files match \`${arg}\``
      fatalFinding(file, matches.length > 0 ? `${what} that \`.pipeignore\` does not list` : what, 'read')
      inputs.push(file)
      continue
    }
    for (const match of kept.sort()) add(match)
  }
  return inputs
}

/**
 * Whether the nearest `.pipeignore` above a path (relative to `cwd`) lists it, as unified-engine reads that file for
 * `pipe run`: gitignore patterns, relative to the folder of the `.pipeignore` that holds them.
 */
function pipeignore(cwd: string): (file: string) => Promise<boolean> {
  const nearest = new Map<string, Promise<{folder: string; rules: Ignore} | undefined>>()
  const find = (folder: string): Promise<{folder: string; rules: Ignore} | undefined> => {
    let found = nearest.get(folder)
    if (!found) {
      found = readFile(path.join(folder, '.pipeignore'), 'utf8').then(
        (text) => ({folder, rules: ignore().add(text)}),
        () => (path.dirname(folder) === folder ? undefined : find(path.dirname(folder)))
      )
      nearest.set(folder, found)
    }
    return found
  }
  return async (file) => {
    const full = path.resolve(cwd, file)
    const found = await find(path.dirname(full))
    return found ? found.rules.ignores(path.relative(found.folder, full)) : false
  }
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
