/**
 * The block YAML reader (plugins/shared/block-yaml.ts) either reads a text exactly as js-yaml does with the core
 * schema, or gives it up (`undefined`) to js-yaml: on hand-written cases at the edges of YAML, on every YAML file of
 * the corpus, and on thousands of random edits of them, where it must never accept what js-yaml refuses. Given the
 * text's UTF-8 bytes instead (`readBlockYamlBytes`, how files are parsed), it reads the same.
 */
import {readdirSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {isDeepStrictEqual} from 'node:util'
import {suite} from 'uvu'
import * as assert from 'uvu/assert'
import {readBlockYaml, readBlockYamlBytes} from '../plugins/shared/block-yaml.js'
import {loadData} from '../plugins/shared/load-data.js'
import {corpusDir, corpusMissing} from './helpers/corpus.js'
import {testWhen} from './helpers/skip.js'

const jsYaml = createRequire(import.meta.url)('js-yaml') as typeof import('js-yaml')

/** js-yaml's reading of `text` (the reference), or `refused` when it throws. */
const refused = Symbol('refused')
function reference(text: string): unknown {
  try {
    return jsYaml.load(text, {schema: jsYaml.CORE_SCHEMA, json: true})
  } catch {
    return refused
  }
}

/**
 * Undefined when the reader agrees with js-yaml on `text` or gives it up, and reads the text's UTF-8 bytes as it reads
 * the text; else what went wrong. (A text with a lone surrogate has no UTF-8: its bytes hold U+FFFD there.)
 */
function disagreement(text: string): string | undefined {
  const read = readBlockYaml(text)
  const bytes = Buffer.from(text, 'utf8')
  if (bytes.toString('utf8') === text && !isDeepStrictEqual(readBlockYamlBytes(bytes), read)) return `read from the bytes otherwise: ${JSON.stringify(text)}`
  if (read === undefined) return undefined
  const expected = reference(text)
  if (expected === refused) return `read what js-yaml refuses: ${JSON.stringify(text)}`
  if (!isDeepStrictEqual(read, expected)) return `${JSON.stringify(text)}: ${JSON.stringify(read)} where js-yaml reads ${JSON.stringify(expected)}`
  return undefined
}

const test = suite('block YAML reader')

test('reads what API descriptions are written in, as js-yaml does', () => {
  const cases = [
    // Mappings and sequences, a sequence at its key's indentation, a document indented as a whole.
    'openapi: 3.0.0\ninfo:\n  title: Pets\n  version: "1.0"\npaths: {}\n',
    'tags:\n- a\n-   b\n-\n  c\nnext: 1',
    '- name: a\n  in: query\n- - 1\n  - 2\n- [x, y]\n',
    '  swagger: "2.0"\n  info:\n    title: x\n',
    '---\na: 1\n',
    '# leading comment\n---\na: 1 # trailing\n# between\nb: "#/not/a/comment" # c\n',
    // Scalars by the core schema: null, booleans, integers in four bases, floats, and what stays a string.
    'a: ~\nb: Null\nc: TRUE\nd: false\ne: 0x1F\nf: 0o17\ng: -0b11\nh: +12\ni: 0123\nj: 1e3\nk: .5\nl: -.inf\nm: 1_000\nn: 2001-12-14\no: yes\np: -0\nq: 1.\nr: 99999999999999999999999\ns: 1e999\nt: .NaN',
    // Keys are the scalar's value as a string.
    '200: ok\n1.0: one\ntrue: yes\n~: none\n"a b": 1\n\'c\'\'d\': 2\nkey with spaces: v\nk2 :  v2',
    // Plain scalars over several lines, with blank lines, and with indicators that do not start anything.
    'a: plain\n  continued\n\n  again\nb: x:y\nc: http://x.y/z\nd: :op\ne: ?q=1\nf: -z\ng: a - b',
    // Quoted scalars: escapes, folding, escaped line breaks.
    'a: "x \\\n   y"\nb: "x  \n\n  y \\t \n z"\nc: "\\x41\\u00e9\\_\\e\\0\\N\\L\\P\\ \\U0001F600"\nd: \'it\'\'s\'\ne: \'multi\n  line\n\n  text\'\nf: "a\\\n\n  b"\ng: ""',
    // Block scalars: literal, folded, chomping, more-indented lines, blank lines with spaces, the end of the text.
    'a: |\n  foo\n\n  bar\nb: |-\n  x\n\nc: |+\n  x\n\nd: >\n  foo\n    bar\n\n  baz\ne: >-\n  - x\n  - y\nf: |\n\ng: |\n  x\n   \nh: |\n  # not a comment\n# a comment\ni: |\n  end',
    // Indentation indicators (the content indented that much more than its parent), with chomping either side.
    'a: |2\n    x\n   y\nb:\n  c: >2-\n      x\n     y\n\nd:\n- |1\n  z\n- e: |-2\n     w\n',
    // Flow collections, nested and over several lines.
    'a: [1, two, "three", {x: 1, y: [a, b]}]\nb: {}\nc: []\nd: {a, b: }\ne: [\n  1,\n  2,\n]\nf: {"x": 1}',
    // Tabs where YAML allows them, repeated keys (the last wins), `__proto__` as a plain key.
    'a:\tb\nc: d\t# e\nf: "g\th"\na: again\n__proto__: 1',
    // Line breaks written as CR LF.
    'a: 1\r\nb: |\r\n  x\r\n\r\n  y\r\nc: "p\r\n  q"\r\nd:\r\n  - e\r\n',
    // Characters past ASCII: Latin-1 only, and past Latin-1 (read from the UTF-8 bytes), in every kind of scalar.
    'café: crème\nnoël: "é\\u00e9"',
    'clé’: valeur’s\n  suite — fin\n"q’": "x’ \\xe9 \\u2019 😀"\ns: \'it’\'\'s\'\nb: |\n  ligne ’\n  deux é\nf: >-\n  un ’\n  deux\nl: [a’, {b’: c’}, "d’"]'
  ]
  for (const text of cases) {
    assert.ok(readBlockYaml(text) !== undefined, `read, not given up: ${JSON.stringify(text)}`)
    assert.is(disagreement(text), undefined)
  }
  assert.equal(Object.keys(readBlockYaml('__proto__: 1') as object), ['__proto__'])
})

test('gives up what it does not settle, and never reads what js-yaml refuses', () => {
  const cases = [
    'a: &x 1\nb: *x', 'a: !!str 1', '? a\n: b', '%YAML 1.2\n---\na: 1', 'a: 1\n---\nb: 2', 'a: 1\n...\n', 'a: b: c', 'a: - x',
    'a:\n  b: 1\n c: 2', 'a:\n    b: 1\n  c: 2', 'a: "unterminated', 'a: [1, 2', 'a:\n\tb: 1', '-\t a: 1', 'a: |1\n  x', 'a: [a: b]', 'a: b\n  c: d',
    'a: "\\q"', 'a: "x"y', '- -\n- x', '-   -\n  - M1',
    // Control characters, a lone surrogate, document markers inside quotes and brackets, keys over two lines.
    'a: b\x01c\n', 'a: 😀 "\ud83d\ude00"\n', 'a: "b\x1bc"\n', 'a: b\x00c\n', 'a: "\ud800x"\n', 'a: "x\n---\ny"\n', "key: 'it is\n... continued'\n",
    'a: [x,\n... ]\n', 'a: {"a"\n  : b}\n', 'a: {"x\n  y": 1}\n',
    // Nesting past js-yaml's limit of 100 levels.
    `${Array.from({length: 100}, (_, index) => `${' '.repeat(index)}k:`).join('\n')} v\n`, `${'- '.repeat(99)}x\n`, `a: ${'['.repeat(100)}${']'.repeat(100)}\n`, '<<: {a: 1}', 'a: |\n    \n  x\n', 'a: 1\rb: 2', '', 'plain\n  text'
  ]
  for (const text of cases) assert.is(disagreement(text), undefined)
  assert.is(readBlockYaml('a: &x 1\nb: *x'), undefined, 'aliases go to js-yaml')
  assert.is(readBlockYaml(`a:\n${'- '.repeat(20_000)}x`), undefined, 'nesting deeper than the stack goes to js-yaml')
  assert.is(readBlockYaml(`a: ${'['.repeat(20_000)}${']'.repeat(20_000)}`), undefined)
  assert.equal(loadData('a: &x 1\nb: *x', 'yaml'), {a: 1, b: 1}, 'and are read there')
})

test('reads UTF-8 bytes as the decoded text, and leaves bytes that are not UTF-8 to the decoder', () => {
  const utf8 = (text: string) => Buffer.from(text, 'utf8')
  assert.equal(readBlockYamlBytes(utf8('\ufeffcafé: "’ \\xe9"\nb: |\n  😀\n')), {café: '’ é', b: '😀\n'}, 'a byte order mark is dropped')
  assert.equal(readBlockYamlBytes(new Uint8Array(utf8('a: é'))), {a: 'é'}, 'a Uint8Array as well as a Buffer')
  assert.equal(readBlockYamlBytes(utf8('a: b\u0085c')), {a: 'b\u0085c'}, 'U+0085 is allowed, as js-yaml allows it')
  for (const forbidden of ['\u0080', '\u009f', '\ufffe', '\uffff', '\x7f', '\x01']) {
    assert.is(readBlockYamlBytes(utf8(`a: b${forbidden}c`)), undefined, JSON.stringify(forbidden))
    // First, last, and after characters that start like one (`C2`, `EF` lead `é` and `ｅ` too).
    assert.is(readBlockYamlBytes(utf8(`${forbidden}a: b`)), undefined, `${JSON.stringify(forbidden)} first`)
    assert.is(readBlockYamlBytes(utf8(`a: é\uff45b${forbidden}`)), undefined, `${JSON.stringify(forbidden)} last`)
  }
  assert.equal(readBlockYamlBytes(utf8('a: \u00a0\u00bf\uff45\uefbf')), {a: '\u00a0\u00bf\uff45\uefbf'}, 'C2 and EF leading allowed characters')
  assert.is(readBlockYamlBytes(Buffer.from([0x61, 0x3a, 0x20, 0xc3, 0x28])), undefined, 'invalid UTF-8')
  assert.is(readBlockYamlBytes(utf8('\ufeff\ufeffa: 1')), undefined, 'a second byte order mark')
})

testWhen(test, corpusMissing(), 'reads every YAML file of the corpus as js-yaml does, giving up almost none', () => {
  const files: string[] = []
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, {withFileTypes: true})) {
      const file = path.join(folder, entry.name)
      if (entry.isDirectory()) walk(file)
      else if (/\.ya?ml$/.test(entry.name)) files.push(file)
    }
  }
  walk(corpusDir)
  assert.ok(files.length > 1000, `${files.length} YAML files`)
  let givenUp = 0
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    assert.equal(readBlockYamlBytes(readFileSync(file)), readBlockYaml(text), file)
    if (readBlockYaml(text) === undefined) givenUp++
    else assert.is(disagreement(text), undefined, file)
  }
  // Two corpus files hold what the reader leaves to js-yaml (an empty document; C1 control characters, which js-yaml
  // allows in quoted scalars only).
  assert.ok(givenUp <= 3, `${givenUp} of ${files.length} given up`)
  assert.ok(readBlockYaml(readFileSync(path.join(corpusDir, 'big', 'stripe', 'spec3.yaml'), 'utf8')) !== undefined, "Stripe's YAML is read")
})

