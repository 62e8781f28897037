import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'

const shop = path.join('fixtures', 'render-docs', 'two-catalogues', 'shop.endpoints.json')
const operations = [
  'GET /orders — List orders. It returns Order[].',
  'POST /orders — Place an order — paid later. It accepts NewOrder. It returns Order.',
  'EVENT orders.placed — Published when an order is placed! It returns Order.'
]
const types = [
  'Order is an object with fields id (uuid, required), status (OrderStatus).',
  'NewOrder is an input with field items (string[], required).',
  'OrderStatus is an enum with values new, paid.'
]

test('pipe sentences prints operations, a blank line, then types', async () => {
  const result = await runPipe(['sentences', shop])
  assert.equal(result, {code: 0, stdout: [...operations, '', ...types, ''].join('\n'), stderr: ''})
})

test('pipe sentences --section operations --format markdown prints one Markdown list', async () => {
  const result = await runPipe(['sentences', shop, '--section', 'operations', '--format', 'markdown'])
  assert.equal(result, {code: 0, stdout: operations.map((text) => `- ${text}`).join('\n') + '\n', stderr: ''})
})

test('pipe sentences --format markdown heads both sections', async () => {
  const {stdout} = await runPipe(['sentences', shop, '--format', 'markdown'])
  assert.is(stdout, ['## Operations', '', ...operations.map((text) => `- ${text}`), '', '## Types', '', ...types.map((text) => `- ${text}`), ''].join('\n'))
})

test('pipe sentences --format json prints the sentence objects', async () => {
  const {code, stdout} = await runPipe(['sentences', shop, '--section', 'operations', '--format', 'json'])
  assert.is(code, 0)
  assert.equal(JSON.parse(stdout)[0], {id: 'listOrders', method: 'GET', path: '/orders', group: 'orders', tags: ['public'], summary: 'List orders', text: operations[0]})
  const both = JSON.parse((await runPipe(['sentences', shop, '--format', 'json'])).stdout)
  assert.equal(Object.keys(both), ['operations', 'types'])
})

test('pipe sentences on a catalogue with errors prints the errors on stderr and exits 1', async () => {
  const result = await runPipe(['sentences', path.join('fixtures', 'validate-catalogue', 'several-findings', 'input.json')])
  assert.equal(result, {
    code: 1,
    stdout: '',
    stderr: [
      'error dangling-ref endpoints[2].group Unknown group `pets`; known ids: default, users',
      'error id-clash endpoints[3].id Endpoint id `getPet` is already used by endpoints[1].id',
      '2 error(s), 0 warning(s)',
      ''
    ].join('\n')
  })
})

test('pipe sentences refuses an unknown section or format', async () => {
  const section = await runPipe(['sentences', shop, '--section', 'paths'])
  assert.equal(section, {code: 2, stdout: '', stderr: 'Unexpected value `paths` for `--section`, expected one of operations, types\n\n$ pipe sentences [--section <section>] [--format <format>] [--quiet,-q] <spec_file>\n'})
  const format = await runPipe(['sentences', shop, '--format', 'yaml'])
  assert.equal(format, {code: 2, stdout: '', stderr: 'Unexpected value `yaml` for `--format`, expected one of text, json, markdown\n\n$ pipe sentences [--section <section>] [--format <format>] [--quiet,-q] <spec_file>\n'})
})

test('pipe sentences on a missing file is one read finding', async () => {
  const result = await runPipe(['sentences', 'missing.json'], {cwd: root})
  assert.equal(result, {code: 1, stdout: '', stderr: 'error read missing.json Cannot find file `missing.json`\n1 error(s), 0 warning(s)\n'})
})

test.run()
