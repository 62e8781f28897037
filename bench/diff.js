// The diff benchmark: `pipe diff` of two versions of Stripe's 4 MB OpenAPI description (the second made here by a
// scripted edit: an operation removed, a required query param added, a response property removed, an enum value
// added) against `redocly lint` of one of them, whole process, taking turns, in one run. Target: `pipe diff` in
// under a third of redocly's time. @redocly/cli is installed on demand into a temp prefix as bench/import.js does.
// Usage: node bench/diff.js   (RUNS=5 by default)
import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
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

const pipe = [process.execPath, path.join(root, 'bin', 'pipe.js'), 'diff', source, edited, '--fail-on', 'none']
const changes = execFileSync(pipe[0], pipe.slice(1), {encoding: 'utf8', maxBuffer: 1 << 30}).trim().split('\n').at(-1)
console.log(`Diff benchmark: median wall time of ${runs} runs each, taking turns, and peak RSS, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}.`)
console.log(`pipe diff found: ${changes}`)
console.log('')
console.log('| document | apipe: `pipe diff` (old and new) | redocly lint (one) | apipe / redocly |')
console.log('| --- | --- | --- | --- |')
const label = 'Stripe (OpenAPI 3.0, JSON, 4 MB) and its edited copy'
const cell = (result) => `${result.wall.toFixed(0)} ms, ${result.peak?.toFixed(0) ?? 'n/a'} MB`
if (redoclyMissing) {
  console.log(`| ${label} | ${cell(measure(pipe, {runs}))} | not measured: ${redoclyMissing} | |`)
} else {
  const [apipe, redocly] = measureTogether([
    {command: pipe},
    {command: [process.execPath, redoclyBin, 'lint', source, '--format', 'summary'], env: {REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true'}}
  ], {runs})
  console.log(`| ${label} | ${cell(apipe)} | ${cell(redocly)} | ${(apipe.wall / redocly.wall).toFixed(2)}× time |`)
}
