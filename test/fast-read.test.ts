/**
 * Hook-free reads on a SQLite file or on PostgreSQL skip hydration (runtime/http/fast-read.ts), and plain creates on a
 * SQLite file skip the unit of work (runtime/http/fast-write.ts); they must answer exactly what the entity path
 * answers, for every record and page, including soft-deleted rows, every column type (fixtures/types-app), keys and
 * relations (fixtures/blog-app), and a read right after a write must show the write.
 * PostgreSQL runs when it answers (see helpers/databases.ts; a line says when it is skipped).
 */
import path from 'node:path'
import type {FastifyInstance} from 'fastify'
import {suite} from 'uvu'
import * as assert from 'uvu/assert'
import {createTestApp} from '../runtime/testing.js'
import {connect, dropTables, temporaryProject, testDatabases, type TestDatabase} from './helpers/databases.js'
import {root} from './helpers/fixtures.js'

const blog = path.join(root, 'fixtures/blog-app')
const types = path.join(root, 'fixtures/types-app')

/** The database of one comparison: a fresh SQLite file, or the server database with `tables` dropped first. */
async function databaseFor(database: TestDatabase, tables: string[]): Promise<{type: TestDatabase['type']; url: string}> {
  if (database.type === 'sqlite') return {type: 'sqlite', url: path.join(temporaryProject('fast'), 'app.sqlite')}
  const orm = await connect(database, temporaryProject('fast'))
  await dropTables(orm, tables)
  await orm.close(true)
  return database
}

/** Two apps on one database: the fast reads on, and off (the entity path). */
async function pair(project: string, database: {type: TestDatabase['type']; url: string}): Promise<{fast: FastifyInstance; slow: FastifyInstance}> {
  const fast = await createTestApp({root: project, database})
  assert.ok(fast.fastReader, 'the fast reads are on')
  const slow = await createTestApp({root: project, database, fastReads: false, fastWrites: false})
  return {fast, slow}
}

async function sameAnswers(fast: FastifyInstance, slow: FastifyInstance, urls: string[]): Promise<void> {
  for (const url of urls) {
    const [a, b] = await Promise.all([fast.inject({method: 'GET', url}), slow.inject({method: 'GET', url})])
    assert.is(a.statusCode, b.statusCode, url)
    assert.is(a.body, b.body, url)
  }
}

