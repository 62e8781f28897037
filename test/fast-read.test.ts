/**
 * Hook-free reads on a SQLite file skip hydration (runtime/http/fast-read.ts); they must answer exactly what the
 * entity path answers, for every record and page, including soft-deleted rows, booleans, JSON, dates and keys.
 */
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {createTestApp} from '../runtime/testing.js'
import {temporaryProject} from './helpers/databases.js'
import {root} from './helpers/fixtures.js'

test('prepared-statement reads answer what the entity path answers', async () => {
  const file = path.join(temporaryProject('fast'), 'blog.sqlite')
  const database = {type: 'sqlite' as const, url: file}
  const fast = await createTestApp({root: path.join(root, 'fixtures/blog-app'), database})
  const slow = await createTestApp({root: path.join(root, 'fixtures/blog-app'), database, fastReads: false})
  try {
    const post = async (payload: object) => (await fast.inject({method: 'POST', url: '/posts', payload})).statusCode
    assert.is((await fast.inject({method: 'POST', url: '/users', payload: {email: 'ada@example.com', name: 'Ada'}})).statusCode, 201)
    for (let index = 1; index <= 30; index++) {
      assert.is(await post({title: `Post ${index}`, author: 1, views: index % 7, rating: index % 3 === 0 ? null : index / 2, body: index % 2 ? 'text' : null}), 201)
    }
    await fast.inject({method: 'POST', url: '/posts/3/publish'})
    await fast.inject({method: 'DELETE', url: '/posts/4'})
    const urls = ['/posts/1', '/posts/3', '/posts/4', '/posts/999', '/users/1', '/posts', '/posts?limit=7&page=3', '/posts?sort=-views,title&limit=10', '/posts?count=false&limit=2', '/posts?page=9']
    for (const url of urls) {
      const [a, b] = await Promise.all([fast.inject({method: 'GET', url}), slow.inject({method: 'GET', url})])
      assert.is(a.statusCode, b.statusCode, url)
      assert.is(a.body, b.body, url)
    }
  } finally {
    await fast.close()
    await slow.close()
  }
})

test.run()
