// GitHub's REST descriptions, held out of the corpus: the @octokit/openapi package at one pinned version, installed on
// demand into a temp prefix as redocly is (bench/redocly.js), never a dependency. api.github.com.json (13 MB, 1,223
// operations) is a row of bench/import.js; GitHub Enterprise Server 3.18 and 3.19 (11 MB each) are a pair of
// bench/diff.js.
import {execFileSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export const octokitVersion = '23.0.2'
const prefix = path.join(os.tmpdir(), 'apipe-bench-github')

/** The folder of the package's descriptions, and why it is missing when it could not be installed. */
export function githubDescriptions() {
  const folder = path.join(prefix, 'node_modules', '@octokit', 'openapi', 'generated')
  if (existsSync(folder)) return {folder}
  try {
    execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `@octokit/openapi@${octokitVersion}`], {stdio: 'ignore'})
    return {folder}
  } catch (error) {
    return {folder, missing: `could not install @octokit/openapi: ${error.message.split('\n')[0]}`}
  }
}
