/** Spawn the real `pipe` binary (bin/pipe.js, built by `npm test`'s pretest) with colour off. */
import {spawn} from 'node:child_process'
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
