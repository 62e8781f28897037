/**
 * The full collection before big inputs (pipeline/heap.ts): the CLI's collector runs once when `pipe diff` has read
 * inputs of a mebibyte or more together, not for smaller ones, and never when the CLI has set none (a library
 * user's heap is theirs). What the collection saves is measured in bench/, not here.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {suite} from 'uvu'
import * as assert from 'uvu/assert'
import {diffInputs} from '../cli/diff-inputs.js'
import {bigInputBytes, collectBeforeBigInput, setFullCollection} from '../pipeline/heap.js'

const test = suite('heap')

let folder: string
test.before.each(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'apipe-heap-'))
})
test.after.each(() => {
  setFullCollection(undefined)
  rmSync(folder, {recursive: true, force: true})
})

/** A counting collector, set as the CLI's. */
function counter(): {count: () => number} {
  let calls = 0
  setFullCollection(() => calls++)
  return {count: () => calls}
}

/** A JSON OpenAPI document of at least `bytes` bytes, with one operation, written into the test's folder. */
function openapiFile(name: string, bytes: number): string {
  const schemas: Record<string, unknown> = {}
  let length = 0
  for (let index = 0; length < bytes; index++) {
    schemas[`Thing${index}`] = {type: 'object', description: 'A thing among many things, named by its number', properties: {id: {type: 'string'}}}
    length += 120
  }
  const document = {openapi: '3.0.3', info: {title: 'Big', version: '1.0.0'}, paths: {'/things': {get: {responses: {200: {description: 'OK'}}}}}, components: {schemas}}
  const file = path.join(folder, name)
  writeFileSync(file, JSON.stringify(document))
  return file
}

test('the collector runs at the size bound and past it, not below it', () => {
  const {count} = counter()
  collectBeforeBigInput(bigInputBytes - 1)
  assert.is(count(), 0)
  collectBeforeBigInput(bigInputBytes)
  assert.is(count(), 1)
})

test('without a collector, big inputs only pass', () => {
  collectBeforeBigInput(bigInputBytes * 4)
})

test('pipe diff collects once before inputs of a mebibyte together, and not before small ones', async () => {
  const {count} = counter()
  const small = await diffInputs(openapiFile('small-old.json', 10_000), openapiFile('small-new.json', 10_000), folder)
  assert.equal(small.changes, [])
  assert.is(count(), 0)
  const big = await diffInputs(openapiFile('big-old.json', 600 * 1024), openapiFile('big-new.json', 600 * 1024), folder)
  assert.equal(big.changes, [])
  assert.is(count(), 1)
})

test.run()
