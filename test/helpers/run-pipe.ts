/** Spawn the real `pipe` binary (bin/pipe.js, built by `npm test`'s pretest) with colour off. */
import {spawn, type ChildProcess} from 'node:child_process'
import {cpSync, mkdirSync, rmSync, symlinkSync} from 'node:fs'
import {temporaryProject} from './databases.js'
import path from 'node:path'
import {root} from './fixtures.js'

/** What a user sees from one run. */
export interface PipeResult {
  code: number | null
  stdout: string
  stderr: string
}

export const pipeBin = path.join(root, 'bin', 'pipe.js')

/** Run `pipe …args` in `cwd` (default: the repository root), with `input` on stdin when given. */
export function runPipe(args: string[], options: {cwd?: string; env?: Record<string, string>; input?: string} = {}): Promise<PipeResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [pipeBin, ...args], {
      cwd: options.cwd ?? root,
      env: {...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...options.env},
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (chunk) => (stdout += chunk))
    child.stderr!.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({code, stdout, stderr}))
    if (options.input !== undefined) child.stdin!.end(options.input)
  })
}

/** Start `pipe <command>` on a free port; resolves once it says where it serves. */
export function servePipe(command: string, dir: string, env: Record<string, string> = {}, args: string[] = []): Promise<{child: ChildProcess; url: string; output: () => string; exited: Promise<number | null>}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [pipeBin, command, '--project', dir, ...args], {cwd: dir, env: {...process.env, PORT: '0', NO_COLOR: '1', ...env}, stdio: ['ignore', 'pipe', 'pipe']})
    let output = ''
    const exited = new Promise<number | null>((done) => child.on('close', done))
    void exited.then((code) => reject(new Error(`pipe ${command} exited with ${code} before serving:\n${output}`)))
    child.stdout!.on('data', (chunk) => {
      output += chunk
      const match = /on (http:\/\/[\w.]+:\d+)/.exec(output)
      if (match) resolve({child, url: match[1], output: () => output, exited})
    })
    child.stderr!.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    setTimeout(() => reject(new Error(`no start line:\n${output}`)), 20_000).unref()
  })
}

/**
 * A copy of a fixture project in a temporary folder, `apipe-kit` linked to this checkout as `npm install` would
 * link it, and its migrations applied (with `env`, for a project whose config reads variables).
 */
export async function projectCopy(fixture: string, env: Record<string, string> = {}): Promise<string> {
  const dir = temporaryProject(path.basename(fixture))
  cpSync(fixture, dir, {recursive: true, filter: (source) => !/[/\\](data|node_modules)$/.test(source)})
  rmSync(path.join(dir, 'node_modules'), {recursive: true, force: true})
  mkdirSync(path.join(dir, 'node_modules'))
  symlinkSync(root, path.join(dir, 'node_modules', 'apipe-kit'))
  const migrated = await runPipe(['migrate', '--project', dir], {env})
  if (migrated.code !== 0) throw new Error(`pipe migrate failed in ${dir}:\n${migrated.stderr}`)
  return dir
}
