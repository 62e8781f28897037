// Packages the benches measure against or read, but that apipe does not depend on: each is installed on demand into
// a temp prefix of its own, once, at one pinned version. Without it, the rows that need it say why.
import {execFileSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * The path of `inside` (segments under the package's folder) once `name@version` is installed into the temp prefix
 * `prefixName`, and why it is missing when it could not be installed.
 */
export function onDemand(name, version, prefixName, ...inside) {
  const prefix = path.join(os.tmpdir(), prefixName)
  const target = path.join(prefix, 'node_modules', ...name.split('/'), ...inside)
  if (existsSync(target)) return {path: target}
  try {
    execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `${name}@${version}`], {stdio: 'ignore'})
    return {path: target}
  } catch (error) {
    return {path: target, missing: `could not install ${name}: ${error.message.split('\n')[0]}`}
  }
}
