/** Spawn the real `pipe` binary (bin/pipe.js, built by `npm test`'s pretest) with colour off. */
import {spawn, type ChildProcess} from 'node:child_process'
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
export function servePipe(command: string, dir: string, env: Record<string, string> = {}): Promise<{child: ChildProcess; url: string; output: () => string; exited: Promise<number | null>}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [pipeBin, command, '--project', dir], {cwd: dir, env: {...process.env, PORT: '0', NO_COLOR: '1', ...env}, stdio: ['ignore', 'pipe', 'pipe']})
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
