/**
 * Files as a git revision has them, for `pipe diff main:api/openapi.yaml …`: the document itself and, for a split
 * description, the files its `$ref`s lead to, read from the same revision (read from the working tree, they would
 * compare the new files with themselves and hide every change made in them). Loaded only for such an input: it
 * brings node:child_process.
 */
import {execFile, execFileSync} from 'node:child_process'
import path from 'node:path'

/** Where a file of a revision is: the repository's top folder and the file's path in it (`api/openapi.yaml`). */
export interface GitFile {
  revision: string
  top: string
  /** Path inside the repository, `/`-separated. */
  name: string
}

const maxBuffer = 1024 * 1024 * 1024

/** A path written from the working folder (`./api.yaml`, `../api.yaml`), as git reads it after a revision. */
const fromWorkingFolder = /^\.\.?[\\/]/

/**
 * Where `<revision>:<path>` is. As `git show` reads it, the path is from the repository's top folder, or from `cwd`
 * when it starts with `./` or `../`. Throws git's own first line when `cwd` is not in a repository.
 */
export function locateGitFile(input: string, cwd: string): GitFile {
  const colon = input.indexOf(':')
  const written = input.slice(colon + 1)
  const top = run(['rev-parse', '--show-toplevel'], cwd).trim()
  const absolute = fromWorkingFolder.test(written) ? path.resolve(cwd, written) : path.resolve(top, written)
  return {revision: input.slice(0, colon), top, name: gitPath(top, absolute) ?? written}
}

/**
 * What a user in a subfolder most likely meant by `<revision>:<path>` when the revision has no such file from the
 * top folder: the same path from `cwd` (`HEAD:./openapi.yaml`), when the revision has that one, as git itself hints.
 */
export function nearbyGitInput(input: string, cwd: string): string | undefined {
  const colon = input.indexOf(':')
  const written = input.slice(colon + 1)
  if (fromWorkingFolder.test(written)) return undefined
  const nearby = `${input.slice(0, colon)}:./${written}`
  try {
    const file = locateGitFile(nearby, cwd)
    run(['cat-file', '-e', `${file.revision}:${file.name}`], file.top)
    return nearby
  } catch {
    return undefined
  }
}

/** The text of a file of a revision (`git show`), without blocking: the document compared. */
export function showGitFile(file: GitFile): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', ['show', `${file.revision}:${file.name}`], {cwd: file.top, maxBuffer, encoding: 'utf8'}, (error, stdout, stderr) => {
      if (error) reject(new Error(firstLine(stderr) || error.message))
      else resolve(stdout)
    })
  })
}

/**
 * A reader of the files `$ref`s lead to (absolute paths in the working tree) as `revision` has them. The first read
 * fetches every JSON, YAML and Markdown file under `folder` (the document's own folder) in one `git cat-file` call,
 * since split descriptions keep their files beside the root (Lob's: 475 files); any other file is one `git show`.
 * Throws for a file the revision does not have, as reading a missing file does.
 */
export function gitFileReader(revision: string, top: string, folder: string): (file: string) => string {
  let fetched: Map<string, string> | undefined
  return (file) => {
    const name = gitPath(top, file)
    if (name === undefined) throw new Error(`\`${file}\` is outside the repository`)
    fetched ??= fetchFolder(revision, top, gitPath(top, folder) ?? '')
    return fetched.get(name) ?? run(['show', `${revision}:${name}`], top)
  }
}

/** At most this many files are fetched up front; a folder with more (a whole monorepo) is read file by file. */
const fetchLimit = 5000

function fetchFolder(revision: string, top: string, folder: string): Map<string, string> {
  const files = new Map<string, string>()
  try {
    const names = run(['ls-tree', '-r', '-z', '--name-only', revision, '--', folder || '.'], top)
      .split('\0')
      .filter((name) => /\.(json|ya?ml|md|markdown)$/i.test(name) && !name.includes('\n'))
    if (names.length === 0 || names.length > fetchLimit) return files
    const output = execFileSync('git', ['cat-file', '--batch'], {cwd: top, input: names.map((name) => `${revision}:${name}\n`).join(''), maxBuffer, stdio: ['pipe', 'pipe', 'ignore']})
    // Each answer: `<sha> <type> <size>\n<content>\n`, or `<object> missing\n`.
    let at = 0
    for (const name of names) {
      const end = output.indexOf(10, at)
      if (end === -1) break
      const header = output.toString('utf8', at, end).split(' ')
      at = end + 1
      if (header.length !== 3 || header[1] !== 'blob') continue
      const size = Number(header[2])
      files.set(name, output.toString('utf8', at, at + size))
      at += size + 1
    }
  } catch {
    // Read file by file instead.
  }
  return files
}

/** `file` (absolute) as a path inside the repository at `top`, or undefined when it is outside. */
function gitPath(top: string, file: string): string | undefined {
  const relative = path.relative(top, file)
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined
  return relative.split(path.sep).join('/')
}

function run(args: string[], cwd: string): string {
  try {
    return execFileSync('git', args, {cwd, maxBuffer, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe']})
  } catch (error) {
    throw new Error(firstLine(String((error as {stderr?: unknown}).stderr ?? '')) || (error as Error).message)
  }
}

function firstLine(stderr: string): string {
  return (stderr.trim().split('\n')[0] ?? '').replace(/^fatal: /, '')
}
