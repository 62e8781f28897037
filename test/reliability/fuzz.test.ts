/**
 * Fuzzing the pipeline (fast-check, seeded): generated and mutated catalogues and OpenAPI documents (seeded from
 * ../shared/corpus), truncated files, 10,000-level nesting, huge strings, `$ref` cycles and self-references and
 * bytes that are not UTF-8. `validate`, `import openapi`, `render` and `sentences` must never throw and always end
 * in outputs or findings; `pipe diff` of a corpus document and a mutation of it, either way round, never throws and
 * ends in changes or findings, never a crash.
 *
 * `npm test` runs a short seeded pass with no time bound; `npm run test:reliability` (APIPE_RELIABILITY=full) runs
 * many more inputs and also holds each stage to under a second per input.
 * A crash found here becomes a fixture under fixtures/fuzz/.
 */
import {mkdtempSync, readFileSync, readdirSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {testWhen} from '../helpers/skip.js'
import {pipeline} from '../../index.js'
import {diffInputs} from '../../cli/diff-inputs.js'
import {corpusDir, corpusMissing} from '../helpers/corpus.js'
import {root} from '../helpers/fixtures.js'

const full = process.env.APIPE_RELIABILITY === 'full'
const runs = full ? 400 : 40
const seed = Number(process.env.APIPE_FUZZ_SEED ?? 20261123)
const stats = {inputs: 0, slowest: 0}

type Stage = 'validate' | 'openapi' | 'catalogue' | 'sentences'

/** Run one stage on one input: it must settle with outputs or findings, never a crash (in the full run, within a second). */
async function survive(stage: Stage, name: string, value: string | Uint8Array): Promise<void> {
  const started = performance.now()
  let files
  try {
    // Bytes go through a file, as they arrive from disk; text as an in-memory `{path, value}`.
    const input = typeof value === 'string' ? {path: name, value} : writeTemporary(name, value)
    files = await pipeline(stage, [input])
  } catch (error) {
    throw new Error(`${stage} threw on ${name}: ${(error as Error).stack}`)
  }
  const elapsed = performance.now() - started
  stats.inputs++
  stats.slowest = Math.max(stats.slowest, elapsed)
  if (full) assert.ok(elapsed < 1000, `${stage} took ${elapsed.toFixed(0)} ms on ${name}`)
  const [file] = files
  const crashed = file.messages.find((message) => message.ruleId === 'crash')
  assert.not.ok(crashed, `${stage} crashed on ${name}: ${crashed?.reason}\n${String(crashed?.cause instanceof Error ? crashed.cause.stack : '')}`)
  // The outcome of each stage: findings, or its product (a page or catalogue output, the sentences, a clean check).
  const produced = stage === 'validate' || (stage === 'sentences' ? file.data.endpoints !== undefined : (file.data.outputs ?? []).length > 0)
  assert.ok(file.messages.length > 0 || produced, `${stage} ended with neither a result nor findings on ${name}`)
}

const stages: Stage[] = ['validate', 'catalogue', 'sentences']
const scratch = mkdtempSync(path.join(tmpdir(), 'apipe-fuzz-'))

function writeTemporary(name: string, bytes: Uint8Array): string {
  const file = path.join(scratch, name)
  writeFileSync(file, bytes)
  return file
}

function corpusDocuments(): Array<{name: string; text: string}> {
  if (corpusMissing()) return []
  const folder = path.join(corpusDir, 'oai-examples')
  const documents: Array<{name: string; text: string}> = []
  for (const version of readdirSync(folder)) {
    for (const name of readdirSync(path.join(folder, version)).filter((file) => /\.(json|yaml)$/.test(file)).slice(0, full ? 50 : 4)) {
      documents.push({name: `${version}-${name}`, text: readFileSync(path.join(folder, version, name), 'utf8')})
    }
  }
  return documents
}

const catalogue = readFileSync(path.join(root, 'fixtures/validate-catalogue/clean-80-endpoints/input.json'), 'utf8')

/** Mutations of a JSON document: drop, replace or retype values at random paths. */
const mutation = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('drop', 'replace', 'string', 'array', 'ref', 'self-ref', 'null'),
  value: fc.jsonValue({maxDepth: 3})
})

function mutate(document: unknown, mutations: Array<{at: number; kind: string; value: unknown}>): unknown {
  const copy = structuredClone(document) as Record<string, unknown>
  for (const {at, kind, value} of mutations) {
    const containers: Array<Record<string, unknown> | unknown[]> = []
    const walk = (node: unknown, depth: number) => {
      if (node && typeof node === 'object' && depth < 12) {
        containers.push(node as Record<string, unknown>)
        for (const child of Object.values(node)) walk(child, depth + 1)
      }
    }
    walk(copy, 0)
    const target = containers[at % containers.length]
    const keys = Object.keys(target)
    if (keys.length === 0) continue
    const key = keys[at % keys.length]
    const slot = target as Record<string, unknown>
    if (kind === 'drop') delete slot[key]
    else if (kind === 'replace') slot[key] = value
    else if (kind === 'string') slot[key] = 'x'.repeat(at % 5000)
    else if (kind === 'array') slot[key] = [slot[key], slot[key]]
    else if (kind === 'ref') slot[key] = {$ref: '#/components/schemas/Missing'}
    else if (kind === 'self-ref') slot[key] = {$ref: '#'}
    else slot[key] = null
  }
  return copy
}

test('generated JSON values never crash a stage', async () => {
  await fc.assert(
    fc.asyncProperty(fc.jsonValue({maxDepth: 6}), fc.constantFrom<Stage>(...stages), async (value, stage) => {
      await survive(stage, 'generated.json', JSON.stringify(value))
    }),
    {seed, numRuns: runs}
  )
})

