/**
 * The catalogue's built validator (scripts/build-validators.js) lets valid catalogues through by a test of their
 * keys (scripts/catalogue-check.js): it must pass and refuse exactly the catalogues that ajv, compiling
 * schemas/endpoints.schema.json itself, does, on every catalogue of the fixtures and examples, on the catalogues the
 * importer makes of corpus descriptions, and on mutations of them that give each keyword values the schema refuses.
 */
import {readdirSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {Ajv2020} from 'ajv/dist/2020.js'
import type {ValidateFunction} from 'ajv'
import {openapiCatalogue} from '../plugins/import-openapi/index.js'
import {corpusDir, corpusMissing} from './helpers/corpus.js'
import {root} from './helpers/fixtures.js'
import {random} from './helpers/random.js'
import {testWhen} from './helpers/skip.js'

const require = createRequire(import.meta.url)
const built = require(path.join(root, 'schemas', 'validators', 'endpoints.cjs')) as ValidateFunction
const schema = JSON.parse(readFileSync(path.join(root, 'schemas', 'endpoints.schema.json'), 'utf8'))
const ajv = new Ajv2020({allErrors: true, strict: true, validateFormats: false, allowUnionTypes: true})
ajv.addKeyword('tsType')
const official = ajv.compile(schema)

const textValues: unknown[] = ['', 1, null, [], {}, true, 'ok']
/** Values each kind of object's keywords may be given, most of them refused there (and a few it takes). */
const keywordValues: Record<string, Array<[string, unknown]>> = {
  catalogue: [
    ['schema_version', 2], ['schema_version', '1'], ['diagram_type', 'erd'], ['meta', {}], ['meta', {title: ''}], ['meta', {title: 'x', api_kind: 'soap'}], ['meta', {title: 'x', erd: ''}],
    ['meta', {title: 'x', other: 1}], ['groups', [{}]], ['groups', [{id: ''}]], ['groups', [{id: 'g', label: 1}]], ['groups', {}], ['endpoints', {}], ['types', [1]],
    ['layout', {columns: 5}], ['layout', {columns: 2.5}], ['layout', {columns: 0}], ['layout', {card_width: 0}], ['layout', {card_width: -1}], ['layout', {card_width: 300.5}],
    ['layout', {show_types: 1}], ['layout', {other: 1}], ['layout', []], ['$schema', 1], ['other', 1], ['x-ok', {a: 1}]
  ],
  endpoint: [
    ['id', ''], ['method', 'get'], ['method', 'CONNECT'], ['path', ''], ['group', 1], ['status', [99]], ['status', [600]], ['status', [200.5]], ['status', ['200']], ['status', 200],
    ['params', [{name: 'a'}]], ['params', [{name: '', in: 'query'}]], ['params', [{name: 'a', in: 'cookie'}]], ['params', [{name: 'a', in: 'query', enum: [{}]}]],
    ['params', [{name: 'a', in: 'query', enum: ['x', 1, true, null]}]], ['params', [{name: 'a', in: 'query', enum: [Number.NaN]}]], ['params', [{name: 'a', in: 'query', enum: [Infinity]}]],
    ['params', [{name: 'a', in: 'path', required: 'yes'}]], ['params', [{name: 'a', in: 'path', other: 1}]], ['entities', [1]], ['deprecated', 'yes'], ['tags', 'a'],
    ['sources', [{file: ''}]], ['sources', [{file: 'a', line: 0}]], ['sources', [{file: 'a', line: 1.5}]], ['sources', [{line: 1}]], ['responses', [{status: 'default'}]],
    ['responses', [{status: '2XX'}]], ['responses', [{status: '2xx'}]], ['responses', [{status: '6XX'}]], ['responses', [{status: 600}]], ['responses', [{}]],
    ['responses', [{status: 200, headers: [{}]}]], ['responses', [{status: 200, headers: [{name: ''}]}]], ['responses', [{status: 200, headers: [{name: 'a', other: 1}]}]],
    ['request_example', {any: ['thing']}], ['x-ok', 1], ['other', 1], ['__proto__', {}], ['constructor', 'x']
  ],
  type: [
    ['name', ''], ['kind', 'record'], ['fields', [{}]], ['fields', [{name: ''}]], ['fields', [{name: 'a', required: 'no'}]], ['fields', [{name: 'a', enum: []}]], ['fields', [{name: 'a', enum: [[]]}]],
    ['fields', [{name: 'a', type: 1}]], ['fields', [{name: 'a', other: 1}]], ['values', [1]], ['members', 'a'], ['other', 1], ['x-ok', null]
  ]
}

/** The catalogue with three random edits, each meeting a keyword of the catalogue, an endpoint, a type or a field. */
function mutated(catalogue: Record<string, unknown>, next: () => number): Record<string, unknown> {
  const copy = structuredClone(catalogue)
  const endpoints = (copy.endpoints as Array<Record<string, unknown>>) ?? []
  const types = (copy.types as Array<Record<string, unknown>>) ?? []
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]
  for (let edit = 0; edit < 3; edit++) {
    const roll = next()
    const [kind, target] = roll < 0.2 ? ['catalogue', copy] : roll < 0.6 && endpoints.length > 0 ? ['endpoint', pick(endpoints)] : types.length > 0 ? ['type', pick(types)] : ['catalogue', copy]
    if (next() < 0.25) {
      // A key taken away, or given a value of another kind.
      const keys = Object.keys(target)
      const key = pick(keys)
      if (key === undefined) continue
      if (next() < 0.5) delete target[key]
      else target[key] = structuredClone(pick(textValues))
      continue
    }
    const [key, value] = pick(keywordValues[kind])
    Object.defineProperty(target, key, {value: structuredClone(value), enumerable: true, writable: true, configurable: true})
  }
  return copy
}

