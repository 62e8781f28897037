// Writes V8's code cache of the CLI's CommonJS copy (dist/bundle/cli.cjs) for each set of V8 flags bin/pipe.js uses:
// `batch` (validate, import, render, map, …) and `diff`. V8 refuses a cache made under other flags, so each is made
// by running `pipe` itself, with its own flags, on a fixture of this repository that takes the paths of a typical
// run (a multi-file YAML description imported, checked and rendered; two versions of a description compared); the
// cache then holds the bytecode of every function that run compiled. Run by `npm run build` after the bundle; a
// failed run leaves that profile without a cache, which costs speed, not correctness.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, rmSync, statSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const output = mkdtempSync(path.join(os.tmpdir(), 'apipe-code-cache-'))
const runs = {
  batch: ['map', 'fixtures/import-openapi/multi-file/input.yaml', '--output', output],
  diff: ['diff', 'fixtures/diff-catalogues/openapi-field-and-param/old.yaml', 'fixtures/diff-catalogues/openapi-field-and-param/input.yaml', '--fail-on', 'none']
}
try {
  for (const [profile, args] of Object.entries(runs)) {
    const cache = path.join(root, 'dist', 'bundle', `cli.${profile}.cache`)
    rmSync(cache, {force: true})
    // The command's findings and exit code do not matter here, only that it ran to its end and wrote the cache.
    const run = spawnSync(process.execPath, [path.join(root, 'bin', 'pipe.js'), ...args], {cwd: root, encoding: 'utf8', env: {...process.env, APIPE_WRITE_CODE_CACHE: cache}})
    if (existsSync(cache)) console.log(`${path.relative(root, cache)}: ${(statSync(cache).size / 1024).toFixed(0)} KB`)
    else console.warn(`No code cache for \`pipe ${args[0]}\`: ${(run.error?.message ?? run.stderr).trim().split('\n').at(-1)}`)
  }
} finally {
  rmSync(output, {recursive: true, force: true})
}
