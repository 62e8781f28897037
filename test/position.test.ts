/**
 * Places of findings: a JSON path resolved in the source text (JSON scanned on demand, YAML through its document)
 * must land on the member's key or the item's value, however the text is laid out.
 */
import fc from 'fast-check'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {mkdtempSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {VFile} from 'vfile'
import {locate} from '../pipeline/position.js'
import {readInput} from '../pipeline/read.js'
import type {JsonPath} from '../pipeline/json-path.js'
import {asciiJson, parseSource} from '../plugins/parse.js'
import {createFinding} from '../pipeline/rule.js'

/** The offset of a 1-based line and column in `text` (lines end at `\r\n`, `\n` or `\r`). */
function offsetOf(text: string, line: number, column: number): number {
  let offset = 0
  for (let current = 1; current < line; current++) {
    const next = text.slice(offset).search(/\r\n|\n|\r/)
    offset += next + (text.startsWith('\r\n', offset + next) ? 2 : 1)
  }
  return offset + column - 1
}

/** Lay JSON out with random whitespace between tokens, as hand-written and generated files do. */
function layOut(value: unknown, spaces: string[], counter = {at: 0}): string {
  const gap = () => spaces[counter.at++ % spaces.length]
  if (Array.isArray(value)) return `[${gap()}${value.map((item) => layOut(item, spaces, counter)).join(`${gap()},${gap()}`)}${gap()}]`
  if (value && typeof value === 'object') {
    const members = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}${gap()}:${gap()}${layOut(item, spaces, counter)}`)
    return `{${gap()}${members.join(`${gap()},${gap()}`)}${gap()}}`
  }
  return JSON.stringify(value)
}

/** A random existing path of `value` (seeded by `choices`), possibly extended by segments that do not exist. */
function pathInto(value: unknown, choices: number[], extra: boolean): {path: JsonPath; last: unknown} {
  const path: Array<string | number> = []
  let node = value
  for (const choice of choices) {
    if (!node || typeof node !== 'object') break
    const keys: Array<string | number> = Array.isArray(node) ? node.map((_, index) => index) : Object.keys(node)
    if (keys.length === 0) break
    const key = keys[choice % keys.length]
    path.push(key)
    node = (node as Record<string | number, unknown>)[key]
  }
  return {path: extra ? [...path, 'missing', 7] : path, last: node}
}

test('a JSON path lands on the key of its member or the start of its item, in any layout', () => {
  const whitespace = fc.array(fc.constantFrom('', ' ', '\n', '\r\n', '\t', '  \n  ', '\r'), {minLength: 1, maxLength: 6})
  const document = fc.dictionary(fc.string(), fc.jsonValue({maxDepth: 4}), {minKeys: 1})
  fc.assert(
    fc.property(document, whitespace, fc.array(fc.nat(), {maxLength: 6}), fc.boolean(), (value, spaces, choices, extra) => {
      const text = layOut(value, spaces)
      const file = new VFile({path: 'doc.json', value: text})
      parseSource(text, file)
      const {path} = pathInto(value, choices, extra)
      const existing = extra ? path.slice(0, -2) : path
      const point = locate(file, path)!
      const at = text.slice(offsetOf(text, point.line, point.column))
      const last = existing[existing.length - 1]
      const holder = pathInto(value, choices, false)
      if (typeof last === 'string') assert.ok(at.startsWith(JSON.stringify(last)), `${JSON.stringify(path)} at ${point.line}:${point.column}: ${at.slice(0, 30)}`)
      else assert.ok(at.startsWith(JSON.stringify(holder.last)?.[0] ?? ''), `${JSON.stringify(path)} at ${point.line}:${point.column}: ${at.slice(0, 30)}`)
    }),
    {seed: 20261123, numRuns: 400}
  )
})

test('repeated JSON keys: the first one is the place', () => {
  const text = '{\n  "a": 1,\n  "a": {"b": 2}\n}\n'
  const file = new VFile({path: 'doc.json', value: text})
  parseSource(text, file)
  assert.equal(locate(file, ['a']), {line: 2, column: 3})
  assert.equal(locate(file, ['a', 'b']), {line: 2, column: 3})
})

test('a YAML path lands on the key of its member or the start of its item', () => {
  const text = 'info:\n  title: Pets\nservers:\n  - url: https://a\n  - url: https://b\n'
  const file = new VFile({path: 'doc.yaml', value: text})
  parseSource(text, file)
  assert.equal(locate(file, ['info', 'title']), {line: 2, column: 3})
  assert.equal(locate(file, ['servers', 1]), {line: 5, column: 5})
  assert.equal(locate(file, ['servers', 1, 'url']), {line: 5, column: 5})
  assert.equal(locate(file, ['servers', 5]), {line: 3, column: 1})
  assert.equal(locate(file, ['paths', '/pets']), {line: 1, column: 1})
})

test('YAML is parsed without positions; its document is built only when a finding\'s place is read, and places right', () => {
  const text = 'openapi: 3.0.0\ninfo:\n  title: Pets\npaths:\n  /pets:\n    get:\n      summary: List\n'
  const file = new VFile({path: 'pets.yaml', value: text})
  parseSource(text, file)
  assert.is(file.data.yamlSource, undefined)
  const message = createFinding(file, 'A finding', 'summary', ['paths', '/pets', 'get', 'summary'])
  assert.is(file.data.yamlSource, undefined)
  assert.equal([message.line, message.column], [7, 7])
  assert.ok(file.data.yamlSource)
})

test('a file read from disk keeps its bytes; the text is decoded to parse it and, when a place is read, to find it', async () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'apipe-position-'))
  // Characters outside Latin-1 and outside the BMP before the finding: a place in bytes would be off.
  const text = '{\n  "info": {"title": "Pets ’ 🐾", "version": "1"},\n  "paths": {}\n}\n'
  writeFileSync(path.join(folder, 'pets.json'), text)
  const file = await readInput('pets.json', folder)
  assert.ok(file.value instanceof Uint8Array)
  parseSource(String(file), file)
  const message = createFinding(file, 'A finding', 'summary', ['info', 'version'])
  assert.is(file.data.jsonPlaces, undefined)
  assert.equal([message.line, message.column], [2, 34])
  assert.ok(file.data.jsonPlaces)
  // The same place as in the text given as a string.
  const inMemory = new VFile({path: 'pets.json', value: text})
  parseSource(text, inMemory)
  assert.equal(locate(inMemory, ['info', 'version']), {line: 2, column: 34})
})

test('a JSON file is parsed from its bytes as from its decoded text, and fails with the same finding', () => {
  /** What parsing the bytes gives (the tree, or the finding's words and place), and what parsing the text gives. */
  const both = (bytes: Uint8Array, name = 'api.json') => {
    const outcome = (file: VFile, source: string | Uint8Array) => {
      try {
        return {tree: parseSource(source, file), syntax: file.data.syntax}
      } catch {
        const [message] = file.messages
        return {finding: `${message?.line}:${message?.column} ${message?.reason}`}
      }
    }
    const text = new TextDecoder().decode(bytes)
    return [outcome(new VFile({path: name, value: bytes}), bytes), outcome(new VFile({path: name, value: text}), text)]
  }
  const utf8 = (text: string) => new TextEncoder().encode(text)
  // Each text, whether it parses.
  const cases: Array<[string, string, boolean]> = [
    ['characters past ASCII in keys and values', '{"openapi": "3.0.0", "café": "’ 🐾 \u2028 é", "x-ü": {"𝒜": ["ß", "\\u00e9"]}}', true],
    ['escapes beside the characters they stand for', '{"openapi": "3.0.0", "a": "\\u00e9 é \\ud83d\\udc3e 🐾 \\" \\\\ ’"}', true],
    ['a byte order mark', '\ufeff{"openapi": "3.0.0", "title": "’"}', true],
    ['ASCII only', '{"openapi": "3.0.0", "info": {"title": "Pets"}}', true],
    ['a syntax error after characters past ASCII', '{"openapi": "3.0.0",\n "title": "’ 🐾",\n "x": [1,, 2]}', false],
    ['a character past ASCII outside a string', '{"openapi": "3.0.0",\n "title": é}', false],
    ['an unterminated string holding one', '{"openapi": "3.0.0", "title": "’', false]
  ]
  for (const [what, text, parses] of cases) {
    const [fromBytes, fromText] = both(utf8(text))
    assert.ok(parses ? fromBytes.tree : fromBytes.finding, what)
    assert.equal(fromBytes, fromText, what)
    if (!parses) continue
    // Read as an ASCII text (what a failure would hide: the decoded text is the fallback).
    const ascii = asciiJson(utf8(text))
    assert.ok(ascii !== undefined && /^[\x00-\x7f]*$/.test(ascii), what)
    assert.equal(JSON.parse(ascii), JSON.parse(text.replace(/^\ufeff/, '')), what)
  }
  // Bytes that are not UTF-8 (Latin-1 `é`): decoded with U+FFFD, as before.
  const [fromBytes, fromText] = both(Buffer.from('{"openapi": "3.0.0", "title": "caf\xe9"}', 'latin1'))
  assert.equal(fromBytes, fromText)
  assert.is((fromBytes.tree as unknown as {document: {title: string}}).document.title, 'caf\ufffd')
  assert.is(asciiJson(Buffer.from('{"title": "caf\xe9"}', 'latin1')), undefined)
  // Any JSON, keys and strings drawn from all of Unicode: the ASCII text holds the same value.
  fc.assert(
    fc.property(fc.jsonValue({maxDepth: 3, stringUnit: 'grapheme'}), fc.boolean(), (value, pretty) => {
      const text = JSON.stringify(value, null, pretty ? 2 : undefined)
      const ascii = asciiJson(utf8(text))
      return ascii !== undefined && /^[\x00-\x7f]*$/.test(ascii) && JSON.stringify(JSON.parse(ascii)) === JSON.stringify(JSON.parse(text))
    })
  )
})

test('a YAML file is parsed from its bytes as from its text, and its places are the same', async () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'apipe-position-'))
  const text = '\ufeffinfo:\n  title: "Pets ’ 🐾 café"\n  version: "1"\npaths: {}\n'
  writeFileSync(path.join(folder, 'pets.yaml'), text)
  // Bytes that are not UTF-8 (Latin-1 `é`): decoded with U+FFFD, as before.
  writeFileSync(path.join(folder, 'latin1.yaml'), Buffer.from('info:\n  title: caf\xe9\n  version: "1"\npaths: {}\n', 'latin1'))
  for (const name of ['pets.yaml', 'latin1.yaml']) {
    const file = await readInput(name, folder)
    assert.ok(file.value instanceof Uint8Array)
    const fromBytes = parseSource(file.value, file)
    const fromText = parseSource(String(file), new VFile({path: name, value: String(file)}))
    assert.equal(fromBytes, fromText, name)
    assert.is(file.data.syntax, 'yaml')
    assert.equal(locate(file, ['info', 'version']), {line: 3, column: 3}, name)
  }
  const file = await readInput('latin1.yaml', folder)
  const tree = parseSource(file.value as Uint8Array, file)
  assert.is(tree.type === 'catalogue' && (tree.spec as unknown as {info: {title: string}}).info.title, 'caf\ufffd')
})

test.run()