function fastReadSuite(database: TestDatabase) {
  const test = suite(`prepared-statement reads and creates on ${database.label}`)

  test('prepared-statement reads of the blog answer what the entity path answers', async () => {
    const {fast, slow} = await pair(blog, await databaseFor(database, ['comment', 'post_tags', 'post', 'tag', 'user', 'apipe_migrations']))
    try {
      const post = async (payload: object) => (await fast.inject({method: 'POST', url: '/posts', payload})).statusCode
      assert.is((await fast.inject({method: 'POST', url: '/users', payload: {email: 'ada@example.com', name: 'Ada'}})).statusCode, 201)
      for (let index = 1; index <= 30; index++) {
        assert.is(await post({title: `Post ${index}`, author: 1, views: index % 7, rating: index % 3 === 0 ? null : index / 2, body: index % 2 ? 'text' : null}), 201)
      }
      await fast.inject({method: 'POST', url: '/posts/3/publish'})
      await fast.inject({method: 'DELETE', url: '/posts/4'})
      await sameAnswers(fast, slow, ['/posts/1', '/posts/3', '/posts/4', '/posts/999', '/users/1', '/posts', '/posts?limit=7&page=3', '/posts?sort=-views,title&limit=10', '/posts?count=false&limit=2', '/posts?page=9'])
    } finally {
      await fast.close()
      await slow.close()
    }
  })

  test('every column type reads as the entity path shows it, and a read right after a write shows the write', async () => {
    const {fast, slow} = await pair(types, await databaseFor(database, ['sample', 'apipe_migrations']))
    try {
      const full = {s: 'full', t: 'long text', e: 'ada@example.com', p: 'a secret phrase', n: 2.25, i: -7, b: true, d: '2026-11-24', dt: '2026-11-24T07:40:00.123Z', u: '5b6d0c1e-7f0a-4c1e-9a59-2f1d1f1a0b9c', j: {list: [1, 'two', null], flag: false}, k: 'b'}
      const created = await fast.inject({method: 'POST', url: '/samples', payload: full})
      assert.is(created.statusCode, 201, created.body)
      const location = created.headers.location as string
      const empty = await fast.inject({method: 'POST', url: '/samples', payload: {s: 'defaults'}})
      assert.is(empty.statusCode, 201, empty.body)
      const read = await fast.inject({method: 'GET', url: location})
      assert.is(read.statusCode, 200)
      const {code, createdAt, updatedAt, ...shown} = JSON.parse(read.body)
      const {p: _, ...visible} = full
      assert.equal(shown, visible, 'the password never shows')
      assert.equal([typeof code, typeof createdAt, typeof updatedAt], ['string', 'string', 'string'])
      await sameAnswers(fast, slow, [location, empty.headers.location as string, location.toUpperCase().replace('/SAMPLES/', '/samples/'), '/samples', '/samples?sort=-n', '/samples?sort=dt,s&limit=1&page=2'])

      // Written through the ORM's connection, read through the fast reads' own.
      const changed = await fast.inject({method: 'PATCH', url: location, payload: {s: 'changed', b: false, j: [3], dt: '2027-01-02T03:04:05.006Z'}})
      assert.is(changed.statusCode, 200, changed.body)
      const again = JSON.parse((await fast.inject({method: 'GET', url: location})).body)
      assert.equal([again.s, again.b, again.j, again.dt], ['changed', false, [3], '2027-01-02T03:04:05.006Z'])
      assert.is((await fast.inject({method: 'DELETE', url: location})).statusCode, 204)
      assert.is((await fast.inject({method: 'GET', url: location})).statusCode, 404)
      assert.equal(JSON.parse((await fast.inject({method: 'GET', url: '/samples'})).body).meta.total, 1)
      await sameAnswers(fast, slow, [location, '/samples'])
    } finally {
      await fast.close()
      await slow.close()
    }
  })

  test('a plain create answers what the entity path answers and stores what it stores', async () => {
    const {fast, slow} = await pair(types, await databaseFor(database, ['item', 'sample', 'apipe_migrations']))
    try {
      assert.is(fast.fastWriter !== undefined, database.type === 'sqlite', 'prepared creates are for SQLite files')
      const sample = JSON.parse((await slow.inject({method: 'POST', url: '/samples', payload: {s: 'owner'}})).body).code
      const bodies = [
        {s: 'full', t: 'long text', n: 2, i: -7, b: true, d: '2026-11-24', dt: '2026-11-24T07:40:00Z', u: '5b6d0c1e-7f0a-4c1e-9a59-2f1d1f1a0b9c', j: {list: [1, 'two', null]}, k: 'b', secret: 'kept', sample},
        {s: 'defaults'},
        {s: 'nulls', t: null, n: null, b: null, dt: null, j: null, sample: null}
      ]
      const strip = ({id: _, createdAt: __, updatedAt: ___, ...rest}: Record<string, unknown>) => rest
      for (const [index, body] of bodies.entries()) {
        const [a, b] = await Promise.all([fast, slow].map((app, side) => app.inject({method: 'POST', url: '/items', payload: {...body, e: `item${index}-${side}@example.com`}})))
        assert.is(a.statusCode, 201, a.body)
        assert.is(b.statusCode, 201, b.body)
        const [created, expected] = [JSON.parse(a.body), JSON.parse(b.body)]
        assert.equal(Object.keys(created), Object.keys(expected), 'the same keys, in the same order')
        assert.equal(strip({...created, e: undefined}), strip({...expected, e: undefined}))
        assert.is(a.headers.location, `/items/${created.id}`)
        // What the prepared insert stored reads back through the entity path as what the entity path stored.
        const [storedFast, storedSlow] = await Promise.all([a, b].map(async (created) => JSON.parse((await slow.inject({method: 'GET', url: created.headers.location})).body)))
        assert.equal(strip({...storedFast, e: undefined}), strip({...storedSlow, e: undefined}))
        assert.equal(storedFast.createdAt, created.createdAt)
        assert.equal(storedFast, created, 'a create answers what a read of the record answers (a many-to-one not given: null)')
      }
      const [a, b] = await Promise.all([fast, slow].map((app) => app.inject({method: 'POST', url: '/items', payload: {s: 'again', e: 'item0-0@example.com'}})))
      assert.is(a.statusCode, 409)
      assert.is(a.body, b.body, 'a unique violation is the same 409')
      const [ghost, ghostSlow] = await Promise.all([fast, slow].map((app) => app.inject({method: 'POST', url: '/items', payload: {s: 'ghost', sample: '00000000-0000-4000-8000-000000000000'}})))
      assert.is(ghost.statusCode, ghostSlow.statusCode, ghost.body)
      assert.is(ghost.body, ghostSlow.body, 'a missing reference is the same problem')
    } finally {
      await fast.close()
      await slow.close()
    }
  })

  return test
}

for (const database of await testDatabases()) {
  if (database.type === 'mariadb') continue // MySQL and MariaDB keep the entity path.
  fastReadSuite(database).run()
}