testWhen(test, corpusMissing(), 'agrees with js-yaml or gives up on 6,000 random edits of corpus files', () => {
  const files = readdirSync(corpusDir, {recursive: true, encoding: 'utf8'})
    .filter((file) => /\.ya?ml$/.test(file))
    .sort()
    .map((file) => readFileSync(path.join(corpusDir, file), 'utf8'))
    .filter((text) => text.length < 20_000)
  const pieces = [' ', '  ', '\t', '#', ' #', ':', ': ', '-', '- ', '"', "'", '\\', '|', '>', '[', ']', '{', '}', ',', '\n', '\n\n', '? ', '&a ', '*a', '!t ', '%', '~', 'null', '0x1F', '.inf', '---', '...', '|-', '>+', '\u00a0', '\\n', '\\x41', "''"]
  // A small deterministic generator (mulberry32), so that a failure can be replayed.
  let seed = 20261125
  const random = (below: number) => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) % below
  }
  let read = 0
  for (let round = 0; round < 6000; round++) {
    const lines = files[random(files.length)]!.split('\n')
    const start = random(Math.max(1, lines.length - 30))
    let text = lines.slice(start, start + 5 + random(40)).join('\n')
    for (let edit = 0, edits = 1 + random(3); edit < edits; edit++) {
      const at = random(text.length + 1)
      const kind = random(3)
      if (kind === 0) text = text.slice(0, at) + pieces[random(pieces.length)] + text.slice(at)
      else if (kind === 1) text = text.slice(0, at) + text.slice(at + 1 + random(3))
      else text = text.split('\n').map((line, index, all) => (index === random(all.length) ? (random(2) ? ` ${line}` : line.replace(/^ /, '')) : line)).join('\n')
    }
    if (readBlockYaml(text) !== undefined) read++
    assert.is(disagreement(text), undefined)
  }
  assert.ok(read > 1500, `${read} of 6000 edits read by the block reader`)
})

test.run()
