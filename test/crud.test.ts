/**
 * The HTTP contract of 4.3 on the contract blog (fixtures/blog-app), with exact status codes and bodies, on SQLite and
 * on each database server that answers: CRUD, every filter operator, sorting, pagination edges, field selection,
 * populate on each relation kind with a query count, hooks (order, rollback), middleware, and every error status.
 */
import path from 'node:path'
import {brotliCompressSync, deflateSync, gzipSync} from 'node:zlib'
import type {FastifyInstance} from 'fastify'
import {suite} from 'uvu'
import * as assert from 'uvu/assert'
import {createTestApp} from '../runtime/testing.js'
import {connect, dropTables, temporaryProject, testDatabases, type TestDatabase} from './helpers/databases.js'
import {root} from './helpers/fixtures.js'

const blog = path.join(root, 'fixtures/blog-app')
const blogTables = ['comment', 'post_tags', 'post', 'tag', 'user', 'apipe_migrations']
const problemType = 'application/problem+json; charset=utf-8'

type Json = Record<string, any>

function crudSuite(database: TestDatabase) {
  const test = suite(`HTTP contract on ${database.label}`)
  let app: FastifyInstance
  const call = async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const response = await app.inject({method: method as 'GET', url, payload: payload as Json, headers})
    return {status: response.statusCode, headers: response.headers, body: response.body ? (JSON.parse(response.body) as Json) : undefined, raw: response.body}
  }
  const ids = (body: Json | undefined) => (body?.data as Json[]).map((row) => row.id)

  test.before(async () => {
    const target = database.type === 'sqlite' ? {type: database.type, url: ':memory:'} : database
    if (database.type !== 'sqlite') {
      const orm = await connect(database, temporaryProject('crud'))
      await dropTables(orm, blogTables)
      await orm.close(true)
    }
    app = await createTestApp({root: blog, database: target})
    // Fixed data: two users, three tags, five posts, comments.
    for (const user of [
      {email: 'ada@example.com', name: 'Ada', password: 'analytical engine', role: 'admin'},
      {email: 'grace@example.com', name: 'Grace', role: 'author'}
    ]) {
      assert.is((await call('POST', '/users', user)).status, 201)
    }
    for (const label of ['math', 'navy', 'history']) assert.is((await call('POST', '/tags', {label})).status, 201)
    const posts = [
      {title: 'Notes on the engine', body: 'Bernoulli numbers', author: 1, tags: [1, 3], views: 120, rating: 4.5},
      {title: 'Compilers', author: 2, tags: [2], views: 300, rating: 5},
      {title: 'The first bug', author: 2, tags: [2, 3], views: 50},
      {title: 'Poetical science', author: 1, tags: [], views: 120, rating: 3.5},
      {title: 'COBOL', author: 2, views: 10, rating: 4}
    ]
    for (const post of posts) assert.is((await call('POST', '/posts', post)).status, 201)
    for (const comment of [{body: 'Brilliant', post: 1, author: 2}, {body: 'Agreed', post: 1}, {body: 'Moth!', post: 3, author: 1}]) {
      assert.is((await call('POST', '/comments', comment)).status, 201)
    }
  })

  test.after(async () => {
    await app.close()
  })

  test('create: 201 with the record and Location; the password never appears', async () => {
    const created = await call('POST', '/users', {email: 'mary@example.com', name: 'Mary', password: 'difference engine'})
    assert.is(created.status, 201)
    assert.is(created.headers.location, `/users/${created.body!.id}`)
    assert.equal(Object.keys(created.body!).sort(), ['createdAt', 'email', 'id', 'name', 'role', 'updatedAt'])
    assert.is(created.body!.role, 'reader', 'the default applies')
    assert.is(created.body!.updatedAt, created.body!.createdAt, 'a new record\'s stamps are one moment')
    const read = await call('GET', created.headers.location as string)
    assert.is(read.status, 200)
    assert.not.ok('password' in read.body!)
    assert.not.ok(read.raw.includes('difference engine'))
  })

  test('create answers what a read of the record answers: a many-to-one the body leaves out is null in both', async () => {
    const created = await call('POST', '/comments', {body: 'No author', post: 2})
    assert.is(created.status, 201, created.raw)
    assert.is(created.body!.author, null)
    // MySQL and MariaDB keep a datetime to the second (README): the moments are compared there as stored.
    const stored = (moment: string) => (database.type === 'mariadb' ? moment.replace(/\.\d+Z$/, '.000Z') : moment)
    const asStored = (record: Json) => ({...record, createdAt: stored(record.createdAt), updatedAt: stored(record.updatedAt)})
    assert.equal(asStored(created.body!), (await call('GET', created.headers.location as string)).body)
    assert.is((await call('DELETE', created.headers.location as string)).status, 204)
  })

  test('a writable many-to-many reads back as it was written: its keys in reads, lists and update answers', async () => {
    const created = await call('POST', '/posts', {title: 'Tag reading', author: 1, tags: [1, 2]})
    assert.is(created.status, 201, created.raw)
    assert.equal(created.body!.tags, [1, 2])
    const read = await call('GET', created.headers.location as string)
    const stored = (record: Json) => (database.type === 'mariadb' ? {...record, createdAt: record.createdAt.replace(/\.\d+Z$/, '.000Z'), updatedAt: record.updatedAt.replace(/\.\d+Z$/, '.000Z')} : record)
    assert.equal(read.body, stored(created.body!))
    const listed = await call('GET', '/posts?filter[title]=Tag reading')
    assert.equal(listed.body!.data.map((post: Json) => post.tags), [[1, 2]])
    const renamed = await call('PATCH', created.headers.location as string, {title: 'Tag reading, again'})
    assert.equal(renamed.body!.tags, [1, 2], 'a PATCH that does not name them answers them too')
    assert.equal((await call('GET', `${created.headers.location}?populate=tags`)).body!.tags.map((tag: Json) => tag.label), ['math', 'navy'])
    assert.is((await call('DELETE', created.headers.location as string)).status, 204)
  })

  test('a PATCH that changes only a many-to-many list bumps updatedAt, on every database', async () => {
    const created = await call('POST', '/posts', {title: 'Retagged', author: 1, tags: [1]})
    assert.is(created.status, 201, created.raw)
    try {
      // An old stamp, set in the database, so that any bump shows whatever a column's precision.
      await app.orm.em.fork().getConnection().execute('update post set updated_at = ? where id = ?', [new Date('2001-01-01T00:00:00Z'), created.body!.id])
      const retagged = await call('PATCH', created.headers.location as string, {tags: [1, 2]})
      assert.is(retagged.status, 200, retagged.raw)
      assert.equal(retagged.body!.tags, [1, 2])
      const read = await call('GET', created.headers.location as string)
      assert.ok(Date.parse(read.body!.updatedAt) > Date.parse('2001-01-02T00:00:00Z'), `updatedAt ${read.body!.updatedAt}`)
      assert.is(read.body!.updatedAt, retagged.body!.updatedAt.replace(database.type === 'mariadb' ? /\.\d+Z$/ : /$^/, '.000Z'))
      // The same list again changes nothing: the stamp stays.
      const same = await call('PATCH', created.headers.location as string, {tags: [1, 2]})
      assert.is(same.body!.updatedAt, read.body!.updatedAt)
    } finally {
      assert.is((await call('DELETE', created.headers.location as string)).status, 204)
    }
  })

  test('a read takes fields and populate only: another parameter is a 400, as on a list', async () => {
    const read = await call('GET', '/posts/1?limit=5&fields=title')
    assert.equal([read.status, read.body], [400, {type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Unknown parameter `limit`; a record takes fields and populate', errors: [{pointer: '/query/limit', code: 'unknown-parameter', detail: 'Unknown parameter `limit`; a record takes fields and populate'}]}], read.raw)
    assert.is((await call('GET', '/posts/1?fields=title')).status, 200)
  })

  test('a body that names a record that does not exist is a 422 pointing at its field, on every database', async () => {
    const missing = (field: string) => ({type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: 'A referenced record does not exist', errors: [{pointer: `/${field}`, code: 'reference', detail: `\`${field}\` refers to a record that does not exist`}]})
    const comment = await call('POST', '/comments', {body: 'Lost', post: 999})
    assert.equal([comment.status, comment.body], [422, missing('post')], comment.raw)
    const moved = await call('PATCH', '/comments/1', {author: 999})
    assert.equal([moved.status, moved.body], [422, missing('author')], moved.raw)
    const tagged = await call('POST', '/posts', {title: 'Tagged', author: 1, tags: [1, 999]})
    assert.equal([tagged.status, tagged.body], [422, missing('tags')], tagged.raw)
    assert.is((await call('GET', '/posts?filter[title]=Tagged')).body!.meta.total, 0, 'nothing was written')
  })

  test('an integer past the `int` columns of PostgreSQL and MySQL: 404 as a key, 422 as a value, on every database', async () => {
    for (const url of ['/posts/2147483648', '/posts/99999999999', '/posts/01']) {
      const read = await call('GET', url)
      assert.equal([read.status, read.body?.title], [404, 'Not Found'], `${url}: ${read.raw}`)
    }
    assert.is((await call('DELETE', '/posts/2147483648')).status, 404)
    const large = (field: string) => ({pointer: `/${field}`, code: 'maximum', detail: `\`${field}\` must be <= 2147483647`})
    const viewed = await call('POST', '/posts', {title: 'Viral', author: 1, views: 3000000000})
    assert.equal([viewed.status, viewed.body?.errors], [422, [large('views')]], viewed.raw)
    const authored = await call('POST', '/posts', {title: 'Lost', author: 3000000000})
    assert.equal([authored.status, authored.body?.errors], [422, [large('author')]], authored.raw)
  })

  test('create: 422 lists every failing field as a JSON pointer', async () => {
    const response = await call('POST', '/posts', {title: 7, status: 'lost', views: 'many', id: 99, createdAt: '2020-01-01T00:00:00Z', bogus: true})
    assert.is(response.status, 422)
    assert.is(response.headers['content-type'], problemType)
    assert.equal(
      response.body!.errors.map((error: Json) => `${error.pointer} ${error.code}`).sort(),
      ['/author required', '/bogus unknown-field', '/createdAt unknown-field', '/id unknown-field', '/status enum', '/title type', '/views type']
    )
    assert.is(response.body!.status, 422)
    assert.is(response.body!.title, 'Unprocessable Entity')
  })

  test('create: 409 for a unique violation names the field', async () => {
    const response = await call('POST', '/users', {email: 'ada@example.com', name: 'Another Ada'})
    assert.is(response.status, 409)
    assert.equal(response.body, {
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail: 'A record with this `email` already exists',
      errors: [{pointer: '/email', code: 'unique', detail: '`email` is already taken'}]
    })
  })

  test('400 malformed JSON, 415 media type, 413 body too large, 404 unknown route', async () => {
    const malformed = await app.inject({method: 'POST', url: '/tags', headers: {'content-type': 'application/json'}, payload: '{"label": '})
    assert.is(malformed.statusCode, 400)
    assert.equal(JSON.parse(malformed.body), {type: 'about:blank', title: 'Bad Request', status: 400, detail: 'The body is not valid JSON'})
    const text = await app.inject({method: 'POST', url: '/tags', headers: {'content-type': 'text/plain'}, payload: 'label=x'})
    assert.is(text.statusCode, 415)
    assert.is(text.headers['content-type'], problemType)
    const huge = await call('POST', '/posts', {title: 'Huge', author: 1, body: 'x'.repeat(1024 * 1024 + 10)})
    assert.is(huge.status, 413)
    assert.is(huge.body!.detail, 'The request body is too large')
    // No database keeps a NUL character in text: a body or a filter that holds one is refused before the database.
    const nul = await app.inject({method: 'POST', url: '/tags', headers: {'content-type': 'application/json'}, payload: '{"label": "a\\u0000b"}'})
    assert.equal([nul.statusCode, JSON.parse(nul.body).errors], [422, [{pointer: '/label', code: 'nul-character', detail: '`label` holds a NUL character (\\u0000), which no database stores'}]])
    const escaped = await app.inject({method: 'POST', url: '/tags', headers: {'content-type': 'application/json'}, payload: '{"label": "a\\\\u0000b"}'})
    assert.equal([escaped.statusCode, JSON.parse(escaped.body).label], [201, 'a\\u0000b'], 'a backslash before u0000 is text')
    assert.is((await call('GET', '/posts?filter[title]=a%00b')).status, 400)
    assert.is((await call('GET', '/posts?filter[title][like]=a%00b')).status, 400)
    // A number past a double's range parses as Infinity, which no database stores: a 422 at its pointer, not a 500.
    const infinite = await app.inject({method: 'POST', url: '/posts', headers: {'content-type': 'application/json'}, payload: '{"title": "Far", "author": 1, "rating": 1e400, "views": -1e999}'})
    assert.equal([infinite.statusCode, JSON.parse(infinite.body).errors], [422, [
      {pointer: '/rating', code: 'out-of-range', detail: '`rating` is past the range of a number (at most about 1.8e308)'},
      {pointer: '/views', code: 'out-of-range', detail: '`views` is past the range of a number (at most about 1.8e308)'}
    ]])
    const finite = await app.inject({method: 'POST', url: '/posts', headers: {'content-type': 'application/json'}, payload: '{"body": "1e400", "author": 1, "rating": 1e300}'})
    assert.equal(JSON.parse(finite.body).errors.map((error: {pointer: string}) => error.pointer), ['/title'], 'an exponent in a string, and a large finite number, are values')
    // Only UTF-8 is read; JSON-based media types are JSON; a `__proto__` key is a key that cannot be set.
    const latin1 = await app.inject({method: 'POST', url: '/tags', headers: {'content-type': 'application/json; charset=iso-8859-1'}, payload: Buffer.from('{"label": "caf\xe9"}', 'latin1')})
    assert.equal([latin1.statusCode, JSON.parse(latin1.body).detail], [415, 'Unsupported charset `iso-8859-1`; send JSON in UTF-8'])
    const utf8 = await app.inject({method: 'POST', url: '/tags', headers: {'content-type': 'application/json; charset=UTF-8'}, payload: '{"label": "café"}'})
    assert.equal([utf8.statusCode, JSON.parse(utf8.body).label], [201, 'café'])
    // Bytes that are not UTF-8 are refused whatever the header says, never stored as U+FFFD.
    for (const type of ['application/json', 'application/json; charset=utf-8', 'application/merge-patch+json']) {
      const broken = await app.inject({method: 'POST', url: '/tags', headers: {'content-type': type}, payload: Buffer.from('{"label": "caf\xe9"}', 'latin1')})
      assert.equal([broken.statusCode, broken.headers['content-type'], JSON.parse(broken.body)], [400, problemType, {type: 'about:blank', title: 'Bad Request', status: 400, detail: 'The body is not valid UTF-8, as JSON must be'}], type)
    }
    assert.is((await call('GET', '/tags?filter[label][like]=caf')).body!.data.length, 1, 'nothing stored for the refused bodies')
    const mergePatch = await app.inject({method: 'PATCH', url: `/tags/${JSON.parse(utf8.body).id}`, headers: {'content-type': 'application/merge-patch+json'}, payload: '{"label": "cafés"}'})
    assert.equal([mergePatch.statusCode, JSON.parse(mergePatch.body).label], [200, 'cafés'])
    // A JSON Patch is a list of operations, a format updates do not take: 415 naming the ones they do (RFC 5789).
    for (const type of ['application/json-patch+json', 'application/json-patch+json; charset=utf-8']) {
      const jsonPatch = await app.inject({method: 'PATCH', url: `/tags/${JSON.parse(utf8.body).id}`, headers: {'content-type': type}, payload: '[{"op": "replace", "path": "/label", "value": "x"}]'})
      assert.equal([jsonPatch.statusCode, jsonPatch.headers['content-type'], jsonPatch.headers['accept-patch'], JSON.parse(jsonPatch.body).detail], [415, problemType, 'application/json, application/merge-patch+json', 'Unsupported patch format `application/json-patch+json` (a list of operations); send the fields to change as application/json or application/merge-patch+json'], type)
    }
    assert.is((await call('GET', `/tags/${JSON.parse(utf8.body).id}`)).body!.label, 'cafés', 'the JSON Patch changed nothing')
    const proto = await app.inject({method: 'POST', url: '/tags', headers: {'content-type': 'application/json'}, payload: '{"label": "x", "__proto__": {"admin": true}}'})
    assert.equal([proto.statusCode, JSON.parse(proto.body).errors], [422, [{pointer: '/__proto__', code: 'unknown-field', detail: '`__proto__` cannot be set'}]])
    const nested = await app.inject({method: 'POST', url: '/tags', headers: {'content-type': 'application/json'}, payload: '{"label": "x", "meta": [{"constructor": {"prototype": {"admin": true}}}]}'})
    assert.equal([nested.statusCode, JSON.parse(nested.body).errors], [422, [{pointer: '/meta/0/constructor/prototype', code: 'unknown-field', detail: '`constructor.prototype` cannot be set'}]])
    const missing = await call('GET', '/nowhere')
    assert.equal(missing.body, {type: 'about:blank', title: 'Not Found', status: 404, detail: 'No route `GET /nowhere`'})
    // A path served with other methods: 405 with `Allow`; OPTIONS, without CORS's preflight, lists them with a 204.
    const wrongMethod = await app.inject({method: 'PATCH', url: '/posts?page=2'})
    assert.equal([wrongMethod.statusCode, wrongMethod.headers.allow, wrongMethod.headers['content-type'], JSON.parse(wrongMethod.body)], [405, 'GET, HEAD, POST, OPTIONS', problemType, {type: 'about:blank', title: 'Method Not Allowed', status: 405, detail: '`/posts` takes GET, HEAD, POST, not PATCH'}])
    const options = await app.inject({method: 'OPTIONS', url: '/posts/1/'})
    assert.equal([options.statusCode, options.headers.allow, options.headers['accept-patch'], options.body], [204, 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS', 'application/json, application/merge-patch+json', ''])
    assert.is((await app.inject({method: 'OPTIONS', url: '/posts'})).headers['accept-patch'], undefined, 'no PATCH, no Accept-Patch')
    assert.is((await app.inject({method: 'OPTIONS', url: '/nowhere'})).statusCode, 404)
    assert.is((await call('GET', '/posts/999999')).status, 404)
    assert.is((await call('GET', '/posts/not-a-number')).status, 404)
  })

  test('a compressed body (gzip, deflate, br) is read decompressed; a bomb stops at bodyLimit, a bad or unknown encoding is said', async () => {
    const json = {'content-type': 'application/json'}
    const label = (name: string) => Buffer.from(JSON.stringify({label: name}))
    for (const [encoding, compress] of [['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]] as const) {
      const created = await app.inject({method: 'POST', url: '/tags', headers: {...json, 'content-encoding': encoding}, payload: compress(label(`packed-${encoding}`))})
      assert.equal([created.statusCode, JSON.parse(created.body).label], [201, `packed-${encoding}`], encoding)
    }
    // 2 MiB of spaces around a label: a few kilobytes sent, over the 1 MiB limit once inflated.
    const bomb = gzipSync(Buffer.concat([Buffer.from('{"label": "bomb"'), Buffer.alloc(2 * 1024 * 1024, ' '), Buffer.from('}')]))
    assert.ok(bomb.length < 10_000)
    const inflated = await app.inject({method: 'POST', url: '/tags', headers: {...json, 'content-encoding': 'gzip'}, payload: bomb})
    assert.equal([inflated.statusCode, JSON.parse(inflated.body).detail], [413, 'The request body is too large'])
    const broken = await app.inject({method: 'POST', url: '/tags', headers: {...json, 'content-encoding': 'gzip'}, payload: label('not packed')})
    assert.equal([broken.statusCode, broken.headers['content-type'], JSON.parse(broken.body).detail], [400, problemType, 'The body is not valid gzip (`Content-Encoding: gzip`)'])
    const unknown = await app.inject({method: 'POST', url: '/tags', headers: {...json, 'content-encoding': 'zstd'}, payload: label('zstd')})
    assert.equal([unknown.statusCode, unknown.headers['accept-encoding'], JSON.parse(unknown.body).detail], [415, 'gzip, deflate, br', 'Unsupported content encoding `zstd`; send the body as is or as gzip, deflate, br'])
    assert.is((await app.inject({method: 'GET', url: '/tags', headers: {'content-encoding': 'gzip'}})).statusCode, 200, 'no body, nothing to decode')
  })

  test('a JSON content type with an empty body is no body, as real clients send on bodiless writes', async () => {
    const json = {'content-type': 'application/json'}
    const tag = await call('POST', '/tags', {label: 'empty-body'})
    const removed = await app.inject({method: 'DELETE', url: `/tags/${tag.body!.id}`, headers: json, payload: ''})
    assert.is(removed.statusCode, 204, removed.body)
    const published = await app.inject({method: 'POST', url: '/posts/3/publish', headers: json})
    assert.is(published.statusCode, 200, published.body)
    // axios sends a bodiless `post(url)` as a form, fetch a `body: ''` as text: nothing sent is no body either way.
    const formTag = await call('POST', '/tags', {label: 'form-body'})
    const form = await app.inject({method: 'DELETE', url: `/tags/${formTag.body!.id}`, headers: {'content-type': 'application/x-www-form-urlencoded', 'content-length': '0'}})
    assert.is(form.statusCode, 204, form.body)
    const text = await call('POST', '/tags', {label: 'text-body'})
    const deleted = await app.inject({method: 'DELETE', url: `/tags/${text.body!.id}`, headers: {'content-type': 'text/plain;charset=UTF-8', 'content-length': '0'}, payload: ''})
    assert.is(deleted.statusCode, 204, deleted.body)
    const formBody = await app.inject({method: 'POST', url: '/tags', headers: {'content-type': 'application/x-www-form-urlencoded'}, payload: 'label=x'})
    assert.equal([formBody.statusCode, JSON.parse(formBody.body).detail], [415, 'Unsupported media type `application/x-www-form-urlencoded`; send application/json'])
    const untyped = await app.inject({method: 'POST', url: '/tags', headers: {'content-length': '7'}, payload: Buffer.from('label=x')})
    assert.equal([untyped.statusCode, JSON.parse(untyped.body).detail], [415, 'A body without `Content-Type`; send it as application/json'])
    const empty = await app.inject({method: 'POST', url: '/tags', headers: json, payload: ''})
    assert.is(empty.statusCode, 422, 'a create without a body fails validation, not parsing')
    assert.equal(JSON.parse(empty.body).errors, [{pointer: '/label', code: 'required', detail: '`label` is required'}])
  })

  test('list: the {data, meta} envelope and pagination edges', async () => {
    const first = await call('GET', '/posts?limit=2')
    assert.is(first.status, 200)
    assert.equal(first.body!.meta, {page: 1, limit: 2, total: 5, pages: 3})
    assert.equal(ids(first.body), [1, 2])
    assert.equal(ids((await call('GET', '/posts?limit=2&page=3')).body), [5])
    const past = await call('GET', '/posts?limit=2&page=9')
    assert.equal(past.body, {data: [], meta: {page: 9, limit: 2, total: 5, pages: 3}})
    const codes = {'limit=0': 'out-of-range', 'limit=101': 'out-of-range', 'page=0': 'out-of-range', 'page=-1': 'out-of-range', 'limit=abc': 'invalid-value', 'offset=1.5': 'invalid-value', 'page=': 'invalid-value'}
    for (const [query, code] of Object.entries(codes)) {
      const response = await call('GET', `/posts?${query}`)
      assert.is(response.status, 400, query)
      assert.is(response.headers['content-type'], problemType)
      assert.is((response.body as {errors: Array<{code: string}>}).errors[0].code, code, query)
    }
    const defaults = await call('GET', '/posts')
    assert.equal(defaults.body!.meta, {page: 1, limit: 20, total: 5, pages: 1})
    const uncounted = await call('GET', '/posts?count=false&limit=1')
    assert.equal(uncounted.body!.meta, {page: 1, limit: 1})
  })

  test('a trailing or doubled slash is the route without it, as clients that join base URLs send them', async () => {
    const plain = await call('GET', '/posts?limit=2')
    for (const url of ['/posts/?limit=2', '//posts?limit=2', '/posts//?limit=2']) {
      const response = await call('GET', url)
      assert.equal([response.status, response.body], [200, plain.body], url)
    }
    assert.equal((await call('GET', '/posts/1/')).body, (await call('GET', '/posts/1')).body)
  })

  test('list: sorting on several fields', async () => {
    assert.equal(ids((await call('GET', '/posts?sort=-views,title')).body), [2, 1, 4, 3, 5])
    assert.equal(ids((await call('GET', '/posts?sort=views,-id')).body), [5, 3, 4, 1, 2])
    const bad = await call('GET', '/posts?sort=password')
    assert.is(bad.status, 400)
    assert.equal(bad.body!.errors.map((error: Json) => error.pointer), ['/query/sort'])
  })

  test('list: every filter operator', async () => {
    const cases: Array<[string, number[]]> = [
      ['filter[views]=120', [1, 4]],
      ['filter[views][eq]=120', [1, 4]],
      ['filter[views][ne]=120', [2, 3, 5]],
      ['filter[views][gt]=50', [1, 2, 4]],
      ['filter[views][gte]=50', [1, 2, 3, 4]],
      ['filter[views][lt]=50', [5]],
      ['filter[views][lte]=50', [3, 5]],
      ['filter[views][in]=10,300', [2, 5]],
      ['filter[views][nin]=10,300', [1, 3, 4]],
      ['filter[title][like]=bug', [3]],
      ['filter[title][like]=Co*', [2, 5]],
      ['filter[rating][null]=true', [3]],
      ['filter[rating][null]=false', [1, 2, 4, 5]],
      ['filter[rating][gte]=4&filter[views][lt]=200', [1, 5]],
      ['filter[status]=draft&filter[views][gt]=100', [1, 2, 4]],
      // Dates compare as dates on every database (SQLite keeps them as epoch milliseconds).
      ['filter[createdAt][gte]=2000-01-01T00:00:00Z', [1, 2, 3, 4, 5]],
      ['filter[createdAt][lte]=2000-01-01T00:00:00Z', []],
      ['filter[createdAt][gt]=2000-01-01&filter[createdAt][lt]=2999-01-01', [1, 2, 3, 4, 5]],
      ['filter[updatedAt][lt]=1999-01-01', []]
    ]
    for (const [query, expected] of cases) {
      const response = await call('GET', `/posts?${query}&sort=id`)
      assert.is(response.status, 200, query)
      assert.equal(ids(response.body), expected, query)
    }
  })

  test('list: `like` matches SQL wildcards and backslashes as written; `*` is its one wildcard', async () => {
    const made: number[] = []
    for (const title of ['100% done', 'under_score', 'back\\slash']) made.push((await call('POST', '/posts', {title, author: 1})).body!.id)
    const [percent, underscore, backslash] = made
    const cases: Array<[string, number[]]> = [
      ['0%25', [percent]],
      ['%25', [percent]],
      ['r_s', [underscore]],
      ['_', [underscore]],
      ['k%5Cs', [backslash]],
      ['100*done', [percent]],
      ['under*', [underscore]]
    ]
    for (const [value, expected] of cases) {
      const response = await call('GET', `/posts?filter[title][like]=${value}&sort=id`)
      assert.is(response.status, 200, value)
      assert.equal(ids(response.body), expected, value)
    }
    for (const id of made) assert.is((await call('DELETE', `/posts/${id}`)).status, 204)
  })

  test('list: `like` is case-insensitive beyond ASCII, on every database', async () => {
    const made: number[] = []
    for (const title of ['Émile Zola', 'Ödön von Horváth', 'Лев Толстой']) made.push((await call('POST', '/posts', {title, author: 1})).body!.id)
    try {
      for (const [value, expected] of [['émile', [made[0]]], ['ÖDÖN', [made[1]]], ['лев*', [made[2]]], ['ТОЛСТОЙ', [made[2]]]] as Array<[string, number[]]>) {
        const response = await call('GET', `/posts?filter[title][like]=${encodeURIComponent(value)}&sort=id`)
        assert.equal([response.status, ids(response.body)], [200, expected], value)
      }
    } finally {
      for (const id of made) assert.is((await call('DELETE', `/posts/${id}`)).status, 204)
    }
  })

  test('list: filters through a many-to-one and a many-to-many, and offset paging', async () => {
    const cases: Array<[string, number[]]> = [
      ['filter[author.name]=Grace', [2, 3, 5]],
      ['filter[author.email][like]=ada', [1, 4]],
      ['filter[tags.label]=history', [1, 3]],
      ['filter[tags.label][in]=math,navy&filter[author.name]=Grace', [2, 3]]
    ]
    for (const [query, expected] of cases) {
      const response = await call('GET', `/posts?${query}&sort=id`)
      assert.is(response.status, 200, `${query}: ${response.raw}`)
      assert.equal(ids(response.body), expected, query)
    }
    const offset = await call('GET', '/posts?offset=3&limit=10&sort=id')
    assert.equal([ids(offset.body), offset.body!.meta], [[4, 5], {offset: 3, limit: 10, total: 5}])
    const unknown = await call('GET', '/posts?filter[author.password]=x')
    assert.equal([unknown.status, unknown.body!.errors[0].code], [400, 'unknown-field'], 'hidden fields stay unfilterable through relations')
    assert.is((await call('GET', '/posts?offset=1&page=2')).status, 400)
  })

  test('list: unknown fields, operators, parameters, repeated keys and bad values are 400', async () => {
    const cases: Array<[string, string]> = [
      ['filter[password]=x', '/query/filter[password]'],
      ['filter[deletedAt][null]=false', '/query/filter[deletedAt][null]'],
      ['filter[views][regex]=1', '/query/filter[views][regex]'],
      ['filter[views][gt]=many', '/query/filter[views][gt]'],
      ['filter[views]=1&filter[views]=2', '/query/filter[views]'],
      ['fields=title,password', '/query/fields'],
      ['populate=secrets', '/query/populate'],
      ['unknown=1', '/query/unknown'],
      ["filter[title]=' OR 1=1 --&sort=id;drop table post", '/query/sort']
    ]
    for (const [query, pointer] of cases) {
      const response = await call('GET', `/posts?${query}`)
      assert.is(response.status, 400, query)
      assert.ok(response.body!.errors.some((error: Json) => error.pointer === pointer), `${query}: ${response.raw}`)
    }
    assert.is((await call('GET', '/posts/count')).body!.count, 5, 'nothing was dropped')
  })

  test('list: field selection', async () => {
    const response = await call('GET', '/posts?fields=title,views&sort=id&limit=1')
    assert.equal(response.body!.data, [{id: 1, title: 'Notes on the engine', views: 120}])
    // A many-to-one is selected as its key, in lists and reads, as every answer shows it.
    const withAuthor = await call('GET', '/posts?fields=title,author&sort=id&limit=1')
    assert.equal(withAuthor.body!.data, [{id: 1, title: 'Notes on the engine', author: 1}], withAuthor.raw)
    assert.equal((await call('GET', '/posts/1?fields=author')).body, {id: 1, author: 1})
    // With `populate`, a list shows the populated record whole, as a read does.
    for (const query of ['fields=title&populate=author', 'fields=title,author&populate=author']) {
      const listed = (await call('GET', `/posts?${query}&sort=id&limit=1`)).body!.data[0]
      const read = (await call('GET', `/posts/1?${query}`)).body!
      assert.equal(listed, read, query)
      assert.equal([listed.title, listed.author.id, typeof listed.author.email], ['Notes on the engine', 1, 'string'], query)
    }
    const wrong = await call('GET', '/posts?fields=title,tags')
    assert.equal([wrong.status, wrong.body!.errors[0].detail], [400, 'Unknown field(s) `tags` in `fields`; select from `id`, `title`, `slug`, `body`, `status`, `publishedAt`, `views`, `rating`, `createdAt`, `updatedAt`, `author`'])
  })

  test('populate each relation kind with one query per relation', async () => {
    const knex = app.orm.em.getKnex()
    const queries: string[] = []
    const listener = (query: {sql: string}) => queries.push(query.sql)
    knex.on('query', listener)
    const response = await call('GET', '/posts?populate=author,tags,comments&sort=id&count=false')
    knex.off('query', listener)
    assert.is(response.status, 200)
    assert.is(queries.length, 4, `posts + author + tags + comments, not one per row:\n${queries.join('\n')}`)
    const first = response.body!.data[0]
    assert.is(first.author.name, 'Ada')
    assert.not.ok('password' in first.author)
    assert.equal(first.tags.map((tag: Json) => tag.label).sort(), ['history', 'math'])
    assert.equal(first.comments.map((comment: Json) => comment.body).sort(), ['Agreed', 'Brilliant'])
    const user = await call('GET', '/users/1?populate=posts')
    assert.equal(user.body!.posts.map((post: Json) => post.id).sort(), [1, 4], 'one-to-many from the other side')
  })

  test('count, update (PATCH partial, PUT full) and soft delete', async () => {
    assert.equal((await call('GET', '/posts/count?filter[author]=2')).body, {count: 3})
    const patched = await call('PATCH', '/posts/5', {views: 11})
    assert.is(patched.status, 200)
    assert.is(patched.body!.views, 11)
    assert.is(patched.body!.rating, 4, 'PATCH keeps what it does not name')
    const replaced = await call('PUT', '/posts/5', {title: 'COBOL, again', author: 2, views: 12})
    assert.is(replaced.status, 200)
    assert.is(replaced.body!.rating, null, 'PUT resets what it does not name')
    assert.is(replaced.body!.status, 'draft')
    assert.is((await call('PUT', '/posts/5', {title: 'No author'})).status, 422)
    const removed = await call('DELETE', '/posts/5')
    assert.is(removed.status, 204)
    assert.is(removed.raw, '')
    assert.is((await call('GET', '/posts/5')).status, 404)
    assert.is((await call('DELETE', '/posts/5')).status, 404)
    assert.equal((await call('GET', '/posts/count')).body, {count: 4})
    const rows = await app.orm.em.getKnex()('post').where({id: 5}).select('deleted_at')
    assert.is(rows.length, 1, 'soft delete keeps the row')
    assert.ok(rows[0].deleted_at)
  })

  test('a custom action with a before hook; hooks share the transaction of the action', async () => {
    const published = await call('POST', '/posts/2/publish')
    assert.is(published.status, 200)
    assert.is(published.body!.status, 'published')
    const again = await call('POST', '/posts/2/publish')
    assert.equal(again.body, {type: 'about:blank', title: 'Conflict', status: 409, detail: 'This post is already published'})
    assert.is((await call('POST', '/posts/999/publish')).status, 404)
    const before = (await call('GET', '/comments/count')).body!.count
    const spam = await call('POST', '/comments', {body: 'Buy now, cheap!', post: 1})
    assert.equal(spam.body, {type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: 'Comments that advertise are refused'})
    assert.is((await call('GET', '/comments/count')).body!.count, before, 'the after hook threw: the insert was rolled back')
    const slugged = await call('POST', '/posts', {title: 'Hello, Wörld!', author: 1})
    assert.is(slugged.body!.slug, 'hello-woerld', 'beforeCreate ran before the insert (ö transliterated as German writes it)')
  })

  test('middleware runs on every route', async () => {
    const response = await call('GET', '/tags', undefined, {'x-request-id': 'abc-123'})
    assert.is(response.headers['x-request-id'], 'abc-123')
    assert.match(String((await call('GET', '/nowhere/at/all')).status), '404')
  })

  test('deleting a user still referenced by restrict rules: cascade removes their posts', async () => {
    const created = await call('POST', '/users', {email: 'temp@example.com', name: 'Temp'})
    const post = await call('POST', '/posts', {title: 'Temporary', author: created.body!.id})
    assert.is((await call('DELETE', `/users/${created.body!.id}`)).status, 204)
    assert.is((await call('GET', `/posts/${post.body!.id}`)).status, 404)
  })

  return test
}

for (const database of await testDatabases()) crudSuite(database).run()
