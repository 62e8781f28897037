import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {pipeline} from '../index.js'
import {formatFindings} from '../pipeline/report.js'
import {fixtureCases} from './helpers/fixtures.js'

for (const fixture of fixtureCases('validate-catalogue')) {
  test(`validate-catalogue reports exactly the findings of fixture \`${fixture.name}\``, async () => {
    const [file] = await pipeline('validate', [fixture.input], {settings: fixture.options})
    const actual = formatFindings([file], 'text')
    assert.fixture(actual, fixture.expected('messages.txt', actual))
    for (const message of file.messages) {
      assert.ok(message.ruleId, `ruleId on ${message.reason}`)
      assert.is(message.source, 'apipe')
      assert.match(String(message.url), /^https:\/\/.+#[a-z-]+$/)
      assert.ok(message.line, `line on ${message.reason}`)
      assert.ok(message.column, `column on ${message.reason}`)
    }
  })
}

test('related places and lists say what the catalogue holds: each known type once, the first route as written', async () => {
  const spec = {
    schema_version: 1, diagram_type: 'endpoints', meta: {title: 'T'}, groups: [{id: 'default'}],
    endpoints: [{id: 'a', method: 'GET', path: '/orders/{id}', summary: 'A', response: 'Nope'}, {id: 'b', method: 'GET', path: '/orders/{orderId}', summary: 'B'}],
    types: [{name: 'Order', kind: 'object'}, {name: 'Order', kind: 'object'}, {name: 'Item', kind: 'object'}]
  }
  const [file] = await pipeline('validate', [{path: 'api.json', value: JSON.stringify(spec)}])
  const findings = JSON.parse(formatFindings([file], 'json')).findings as Array<{ruleId: string; message: string; related?: {message: string}}>
  const finding = (rule: string) => findings.find((candidate) => candidate.ruleId === rule)!
  assert.is(finding('dangling-ref').message, 'Unknown type `Nope`; known types: Order, Item')
  assert.is(finding('duplicate-route').related?.message, 'Route `GET /orders/{id}` is first declared here')
})

test.run()
