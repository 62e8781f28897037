/**
 * Concurrency on each database: 50 parallel creates with one unique e-mail give exactly one 201 and 49 409s; 100
 * parallel updates of one row end in one of the written states, without a 500. Also: a hook that throws after the
 * write leaves nothing stored, under the same parallel load.
 */
import path from 'node:path'
import type {FastifyInstance} from 'fastify'
import {suite} from 'uvu'
import * as assert from 'uvu/assert'
import {createTestApp} from '../../runtime/testing.js'
import {connect, dropTables, temporaryProject, testDatabases, type TestDatabase} from '../helpers/databases.js'
import {root} from '../helpers/fixtures.js'

const blogTables = ['comment', 'post_tags', 'post', 'tag', 'user', 'apipe_migrations']

function concurrencySuite(database: TestDatabase) {
  const test = suite(`concurrency on ${database.label}`)
  let app: FastifyInstance
  // PostgreSQL and MariaDB spend a sequence value on every refused insert, so the stored rows' ids are read back, never assumed.
  let authorId: number
  let postId: number

  test.before(async () => {
    if (database.type !== 'sqlite') {
      const orm = await connect(database, temporaryProject('concurrency'))
      await dropTables(orm, blogTables)
      await orm.close(true)
    }
    const target = database.type === 'sqlite' ? {type: 'sqlite' as const, url: path.join(temporaryProject('concurrency'), 'blog.sqlite')} : database
    app = await createTestApp({root: path.join(root, 'fixtures/blog-app'), database: target})
  })
  test.after(async () => {
    await app.close()
  })

  test('50 parallel creates with one unique e-mail: one 201, 49 409s', async () => {
    const responses = await Promise.all(
      Array.from({length: 50}, (_, index) => app.inject({method: 'POST', url: '/users', payload: {email: 'race@example.com', name: `Racer ${index}`}}))
    )
    const statuses = responses.map((response) => response.statusCode).sort()
    assert.equal(statuses, [201, ...Array(49).fill(409)])
    const count = await app.inject({method: 'GET', url: '/users/count?filter[email]=race@example.com'})
    assert.equal(JSON.parse(count.body), {count: 1})
    const stored = await app.inject({method: 'GET', url: '/users?filter[email]=race@example.com'})
    authorId = JSON.parse(stored.body).data[0].id
  })

  test('100 parallel updates of one row: no 500, the final state is one of the writes', async () => {
    const created = await app.inject({method: 'POST', url: '/posts', payload: {title: 'Contended', author: authorId}})
    assert.is(created.statusCode, 201)
    const id = (postId = JSON.parse(created.body).id)
    const responses = await Promise.all(Array.from({length: 100}, (_, index) => app.inject({method: 'PATCH', url: `/posts/${id}`, payload: {views: index + 1, title: `Write ${index + 1}`}})))
    const statuses = new Set(responses.map((response) => response.statusCode))
    assert.equal([...statuses], [200])
    const final = JSON.parse((await app.inject({method: 'GET', url: `/posts/${id}`})).body)
    assert.ok(final.views >= 1 && final.views <= 100)
    assert.is(final.title, `Write ${final.views}`, 'both fields come from the same write')
  })

  test('an after hook that throws leaves nothing stored, under parallel load', async () => {
    const before = JSON.parse((await app.inject({method: 'GET', url: '/comments/count'})).body).count
    const responses = await Promise.all(
      Array.from({length: 40}, (_, index) => app.inject({method: 'POST', url: '/comments', payload: {body: index % 2 ? `Buy now ${index}` : `Fine ${index}`, post: postId}}))
    )
    const statuses = responses.map((response) => response.statusCode)
    assert.is(statuses.filter((status) => status === 201).length, 20)
    assert.is(statuses.filter((status) => status === 422).length, 20)
    const after = JSON.parse((await app.inject({method: 'GET', url: '/comments/count'})).body).count
    assert.is(after - before, 20)
  })

  return test
}

for (const database of await testDatabases()) concurrencySuite(database).run()
