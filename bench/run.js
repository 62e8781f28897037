// Benchmarks, side by side with their anchors in one run. `npm run bench` prints the tables the README shows.
// Bounded: each command runs a fixed number of times; nothing talks to the network.
import {mkdirSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {measure, row} from './measure.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const pipe = [process.execPath, path.join(root, 'bin', 'pipe.js')]
const node = process.execPath
const lines = []
const print = (line) => {
  lines.push(line)
  console.log(line)
}

print(`Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}; median wall time of 15 runs, peak RSS.`)
print('')
print('| command | wall time (× `node -e 0`) | peak memory |')
print('| --- | --- | --- |')
const baseline = measure([node, '-e', '0'], {runs: 15})
print(row('`node -e 0` (anchor)', baseline))
print(row('`pipe --help`', measure([...pipe, '--help'], {runs: 15}), baseline))
print(row('`pipe validate` (80 endpoints, clean)', measure([...pipe, 'validate', 'fixtures/validate-catalogue/clean-80-endpoints/input.json'], {runs: 15, cwd: root}), baseline))

// A 50 MB catalogue where every other endpoint lacks a summary: the worst case for position lookup.
const big = path.join(os.tmpdir(), 'apipe-bench-50mb.endpoints.json')
const endpoints = Array.from({length: 110_000}, (_, index) => ({
  id: `op${index}`,
  method: 'GET',
  path: `/things/${index}/{id}`,
  group: `g${index % 50}`,
  ...(index % 2 ? {summary: `Get thing ${index}`} : {}),
  description: `A fairly long description of endpoint number ${index}, padding the file towards fifty megabytes.`,
  params: [{name: 'id', in: 'path', type: 'string', required: true}],
  response: 'Thing',
  status: [200, 404]
}))
const groups = Array.from({length: 50}, (_, index) => ({id: `g${index}`}))
writeFileSync(big, JSON.stringify({schema_version: 1, diagram_type: 'endpoints', meta: {title: 'Big'}, groups, endpoints, types: [{name: 'Thing'}]}, null, 2))
print(row('`pipe validate` (55 MB, 55,001 findings)', measure([...pipe, 'validate', big], {runs: 3}), baseline))

mkdirSync(path.join(root, 'bench', 'results'), {recursive: true})
writeFileSync(path.join(root, 'bench', 'results', 'latest.md'), lines.join('\n') + '\n')
