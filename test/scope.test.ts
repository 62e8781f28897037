/** A route's `where`: on a create, a relation's conditions are met together by the one record it is set to. */
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {createTestApp} from '../runtime/testing.js'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')

test('a create with two conditions on one relation files the record under the one that meets both', async () => {
  const app = await createTestApp({root: path.join(root, 'fixtures/scope-app')})
  try {
    const post = async (url: string, payload: object) => {
      const response = await app.inject({method: 'POST', url, payload})
      return {status: response.statusCode, body: response.json()}
    }
    await post('/owners', {name: 'Ada'})
    await post('/owners', {name: 'Grace'})
    await post('/shelves', {label: 'Ada 1', owner: 1})
    await post('/shelves', {label: 'Ada 2', owner: 1})
    await post('/shelves', {label: 'Grace 1', owner: 2})
    const second = await post('/owners/1/shelves/2/books', {title: 'Dune'})
    assert.equal([second.status, second.body.shelf], [201, 2], 'shelf 2, which is Ada\'s, not her first')
    const others = await post('/owners/2/shelves/1/books', {title: 'Emma'})
    assert.equal([others.status, others.body.detail], [404, 'No shelf `1`'], 'shelf 1 is not Grace\'s')
    // A relation set from the path by its key (`{"shelf": "params.shelf"}`) is looked up as `shelf.id` is.
    const byKey = await post('/shelves/3/books', {title: 'Persuasion'})
    assert.equal([byKey.status, byKey.body.shelf], [201, 3])
    const missing = await post('/shelves/99/books', {title: 'Nowhere'})
    assert.equal([missing.status, missing.body.detail], [404, 'No shelf `99`'])
    const listed = await app.inject({method: 'GET', url: '/owners/1/shelves/2/books'})
    assert.equal(listed.json().data.map((book: {title: string}) => book.title), ['Dune'])
  } finally {
    await app.close()
  }
})

test.run()