test('mutated catalogues never crash validate, render or sentences', async () => {
  const document = JSON.parse(catalogue)
  await fc.assert(
    fc.asyncProperty(fc.array(mutation, {minLength: 1, maxLength: 6}), fc.constantFrom<Stage>(...stages), async (mutations, stage) => {
      await survive(stage, 'mutated.endpoints.json', JSON.stringify(mutate(document, mutations)))
    }),
    {seed, numRuns: runs}
  )
})

testWhen(test, corpusMissing(), 'mutated and truncated OpenAPI documents from the corpus never crash the import', async () => {
  const documents = corpusDocuments()
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...documents), fc.array(mutation, {minLength: 1, maxLength: 4}), fc.nat(), fc.boolean(), async (document, mutations, cut, truncate) => {
      if (truncate) {
        await survive('openapi', document.name, document.text.slice(0, cut % Math.max(1, document.text.length)))
        return
      }
      const parsed = document.name.endsWith('.json') ? JSON.parse(document.text) : undefined
      if (!parsed) {
        await survive('openapi', document.name, document.text.replace(/: /g, (match, offset: number) => (offset % 97 === cut % 97 ? ': [' : match)))
        return
      }
      await survive('openapi', document.name, JSON.stringify(mutate(parsed, mutations)))
    }),
    {seed, numRuns: runs}
  )
})

testWhen(test, corpusMissing(), 'pipe diff of a corpus document and a mutation of it, either way round, never crashes', async () => {
  const documents = corpusDocuments().filter((document) => document.name.endsWith('.json'))
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...documents), fc.array(mutation, {minLength: 1, maxLength: 4}), fc.boolean(), async (document, mutations, reversed) => {
      const original = writeTemporary(`original-${document.name}`, new TextEncoder().encode(document.text))
      const mutated = writeTemporary(`mutated-${document.name}`, new TextEncoder().encode(JSON.stringify(mutate(JSON.parse(document.text), mutations))))
      const [before, after] = reversed ? [mutated, original] : [original, mutated]
      let result
      try {
        result = await diffInputs(before, after)
      } catch (error) {
        throw new Error(`pipe diff threw on ${document.name}: ${(error as Error).stack}`)
      }
      stats.inputs++
      const findings = [...result.old.messages, ...result.new.messages]
      const crashed = findings.find((message) => message.ruleId === 'crash')
      assert.not.ok(crashed, `pipe diff crashed on ${document.name}: ${crashed?.reason}`)
      assert.ok(result.changes !== undefined || findings.some((message) => message.fatal === true), `pipe diff ended with neither changes nor an error on ${document.name}`)
    }),
    {seed, numRuns: runs}
  )
})

test('extreme inputs: deep nesting, huge strings, unclosed markup, $ref cycles, bad bytes, empty and truncated files', async () => {
  const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`
  const deepObject = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`
  const huge = JSON.stringify({schema_version: 1, diagram_type: 'endpoints', meta: {title: 'x'.repeat(5_000_000)}, endpoints: [{id: 'a', method: 'GET', path: '/'.repeat(100_000)}]})
  const cycle = JSON.stringify({
    openapi: '3.0.3',
    info: {title: 'Cycles', version: '1'},
    paths: {'/a': {get: {responses: {200: {description: 'ok', content: {'application/json': {schema: {$ref: '#/components/schemas/A'}}}}}}}, '/b': {$ref: '#/paths/~1b'}},
    components: {schemas: {A: {$ref: '#/components/schemas/B'}, B: {$ref: '#/components/schemas/A'}, Self: {$ref: '#/components/schemas/Self'}}}
  })
  // Unclosed markup in descriptions and paths, which the page and the route check read with patterns: they must
  // stay linear.
  const markup = (index: number) => ['['.repeat(100_000), '<a '.repeat(60_000), '**a'.repeat(60_000), '[a]('.repeat(50_000), '`a'.repeat(80_000)][index % 5]
  const unclosed = JSON.stringify({
    schema_version: 1,
    diagram_type: 'endpoints',
    meta: {title: 'Markup', description: markup(0)},
    groups: [{id: 'g', description: markup(1)}],
    endpoints: [
      {id: 'a', method: 'GET', path: '/a', group: 'g', summary: 'A', description: markup(2)},
      {id: 'b', method: 'GET', path: '{'.repeat(100_000), summary: 'B'},
      {id: 'c', method: 'GET', path: '/{'.repeat(50_000), summary: 'C'},
      {id: 'd', method: 'GET', path: `a${'/'.repeat(100_000)}b`, summary: 'D'}
    ],
    types: Array.from({length: 5}, (_, index) => ({name: `T${index}`, description: markup(index)}))
  })
  const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0xc3, 0x28, 0x7d])
  const cases: Array<[Stage, string, string | Uint8Array]> = [
    ['validate', 'deep.json', deep],
    ['validate', 'deep-object.json', deepObject],
    ['openapi', 'deep.json', deepObject],
    ['catalogue', 'huge.endpoints.json', huge],
    ['sentences', 'huge.endpoints.json', huge],
    ['catalogue', 'markup.endpoints.json', unclosed],
    ['openapi', 'cycles.json', cycle],
    ['validate', 'bytes.json', bytes],
    ['openapi', 'bytes.yaml', bytes],
    ['validate', 'empty.json', ''],
    ['openapi', 'empty.yaml', ''],
    ['validate', 'truncated.json', catalogue.slice(0, catalogue.length / 2)],
    ['openapi', 'deep.yaml', `${'- '.repeat(2000)}x`]
  ]
  for (const [stage, name, value] of cases) await survive(stage, name, value)
})

test.after(() => {
  console.log(`  fuzzed ${stats.inputs} inputs (seed ${seed}); slowest ${stats.slowest.toFixed(0)} ms`)
})

test.run()
