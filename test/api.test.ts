import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {ApipeError, catalogueRules, createProcessor, defineRule, pipeline, presets, type CatalogueTree} from '../index.js'
import {formatFindings} from '../pipeline/report.js'

const spec = (endpoints: unknown[]) => JSON.stringify({schema_version: 1, diagram_type: 'endpoints', meta: {title: 'T'}, endpoints}, null, 2)

test('pipeline runs a preset over strings and returns vfiles with located findings', async () => {
  const [file] = await pipeline('validate', [{path: 'api.json', value: spec([{id: 'a', method: 'GET', path: '/a'}])}])
  assert.is(file.messages.length, 1)
  const [message] = file.messages
  assert.is(message.reason, 'Endpoint `a` has no summary')
  assert.is(message.ruleId, 'summary')
  assert.is(message.source, 'apipe')
  assert.is(message.jsonPath, 'endpoints[0]')
  assert.is(message.fatal, false)
  assert.equal([message.line, message.column], [8, 5])
})

test('pipeline accepts a preset object and settings that change rule severities', async () => {
  const files = await pipeline(presets.validate, [{path: 'api.json', value: spec([{id: 'a', method: 'GET', path: '/a'}])}], {
    settings: {rules: {summary: 'error'}}
  })
  assert.is(formatFindings(files, 'text'), 'error summary endpoints[0] Endpoint `a` has no summary\n1 error(s), 0 warning(s)\n')
})

test('pipeline locates findings in YAML sources', async () => {
  const value = 'schema_version: 1\ndiagram_type: endpoints\nmeta:\n  title: T\nendpoints:\n  - id: a\n    method: GET\n    path: /a\n    group: nope\n'
  const [file] = await pipeline('validate', [{path: 'api.yaml', value}])
  const dangling = file.messages.find((message) => message.ruleId === 'dangling-ref')
  assert.equal([dangling?.line, dangling?.column], [9, 5])
})

test('a YAML alias bomb is a parse finding, not a crash', async () => {
  const lines = ['a: &x0 [1]', ...Array.from({length: 30}, (_, index) => `x${index + 1}: &x${index + 1} [*x${index}, *x${index}, *x${index}, *x${index}]`)]
  const [file] = await pipeline('validate', [{path: 'bomb.yaml', value: lines.join('\n') + '\n'}])
  assert.equal(file.messages.map((message) => [message.ruleId, message.fatal, message.reason]), [
    ['parse', true, 'Cannot parse YAML: Excessive alias count indicates a resource exhaustion attack']
  ])
})

test('parse findings say what is wrong in the file, not what the parser would have the caller do, and print no control characters', async () => {
  const cases: Array<[string, string, string]> = [
    ['two.yaml', 'a: 1\n---\nb: 2\n', '2:1 Cannot parse YAML: a second document starts here (`---`), where one file holds one document'],
    ['deep.yaml', `x: ${'['.repeat(200_000)}${']'.repeat(200_000)}\n`, 'Cannot parse YAML: nested too deeply to read'],
    ['escape.json', '\u001b[31m{"a": 1}', '1:1 Unexpected `\\u001b`, expected a JSON value']
  ]
  for (const [name, value, expected] of cases) {
    const [file] = await pipeline('validate', [{path: name, value}])
    const text = formatFindings([file], 'text')
    assert.ok(text.startsWith('error parse ') && text.split('\n')[0].endsWith(expected), `${name}: ${text}`)
  }
})

test('a document nested 20,000 levels deep gets its findings, without places, not a crash', async () => {
  const value = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)
  const [file] = await pipeline('validate', [{path: 'deep.json', value}])
  assert.ok(file.messages.length > 0)
  assert.not.ok(file.messages.some((message) => message.ruleId === 'crash'))
  assert.is(file.messages.find((message) => message.jsonPath === 'a')?.reason, 'Unexpected field `a`, expected a known field or an `x-` extension key')
})

test('pipeline rejects an unknown preset name with an APIPE_ERR code', async () => {
  try {
    await pipeline('nope' as 'validate', [])
    assert.unreachable()
  } catch (error) {
    assert.instance(error, ApipeError)
    assert.is((error as ApipeError).code, 'APIPE_ERR_PRESET')
  }
})

test('a bad rule severity is a programmer error with an APIPE_ERR code', () => {
  assert.throws(
    () => createProcessor(presets.validate, {rules: {summary: 'loud' as 'warn'}}).parse('{}'),
    (error: ApipeError) => error.code === 'APIPE_ERR_RULE_SEVERITY' && /Unexpected severity `loud` for rule `summary`/.test(error.message)
  )
})

test('defineRule makes a plugin whose findings carry ruleId, source, url and the configured severity', async () => {
  const noDelete = defineRule<CatalogueTree>({id: 'no-delete', severity: 'warn'}, (tree, _file, report) => {
    tree.spec.endpoints.forEach((endpoint, index) => {
      if (endpoint.method === 'DELETE') report('Unexpected `DELETE`, expected soft deletes', {path: ['endpoints', index, 'method']})
    })
  })
  const preset = {plugins: [...(presets.validate.plugins ?? []), [noDelete, 'error']]} as typeof presets.validate
  const [file] = await pipeline(preset, [{path: 'a.json', value: spec([{id: 'd', method: 'DELETE', path: '/a', summary: 'Delete'}])}])
  assert.equal(
    file.messages.map((message) => [message.ruleId, message.fatal, message.source, message.url, message.jsonPath]),
    [['no-delete', true, 'apipe', 'https://github.com/apipe/apipe/blob/main/docs/rules.md#no-delete', 'endpoints[0].method']]
  )
})

test('the catalogue rules are exported in report order', () => {
  assert.equal(
    catalogueRules.map((rule) => rule.meta.id),
    ['missing', 'type', 'schema', 'dangling-ref', 'id-clash', 'duplicate-route', 'summary', 'size', 'unknown-table']
  )
})

test('a plugin that throws becomes a fatal finding on its file, not a crash', async () => {
  const explode = () => () => {
    throw new Error('boom')
  }
  const preset = {plugins: [...(presets.validate.plugins ?? []), [explode]]} as typeof presets.validate
  const [file] = await pipeline(preset, [{path: 'a.json', value: spec([])}])
  assert.equal(file.messages.map((message) => [message.ruleId, message.fatal, message.reason]), [['crash', true, 'Cannot process file: boom']])
})

test.run()
