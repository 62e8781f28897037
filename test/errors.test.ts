/**
 * A project's own error body (src/errors.ts, fixtures/errors-app): every error the framework answers goes through it,
 * malformed JSON, unknown routes and unique violations included.
 */
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {createTestApp} from '../runtime/testing.js'
import {root} from './helpers/fixtures.js'

test('src/errors.ts shapes every error answer, as JSON', async () => {
  const app = await createTestApp({root: path.join(root, 'fixtures/errors-app')})
  try {
    const answers = []
    answers.push(await app.inject({method: 'POST', url: '/items', payload: {}}))
    await app.inject({method: 'POST', url: '/items', payload: {label: 'one'}})
    answers.push(await app.inject({method: 'POST', url: '/items', payload: {label: 'one'}}))
    answers.push(await app.inject({method: 'POST', url: '/items', headers: {'content-type': 'application/json'}, payload: '{"label": '}))
    answers.push(await app.inject({method: 'GET', url: '/nowhere'}))
    assert.equal(
      answers.map((answer) => [answer.statusCode, answer.headers['content-type'], answer.json()]),
      [
        [422, 'application/json; charset=utf-8', {errors: {label: ['`label` is required']}}],
        [409, 'application/json; charset=utf-8', {errors: {label: ['`label` is already taken']}}],
        [400, 'application/json; charset=utf-8', {errors: {body: ['The body is not valid JSON']}}],
        [404, 'application/json; charset=utf-8', {errors: {body: ['No route `GET /nowhere`']}}]
      ]
    )
  } finally {
    await app.close()
  }
})

test.run()
