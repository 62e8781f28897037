// Writes V8's code cache of the CLI's CommonJS copy (dist/bundle/cli.cjs) for each set of V8 flags bin/pipe.js uses:
// `batch` (validate, import, render, map, …) and `diff`. V8 refuses a cache made under other flags, so each is made
// by running `pipe` itself, with its own flags, over this repository's fixtures in one process: every OpenAPI and
// AsyncAPI import fixture mapped (imported, checked, validated, rendered) and the page fixtures rendered for
// `batch`, every pair of OpenAPI versions compared for `diff`. The cache then holds the bytecode of every function
// those runs compiled. Run by `npm run build` after the bundle; a failed run leaves that profile without a cache,
// which costs speed, not correctness.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const output = mkdtempSync(path.join(os.tmpdir(), 'apipe-code-cache-'))

/** The fixture folders under `fixtures/<group>`, with the name of their input file (`input.yaml`, `input.json`). */
function cases(group) {
  const folder = path.join('fixtures', group)
  // A copy of the package without its fixtures (a tarball) builds without caches.
  if (!existsSync(path.join(root, folder))) return []
  return readdirSync(path.join(root, folder))
    .map((name) => path.join(folder, name))
    .flatMap((dir) => readdirSync(path.join(root, dir)).filter((file) => /^input\.(json|ya?ml)$/.test(file)).map((file) => [dir, file]))
}

const maps = [...cases('import-openapi'), ...cases('import-asyncapi')].map(([dir, file], index) => ['map', path.join(dir, file), '--output', path.join(output, String(index))])
const renders = cases('render-html').map(([dir, file], index) => ['render', path.join(dir, file), '--output', path.join(output, `page-${index}.html`)])
const diffs = cases('diff-catalogues')
  .filter(([dir, file]) => /^(openapi|swagger):/m.test(readFileSync(path.join(root, dir, file), 'utf8')))
  .map(([dir, file]) => ['diff', path.join(dir, file.replace('input', 'old')), path.join(dir, file), '--fail-on', 'none'])

try {
  for (const [profile, runs] of Object.entries({batch: [...renders, ...maps], diff: diffs})) {
    const cache = path.join(root, 'dist', 'bundle', `cli.${profile}.cache`)
    rmSync(cache, {force: true})
    // The commands' findings and exit codes do not matter here, only that they ran to their end and wrote the cache.
    const [first, ...more] = runs
    if (!first) {
      console.warn(`No code cache for \`${profile}\`: no fixtures to run`)
      continue
    }
    const run = spawnSync(process.execPath, [path.join(root, 'bin', 'pipe.js'), ...first], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      // An install must not wait on a run that hangs: it then goes without this cache.
      timeout: 120_000,
      env: {...process.env, APIPE_WRITE_CODE_CACHE: cache, APIPE_CODE_CACHE_RUNS: JSON.stringify(more)}
    })
    if (existsSync(cache)) console.log(`${path.relative(root, cache)}: ${runs.length} runs, ${(statSync(cache).size / 1024).toFixed(0)} KB`)
    else console.warn(`No code cache for \`pipe ${first[0]}\`: ${(run.error?.message ?? run.stderr).trim().split('\n').at(-1)}`)
  }
} finally {
  rmSync(output, {recursive: true, force: true})
}
