/**
 * Hostile HTTP input against the example blog: malformed JSON, wrong content types, bodies over the limit,
 * SQL-injection strings in every query parameter and in ids, `__proto__` and `constructor.prototype` keys in bodies
 * and query strings, path traversal, over-long ids, invalid UTF-8 and repeated query keys. Each must be a 4xx
 * problem+json; the rows must be unchanged, no prototype polluted, and the app still answering.
 */
import path from 'node:path'
import type {FastifyInstance} from 'fastify'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {createTestApp} from '../../runtime/testing.js'
import {root} from '../helpers/fixtures.js'

let app: FastifyInstance
const counts = async () => {
  const knex = app.orm.em.getKnex()
  const tables = ['user', 'post', 'tag', 'comment', 'post_tags']
  return Object.fromEntries(await Promise.all(tables.map(async (table) => [table, Number((await knex(table).count({n: '*'}))[0].n)])))
}
const injections = ["' OR '1'='1", "1; DROP TABLE post; --", '1 UNION SELECT password FROM user', '%27%20OR%201=1', '\\x00', '"); DELETE FROM post; --', '${7*7}', '../../etc/passwd']
let tried = 0

async function refuse(options: {method: string; url: string; payload?: unknown; headers?: Record<string, string>}, allowed = [400, 404, 413, 414, 415, 422]) {
  const response = await app.inject({method: options.method as 'GET', url: options.url, payload: options.payload as string, headers: options.headers})
  tried++
  assert.ok(allowed.includes(response.statusCode), `${options.method} ${options.url} answered ${response.statusCode}: ${response.body.slice(0, 300)}`)
  assert.is(response.headers['content-type'], 'application/problem+json; charset=utf-8', `${options.method} ${options.url}`)
  const body = JSON.parse(response.body)
  assert.is(body.status, response.statusCode)
  assert.not.match(response.body, /at .+\.(js|ts):\d+|SQLITE_|syntax error|stack/i, 'no internals')
  return response
}

test.before(async () => {
  app = await createTestApp({root: path.join(root, 'fixtures/blog-app')})
  await app.inject({method: 'POST', url: '/users', payload: {email: 'ada@example.com', name: 'Ada', password: 'analytical engine'}})
  await app.inject({method: 'POST', url: '/posts', payload: {title: 'Notes', author: 1}})
})
test.after(async () => {
  console.log(`  tried ${tried} hostile requests`)
  await app.close()
})

test('malformed bodies, wrong content types, bodies over the limit', async () => {
  const before = await counts()
  for (const payload of ['{', '{"title": "x",}', 'null', '[]', '"text"', '{"title": "\u0000"', '\u00ff\u00fe{', 'true']) {
    await refuse({method: 'POST', url: '/posts', payload, headers: {'content-type': 'application/json'}})
  }
  for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', 'image/png']) {
    await refuse({method: 'POST', url: '/posts', payload: 'title=x', headers: {'content-type': type}})
  }
  await refuse({method: 'POST', url: '/posts', payload: JSON.stringify({title: 'x'.repeat(2 * 1024 * 1024), author: 1}), headers: {'content-type': 'application/json'}})
  await refuse({method: 'PATCH', url: '/posts/1', payload: Buffer.from([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), headers: {'content-type': 'application/json'}})
  assert.equal(await counts(), before)
})

test('SQL injection in every query parameter and in ids', async () => {
  const before = await counts()
  for (const value of injections) {
    const text = encodeURIComponent(value)
    for (const query of [`sort=${text}`, `fields=${text}`, `populate=${text}`, `page=${text}`, `limit=${text}`, `filter[${text}]=1`, `filter[title][${text}]=1`, `filter[views][gt]=${text}`, `filter[views][in]=1,${text}`, `count=${text}`]) {
      await refuse({method: 'GET', url: `/posts?${query}`})
    }
    await refuse({method: 'GET', url: `/posts/${text}`})
    await refuse({method: 'DELETE', url: `/posts/${text}`})
    // A string filter takes any text, as a bound parameter: it finds nothing and changes nothing.
    const search = await app.inject({method: 'GET', url: `/posts?filter[title]=${text}`})
    tried++
    assert.is(search.statusCode, 200)
    assert.equal(JSON.parse(search.body).data, [])
  }
  assert.equal(await counts(), before)
})

test('__proto__ and constructor.prototype in bodies and query strings pollute nothing', async () => {
  const before = await counts()
  const bodies = ['{"__proto__": {"polluted": true}, "title": "x", "author": 1}', '{"constructor": {"prototype": {"polluted": true}}, "title": "x", "author": 1}', '{"title": "x", "author": 1, "tags": {"__proto__": [1]}}']
  for (const payload of bodies) await refuse({method: 'POST', url: '/posts', payload, headers: {'content-type': 'application/json'}})
  for (const query of ['__proto__[polluted]=1', 'constructor[prototype][polluted]=1', 'filter[__proto__][polluted]=1', 'filter[constructor][prototype]=1', 'sort=__proto__', 'fields=constructor']) {
    await refuse({method: 'GET', url: `/posts?${query}`})
  }
  assert.is(({} as Record<string, unknown>).polluted, undefined)
  assert.is((Object.prototype as Record<string, unknown>).polluted, undefined)
  assert.equal(await counts(), before)
})

test('path traversal, over-long ids, invalid UTF-8 in the path, repeated query keys', async () => {
  for (const url of ['/posts/..%2F..%2Fetc%2Fpasswd', '/posts/%2e%2e', `/posts/${'9'.repeat(5000)}`, `/posts/${'a'.repeat(300)}`, '/posts/%ff%fe', '/posts/%c3%28', '/posts/-1', '/posts/1.5', '/posts/0x10']) {
    await refuse({method: 'GET', url})
  }
  for (const query of ['page=1&page=2', 'limit=5&limit=6', 'sort=id&sort=title', 'filter[views]=1&filter[views]=2', 'filter[title]=%ff%fe']) {
    const response = await app.inject({method: 'GET', url: `/posts?${query}`})
    tried++
    assert.ok([200, 400].includes(response.statusCode), `${query}: ${response.statusCode}`)
    if (response.statusCode === 400) assert.is(response.headers['content-type'], 'application/problem+json; charset=utf-8')
  }
  const alive = await app.inject({method: 'GET', url: '/posts/1'})
  assert.is(alive.statusCode, 200, 'the app still answers')
})

test.run()
