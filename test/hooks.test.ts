/**
 * The order of 4.4 with everything at once (fixtures/hooks-app): global middleware, route middleware, before hook,
 * action, after hook, response; the hooks see the action's transaction (`ctx.db`), services (`ctx.services`) and
 * utils (`ctx.utils`), and an after hook may replace the answer.
 */
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {createTestApp} from '../runtime/testing.js'
import {root} from './helpers/fixtures.js'

test('middleware -> route middleware -> before hook -> action -> after hook, sharing services, utils and state', async () => {
  const app = await createTestApp({root: path.join(root, 'fixtures/hooks-app')})
  try {
    const created = await app.inject({method: 'POST', url: '/items', payload: {label: 'Hello World'}})
    assert.is(created.statusCode, 201, created.body)
    assert.equal(created.json(), {
      id: 1,
      label: 'hello-world',
      trail: ['first before', 'second before', 'beforeCreate (0 rows)', 'afterCreate (1 rows, id 1)']
    })
    assert.is(created.headers['x-trail'], 'first before > second before > beforeCreate (0 rows) > afterCreate (1 rows, id 1) > second after > first after')
    const listed = await app.inject({method: 'GET', url: '/items'})
    assert.is(listed.headers['x-trail'], 'first before > first after', 'route middleware only on its route')
  } finally {
    await app.close()
  }
})

test.run()
