/**
 * Envelopes (fixtures/envelope-app): request bodies read from `{"article": {…}}`, answers wrapped as an existing
 * client expects, the auth routes moved and enveloped, `PUT` as a partial update, and the same shapes in the
 * OpenAPI document and the catalogue.
 */
import {cpSync, readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {createTestApp} from '../runtime/testing.js'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'
import {temporaryProject} from './helpers/databases.js'

const project = path.join(root, 'fixtures/envelope-app')

test('bodies in and out of their envelopes, auth routes included', async () => {
  const app = await createTestApp({root: project})
  try {
    const registered = await app.inject({method: 'POST', url: '/users', payload: {user: {email: 'jake@jake.jake', username: 'jake', password: 'dragon tamer 9000'}}})
    assert.is(registered.statusCode, 201, registered.body)
    const user = registered.json().user
    assert.equal(Object.keys(user).sort(), ['email', 'id', 'token', 'username'])
    const auth = {authorization: `Token ${user.token}`}
    const me = await app.inject({method: 'GET', url: '/user', headers: auth})
    assert.equal(me.json(), {user: {id: user.id, email: 'jake@jake.jake', username: 'jake', token: user.token}})
    const bare = await app.inject({method: 'POST', url: '/articles', headers: auth, payload: {title: 'No envelope'}})
    assert.equal([bare.statusCode, bare.json().errors], [422, [{pointer: '/article', code: 'envelope', detail: '`article` is required: send {"article": {…}}'}]])
    const created = await app.inject({method: 'POST', url: '/articles', headers: auth, payload: {article: {title: 'How to train your dragon', body: 'Very carefully.'}}})
    assert.is(created.statusCode, 201, created.body)
    assert.equal(created.json(), {article: {id: 1, title: 'How to train your dragon', body: 'Very carefully.', author: user.id, favoritesCount: 0, favorited: false}})
    const updated = await app.inject({method: 'PUT', url: '/articles/1', headers: auth, payload: {article: {body: 'With treats.'}}})
    assert.equal(updated.json(), {article: {id: 1, title: 'How to train your dragon', body: 'With treats.', author: user.id, favoritesCount: 0, favorited: false}}, 'PUT with partial: true changes only what it sends')
    const listed = await app.inject({method: 'GET', url: '/articles'})
    assert.equal(listed.json(), {articles: [{id: 1, title: 'How to train your dragon', body: 'With treats.', author: user.id, favoritesCount: 0, favorited: false}], articlesCount: 1})
    // The count member is the total, even asked to skip it: never the page's length posing as one.
    assert.is((await app.inject({method: 'GET', url: '/articles?count=false&limit=1&offset=1'})).json().articlesCount, 1)
    assert.equal((await app.inject({method: 'GET', url: '/articles/count'})).json(), {count: 1}, 'envelope: false on a route')
    assert.is((await app.inject({method: 'DELETE', url: '/articles/1', headers: auth})).statusCode, 204)
  } finally {
    await app.close()
  }
})

test('computed fields: counts and the viewer\'s presence, in answers, fields, sort and filter, one query each', async () => {
  const app = await createTestApp({root: project})
  try {
    const tokens: string[] = []
    for (const name of ['ann', 'bob', 'cy']) {
      const answer = await app.inject({method: 'POST', url: '/users', payload: {user: {email: `${name}@example.com`, username: name, password: `correct horse ${tokens.length} staple`}}})
      tokens.push(answer.json().user.token)
    }
    const as = (index: number) => ({authorization: `Token ${tokens[index]}`})
    for (const title of ['one', 'two', 'three']) await app.inject({method: 'POST', url: '/articles', headers: as(0), payload: {article: {title}}})
    // Favorites as the app's own actions would store them: bob and cy like article 2, cy likes article 3.
    const knex = app.orm.em.getKnex()
    const [pivot] = Object.values(app.orm.getMetadata().find('article')!.properties).filter((property) => property.name === 'favoritedBy').map((property) => property.pivotTable)
    await knex(pivot).insert([{article_id: 2, user_id: 2}, {article_id: 2, user_id: 3}, {article_id: 3, user_id: 3}])
    const list = async (query: string, viewer?: number) => (await app.inject({method: 'GET', url: `/articles?${query}`, headers: viewer === undefined ? {} : as(viewer)})).json()
    const rows = (answer: {articles: Array<Record<string, unknown>>}) => answer.articles.map((row) => [row.title, row.favoritesCount, row.favorited])
    assert.equal(rows(await list('sort=id')), [['one', 0, false], ['two', 2, false], ['three', 1, false]], 'no viewer: never favorited')
    assert.equal(rows(await list('sort=id', 2)), [['one', 0, false], ['two', 2, true], ['three', 1, true]])
    assert.equal(rows(await list('sort=-favoritesCount,id', 1)).map(([title]) => title), ['two', 'three', 'one'])
    assert.equal(rows(await list('filter[favoritesCount][gte]=1&sort=id')).map(([title]) => title), ['two', 'three'])
    assert.equal(rows(await list('filter[favorited]=true&sort=id', 1)).map(([title]) => title), ['two'])
    assert.equal((await list('fields=title,favoritesCount&sort=id')).articles[1], {id: 2, title: 'two', favoritesCount: 2})
    const bad = await app.inject({method: 'GET', url: '/articles?filter[favorited]=maybe'})
    assert.equal([bad.statusCode, bad.json().errors[0].code], [400, 'invalid-value'])
  } finally {
    await app.close()
  }
})

test('pipe openapi and pipe map describe the envelopes', async () => {
  const out = path.join((await import('./helpers/databases.js')).temporaryProject('envelopes'), 'openapi.json')
  const written = await runPipe(['openapi', '--project', project, '--output', out])
  assert.is(written.code, 0, written.stderr)
  const document = JSON.parse((await import('node:fs')).readFileSync(out, 'utf8'))
  const create = document.paths['/articles'].post
  // Envelopes that several routes share are components, named after their member.
  const schema = (content: {'application/json': {schema: {$ref: string}}}) => content['application/json'].schema.$ref
  assert.is(schema(create.requestBody.content), '#/components/schemas/ArticleInputEnvelope')
  assert.is(schema(create.responses['201'].content), '#/components/schemas/ArticleEnvelope')
  assert.is(schema(document.paths['/articles'].get.responses['200'].content), '#/components/schemas/ArticlesEnvelope')
  assert.is(schema(document.paths['/articles/{id}'].get.responses['200'].content), '#/components/schemas/ArticleEnvelope')
  const {ArticleInputEnvelope, ArticleEnvelope, ArticlesEnvelope, ArticlePatchEnvelope} = document.components.schemas
  assert.equal(ArticleInputEnvelope, {type: 'object', properties: {article: {$ref: '#/components/schemas/ArticleInput'}}, required: ['article'], additionalProperties: false})
  assert.equal(ArticleEnvelope, {type: 'object', properties: {article: {$ref: '#/components/schemas/Article'}}, required: ['article']})
  assert.equal(ArticlesEnvelope, {
    type: 'object',
    properties: {articles: {type: 'array', items: {$ref: '#/components/schemas/Article'}}, articlesCount: {type: 'integer'}},
    required: ['articles', 'articlesCount']
  })
  assert.equal(ArticlePatchEnvelope.properties.article, {$ref: '#/components/schemas/ArticlePatch'})
  assert.is(schema(document.paths['/articles/{id}'].put.requestBody.content), '#/components/schemas/ArticlePatchEnvelope')
  const map = path.join(path.dirname(out), 'map')
  assert.is((await runPipe(['map', project, '--output', map])).code, 0)
  const catalogue = JSON.parse((await import('node:fs')).readFileSync(path.join(map, 'api.endpoints.json'), 'utf8'))
  const endpoints = Object.fromEntries(catalogue.endpoints.map((endpoint: {id: string; request?: string; response?: string}) => [endpoint.id, [endpoint.request, endpoint.response]]))
  assert.equal(endpoints['article.create'], ['ArticleInputEnvelope', 'ArticleEnvelope'])
  assert.equal(endpoints['article.list'], [undefined, 'ArticlesEnvelope'])
  assert.equal(catalogue.types.find((type: {name: string}) => type.name === 'ArticlesEnvelope').fields, [
    {name: 'articles', type: 'Article[]', required: true},
    {name: 'articlesCount', type: 'integer', required: true}
  ])
})

test('a deleted record\'s event carries its computed fields, as a read showed them', async () => {
  // The envelope app with `deleted` events on articles, and a broker nothing listens on: the outbox keeps the event.
  const dir = temporaryProject('envelope-events')
  cpSync(project, dir, {recursive: true})
  const articleFile = path.join(dir, 'src', 'entities', 'article.json')
  writeFileSync(articleFile, JSON.stringify({...JSON.parse(readFileSync(articleFile, 'utf8')), events: ['deleted']}))
  const configFile = path.join(dir, 'pipe.config.json')
  writeFileSync(configFile, JSON.stringify({...JSON.parse(readFileSync(configFile, 'utf8')), events: {url: 'nats://127.0.0.1:1'}}))
  const app = await createTestApp({root: dir})
  try {
    const user = (await app.inject({method: 'POST', url: '/users', payload: {user: {email: 'jake@jake.jake', username: 'jake', password: 'dragon tamer 9000'}}})).json().user
    const auth = {authorization: `Token ${user.token}`}
    const created = await app.inject({method: 'POST', url: '/articles', headers: auth, payload: {article: {title: 'Gone soon'}}})
    assert.is(created.statusCode, 201, created.body)
    assert.is((await app.inject({method: 'DELETE', url: `/articles/${created.json().article.id}`, headers: auth})).statusCode, 204)
    const rows = (await app.orm.em.fork().getConnection().execute('select type, payload from apipe_outbox')) as Array<{type: string; payload: string}>
    const event = JSON.parse(rows.find((row) => row.type === 'article.deleted')!.payload) as {data: Record<string, unknown>}
    assert.equal(event.data, {id: created.json().article.id, title: 'Gone soon', body: null, author: user.id, favoritesCount: 0, favorited: false})
  } finally {
    await app.close()
  }
})

test.run()