/** Each of `catalogues` and a few mutations of it, by both validators: the mismatches. */
function mismatches(catalogues: Array<[string, Record<string, unknown>]>, mutations: number): {checked: number; valid: number; found: string[]} {
  const next = random(20261204)
  const found: string[] = []
  let checked = 0
  let valid = 0
  for (const [name, catalogue] of catalogues) {
    for (let index = -1; index < mutations; index++) {
      const candidate = index < 0 ? catalogue : mutated(catalogue, next)
      checked++
      const expected = official(candidate)
      if (expected) valid++
      if (expected !== built(candidate)) found.push(`${name}${index < 0 ? '' : ` (mutation ${index + 1})`}: ajv ${expected ? 'passes' : 'refuses'}`)
    }
  }
  return {checked, valid, found}
}

function fixtureCatalogues(): Array<[string, Record<string, unknown>]> {
  const found: Array<[string, Record<string, unknown>]> = []
  for (const folder of ['fixtures', 'examples']) {
    for (const entry of readdirSync(path.join(root, folder), {recursive: true, withFileTypes: true})) {
      if (!entry.isFile() || !entry.name.endsWith('.json')) continue
      const file = path.join(entry.parentPath, entry.name)
      let value: unknown
      try {
        value = JSON.parse(readFileSync(file, 'utf8'))
      } catch {
        continue
      }
      if (value && typeof value === 'object' && (value as Record<string, unknown>).diagram_type === 'endpoints') found.push([path.relative(root, file), value as Record<string, unknown>])
    }
  }
  return found
}

test('the built validator passes and refuses the fixtures\' catalogues and mutations of them as ajv does', () => {
  const catalogues = fixtureCatalogues()
  assert.ok(catalogues.length > 100, `only ${catalogues.length} catalogues`)
  const {checked, valid, found} = mismatches(catalogues, 20)
  assert.ok(valid > 150 && checked - valid > 1000, `${valid} valid and ${checked - valid} refused of ${checked}`)
  assert.equal(found, [])
})

testWhen(test, corpusMissing(), 'the built validator passes and refuses imported corpus catalogues and mutations of them as ajv does', () => {
  const catalogues: Array<[string, Record<string, unknown>]> = []
  for (const source of ['big/stripe/spec3.json', 'big/kubernetes/swagger.json', 'big/box/openapi.json', 'big/slack/slack_web_openapi_v2.json', 'big/discord/openapi.json']) {
    const {spec} = openapiCatalogue(JSON.parse(readFileSync(path.join(corpusDir, source), 'utf8')))
    catalogues.push([source, spec as unknown as Record<string, unknown>])
  }
  const {checked, valid, found} = mismatches(catalogues, 60)
  assert.ok(valid >= catalogues.length && checked - valid > 100, `${valid} valid and ${checked - valid} refused of ${checked}`)
  assert.equal(found, [])
})

test.run()
