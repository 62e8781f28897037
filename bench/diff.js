// The diff benchmark: `pipe diff` of two versions of Stripe's 4 MB OpenAPI description (the second made here by a
// scripted edit: an operation removed, a required query param added, a response property removed, an enum value
// added) against `redocly lint` of one of them, whole process, taking turns, in one run. Target: `pipe diff` in
// under a third of redocly's time. @redocly/cli is installed on demand into a temp prefix as bench/import.js does.
// A second row is held out of the corpus: GitHub Enterprise Server's REST description, 3.18 against 3.19, two real
// versions of 11 MB each (bench/github.js), against `redocly lint` of the older.
// Usage: node bench/diff.js   (RUNS=5 by default)
import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {githubDescriptions, octokitVersion} from './github.js'
import {measure, measureTogether} from './measure.js'
import {redocly} from './redocly.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const source = path.join(root, '..', 'shared', 'corpus', 'big', 'stripe', 'spec3.json')
const runs = Number(process.env.RUNS ?? 5)

const {bin: redoclyBin, missing: redoclyMissing} = redocly()
if (!existsSync(source)) {
  console.log(`No corpus at ${source}: nothing to measure.`)
  process.exit(0)
}

// The scripted edit of the new version.
const work = path.join(os.tmpdir(), 'apipe-bench-diff')
mkdirSync(work, {recursive: true})
const document = JSON.parse(readFileSync(source, 'utf8'))
const paths = Object.keys(document.paths)
delete document.paths[paths[0]]
const listed = Object.values(document.paths).find((item) => item.get)
listed.get.parameters = [...(listed.get.parameters ?? []), {name: 'tenant', in: 'query', required: true, schema: {type: 'string'}}]
const schemas = document.components.schemas
const withProperties = Object.values(schemas).find((schema) => schema.properties && Object.keys(schema.properties).length > 3)
delete withProperties.properties[Object.keys(withProperties.properties)[0]]
const enumerated = Object.values(schemas).flatMap((schema) => Object.values(schema.properties ?? {})).find((property) => Array.isArray(property.enum))
enumerated?.enum.push('benchmark_value')
const edited = path.join(work, 'spec3.edited.json')
writeFileSync(edited, JSON.stringify(document))

const github = githubDescriptions()
const pairs = [
  ['Stripe (OpenAPI 3.0, JSON, 4 MB) and its edited copy', source, edited],
  [`GitHub Enterprise Server 3.18 and 3.19, held out (OpenAPI 3.0, JSON, 11 MB each; @octokit/openapi ${octokitVersion})`, path.join(github.folder, 'ghes-3.18.json'), path.join(github.folder, 'ghes-3.19.json')]
]
const pipe = (older, newer) => [process.execPath, path.join(root, 'bin', 'pipe.js'), 'diff', older, newer, '--fail-on', 'none']
const found = (older, newer) => execFileSync(process.execPath, pipe(older, newer).slice(1), {encoding: 'utf8', maxBuffer: 1 << 30}).trim().split('\n').at(-1)
console.log(`Diff benchmark: median wall time of ${runs} runs each, taking turns, and peak RSS, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}.`)
console.log('')
console.log('| document | apipe: `pipe diff` (old and new) | redocly lint (one) | apipe / redocly |')
console.log('| --- | --- | --- | --- |')
const cell = (result) => `${result.wall.toFixed(0)} ms, ${result.peak?.toFixed(0) ?? 'n/a'} MB`
const changes = []
for (const [label, older, newer] of pairs) {
  if (older.startsWith(github.folder) && github.missing) {
    console.log(`| ${label} | not measured: ${github.missing} | | |`)
    continue
  }
  changes.push(`${label}: ${found(older, newer)}`)
  if (redoclyMissing) {
    console.log(`| ${label} | ${cell(measure(pipe(older, newer), {runs}))} | not measured: ${redoclyMissing} | |`)
    continue
  }
  const [apipe, redocly] = measureTogether([
    {command: pipe(older, newer)},
    {command: [process.execPath, redoclyBin, 'lint', older, '--format', 'summary'], env: {REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true'}}
  ], {runs})
  console.log(`| ${label} | ${cell(apipe)} | ${cell(redocly)} | ${(apipe.wall / redocly.wall).toFixed(2)}× time |`)
}
console.log('')
for (const line of changes) console.log(`pipe diff found, ${line}`)
