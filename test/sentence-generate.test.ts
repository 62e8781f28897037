import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {pipeline} from '../index.js'
import {fixtureCases} from './helpers/fixtures.js'

for (const fixture of fixtureCases('sentence-generate')) {
  test(`sentence-generate writes exactly the sentences of fixture \`${fixture.name}\``, async () => {
    const [file] = await pipeline('catalogue', [fixture.input])
    assert.equal(file.messages.filter((message) => message.fatal), [])
    const sections = file.data.endpoints
    assert.ok(sections, 'sections computed')
    const operations = sections.operations.map((sentence) => sentence.text).join('\n') + '\n'
    const types = sections.types.map((sentence) => sentence.text).join('\n') + '\n'
    assert.fixture(operations, fixture.expected('operations.txt', operations))
    assert.fixture(types, fixture.expected('types.txt', types))
  })
}

test('sentence-generate computes nothing for a catalogue with errors', async () => {
  const value = JSON.stringify({schema_version: 1, diagram_type: 'endpoints', meta: {title: 'T'}, endpoints: [{id: 'a', method: 'GET'}]})
  const [file] = await pipeline('catalogue', [{path: 'broken.json', value}])
  assert.is(file.data.endpoints, undefined)
})

test('operation sentences carry method, path, id, group and tags for custom layouts', async () => {
  const value = JSON.stringify({
    schema_version: 1,
    diagram_type: 'endpoints',
    meta: {title: 'T'},
    groups: [{id: 'pets'}],
    endpoints: [{id: 'listPets', method: 'GET', path: '/pets', group: 'pets', tags: ['public'], summary: 'List pets', response: 'Pet[]'}]
  })
  const [file] = await pipeline('catalogue', [{path: 'a.json', value}])
  assert.equal(file.data.endpoints?.operations, [
    {id: 'listPets', method: 'GET', path: '/pets', group: 'pets', tags: ['public'], summary: 'List pets', text: 'GET /pets — List pets. It returns Pet[].'}
  ])
})

test.run()
