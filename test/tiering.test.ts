/**
 * Hot loops (pipeline/tiering.ts): the CLI's hooks run around a hot loop, in order, also when it throws, and only
 * when the CLI has set some; the parse plugin runs the block-YAML reader of a big YAML file inside them, and a small
 * file or a JSON file outside. Input sizes (pipeline/input-size.ts): the CLI's hook hears each input bigger than every
 * one before. What the hooks do to V8 is measured in bench/, not here.
 */
import {suite} from 'uvu'
import * as assert from 'uvu/assert'
import {VFile} from 'vfile'
import {parseSource} from '../plugins/parse.js'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {readInput} from '../pipeline/read.js'
import {hotCode, setHotCode} from '../pipeline/tiering.js'
import {setInputSizeHook} from '../pipeline/input-size.js'

const test = suite('tiering')

/** Hooks that write down what happened, and what ran between them. */
function recorder(): {calls: string[]; run: (what: string) => string} {
  const calls: string[] = []
  setHotCode({enter: () => calls.push('enter'), leave: () => calls.push('leave')})
  return {calls, run: (what) => (calls.push(what), what)}
}

test.after.each(() => setHotCode(undefined))

test('the hooks run around the hot loop and it answers', () => {
  const {calls, run} = recorder()
  assert.is(hotCode(() => run('read')), 'read')
  assert.equal(calls, ['enter', 'read', 'leave'])
})

test('a hot loop that throws still leaves', () => {
  const {calls} = recorder()
  assert.throws(() =>
    hotCode(() => {
      throw new Error('broken')
    }), /broken/)
  assert.equal(calls, ['enter', 'leave'])
})

test('without hooks, a hot loop only runs', () => {
  assert.is(hotCode(() => 42), 42)
})

/** A YAML OpenAPI document of about `bytes` bytes. */
function yamlDocument(bytes: number): Uint8Array {
  const lines = ['openapi: 3.0.3', 'info:', '  title: Big', '  version: 1.0.0', 'paths: {}', 'components:', '  schemas:']
  let length = lines.join('\n').length
  for (let index = 0; length < bytes; index++) {
    const thing = [`    Thing${index}:`, '      type: object', '      description: A thing among many things, named by its number']
    lines.push(...thing)
    length += thing.join('\n').length + 1
  }
  return new TextEncoder().encode(lines.join('\n') + '\n')
}

test('a big YAML file is read inside the hooks, a small one and a JSON file outside', () => {
  const {calls} = recorder()
  const big = parseSource(yamlDocument(300 * 1024), new VFile({path: 'big.yaml'}))
  assert.is(big.type, 'openapi')
  assert.equal(calls, ['enter', 'leave'])
  calls.length = 0
  parseSource(yamlDocument(10 * 1024), new VFile({path: 'small.yaml'}))
  const schemas = Object.fromEntries(Array.from({length: 5000}, (_, index) => [`Thing${index}`, {type: 'object', description: 'A thing among many things'}]))
  const json = new TextEncoder().encode(JSON.stringify({openapi: '3.0.3', info: {title: 'Big', version: '1'}, paths: {}, components: {schemas}}))
  assert.ok(json.byteLength > 256 * 1024)
  parseSource(json, new VFile({path: 'big.json'}))
  assert.equal(calls, [])
})

test('the CLI\'s hook hears the size of each input bigger than every one read before', async () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'apipe-sizes-'))
  const write = (name: string, bytes: number) => {
    const file = path.join(folder, name)
    writeFileSync(file, Buffer.alloc(bytes, ' '))
    return file
  }
  const small = write('small.json', 1000)
  const big = write('big.json', 5000)
  const heard: number[] = []
  setInputSizeHook((bytes) => heard.push(bytes))
  try {
    await readInput(small)
    await readInput(small)
    await readInput(big)
    await readInput(small)
    await readInput(big)
    assert.equal(heard, [1000, 5000])
    // A new hook hears from the start.
    setInputSizeHook((bytes) => heard.push(bytes))
    heard.length = 0
    await readInput(small)
    assert.equal(heard, [1000])
  } finally {
    setInputSizeHook(undefined)
    rmSync(folder, {recursive: true, force: true})
  }
})

test.run()
