// @redocly/cli for the benches that measure against it (import, diff): not a dependency of apipe, so it is installed
// on demand into a temp prefix, once, at one pinned version. Without it the redocly rows say why.
import {execFileSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export const redoclyVersion = '2.77.0'
const prefix = path.join(os.tmpdir(), 'apipe-bench-redocly')

/** Where redocly's CLI is, and why it is missing when it could not be installed. */
export function redocly() {
  const bin = path.join(prefix, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js')
  if (existsSync(bin)) return {bin}
  try {
    execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `@redocly/cli@${redoclyVersion}`], {stdio: 'ignore'})
    return {bin}
  } catch (error) {
    return {bin, missing: `could not install @redocly/cli: ${error.message.split('\n')[0]}`}
  }
}
