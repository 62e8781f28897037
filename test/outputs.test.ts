/** Outputs: the pretty JSON of a catalogue, built in pieces, is exactly `JSON.stringify(value, null, 2)`, as written. */
import fc from 'fast-check'
import {spawnSync} from 'node:child_process'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {existsSync, mkdtempSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {VFile} from 'vfile'
import {makeFolder} from '../pipeline/make-folder.js'
import {addJsonOutput, prettyJsonChunks, writeOutputs} from '../pipeline/outputs.js'
import {root} from './helpers/fixtures.js'
import {pipeBin} from './helpers/run-pipe.js'
import {testWhen} from './helpers/skip.js'

const decode = (chunks: Iterable<string>) => [...chunks].join('')

test('prettyJsonChunks writes what JSON.stringify with two spaces writes, plus a newline', () => {
  fc.assert(
    fc.property(fc.anything({maxDepth: 4, withBoxedValues: false, withDate: true}), (value) => {
      const expected = JSON.stringify(value, null, 2)
      if (expected === undefined) return
      assert.is(decode(prettyJsonChunks(value)), `${expected}\n`)
    }),
    {seed: 20261123, numRuns: 2000}
  )
})

test('prettyJsonChunks: characters outside Latin-1 and holes', () => {
  const value = {a: [1, undefined, () => 1, {b: '’ — 猫 \n 😀'}], c: undefined, d: {}, e: [], f: new Date(0)}
  assert.is(decode(prettyJsonChunks(value)), `${JSON.stringify(value, null, 2)}\n`)
})

test('prettyJsonChunks: a catalogue of many pieces, past the points where pieces become bytes', () => {
  const endpoints = Array.from({length: 3000}, (_, index) => ({id: `e${index}`, description: `猫 😀 ’ ${'x'.repeat(index % 300)}`, params: [{name: 'a', required: true}]}))
  const value = {schema_version: 1, endpoints}
  assert.is(decode(prettyJsonChunks(value)), `${JSON.stringify(value, null, 2)}\n`)
})

test('a JSON output reads as its text and is written as the same bytes; a replaced value is what is written', async () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'apipe-outputs-'))
  const file = new VFile({path: path.join(folder, 'shop.yaml'), value: ''})
  const spec = {meta: {title: 'Shop ’ 猫 😀'}, endpoints: [{id: 'a'}]}
  addJsonOutput(file, 'shop.endpoints.json', spec)
  addJsonOutput(file, 'other.endpoints.json', spec)
  const [first, second] = file.data.outputs!
  assert.is(String(first), `${JSON.stringify(spec, null, 2)}\n`)
  second.value = '{}\n'
  assert.equal(await writeOutputs([file], {announce: false}), [path.join(folder, 'shop.endpoints.json'), path.join(folder, 'other.endpoints.json')])
  assert.is(readFileSync(path.join(folder, 'shop.endpoints.json'), 'utf8'), `${JSON.stringify(spec, null, 2)}\n`)
  assert.is(readFileSync(path.join(folder, 'other.endpoints.json'), 'utf8'), '{}\n')
})


test('makeFolder makes the missing folders, keeps those there, and throws what stops it', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'apipe-folder-'))
  makeFolder(path.join(dir, 'a', 'b', 'c'))
  assert.ok(statSync(path.join(dir, 'a', 'b', 'c')).isDirectory())
  makeFolder(path.join(dir, 'a', 'b'))
  writeFileSync(path.join(dir, 'file'), 'x')
  assert.throws(() => makeFolder(path.join(dir, 'file', 'under')), (error: NodeJS.ErrnoException) => error.code === 'ENOTDIR')
  assert.throws(() => makeFolder(path.join(dir, 'file')), (error: NodeJS.ErrnoException) => error.code === 'EEXIST')
})

// Node 20's recursive mkdir loops forever there (the kernel answers ENOENT though the parent exists).
const noProc = existsSync('/proc/self') ? undefined : 'no /proc on this system'
testWhen(test, noProc, 'an output folder the system refuses under /proc is one write finding and exit 1, not a hang', async () => {
  const input = path.join(root, 'fixtures', 'validate-catalogue', 'clean', 'input.json')
  // A hang is stopped after a minute, and fails the test as the signal that stopped it.
  const rendered = spawnSync(process.execPath, [pipeBin, 'render', input, '--output', '/proc/apipe-nope/page.html'], {encoding: 'utf8', timeout: 60_000, env: {...process.env, NO_COLOR: '1'}})
  assert.is(rendered.signal, null)
  assert.is(rendered.status, 1)
  assert.match(rendered.stdout + rendered.stderr, /error write .* Cannot write `\/proc\/apipe-nope\/page\.html`: ENOENT/)
  assert.not.ok(existsSync('/proc/apipe-nope'))
  assert.throws(() => makeFolder('/proc/apipe-nope/deeper'), (error: NodeJS.ErrnoException) => error.code === 'ENOENT')
})

test.run()
