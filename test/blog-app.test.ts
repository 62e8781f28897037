/**
 * The acceptance app of the real-apps issue: examples/blog, a Medium-like backend (users who follow users, articles
 * by slug with tags and favorites, comments, a feed, optional auth on reads, envelopes) built from definitions only,
 * served by `pipe start` as a process and driven by a client that sends what real clients send: a JSON content
 * type on bodiless writes, the `Token` scheme, plain query parameters (`?tag=`, `?author=`, `?favorited=`).
 */
import {readFileSync, readdirSync, statSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {root} from './helpers/fixtures.js'
import {projectCopy, runPipe, servePipe} from './helpers/run-pipe.js'

const example = path.join(root, 'examples/blog')
const env = {JWT_SECRET: 'the-blog-acceptance-secret-long-enough-for-hs256'}
type Json = Record<string, any>

/** The app's own code: every file a user wrote (entities, controllers, hooks, error format), not the migrations. */
function appFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    return statSync(file).isDirectory() ? appFiles(file) : [file]
  })
}

/** A copy of the example with its migrations applied and `apipe-kit` linked to this checkout. */
const blogCopy = () => projectCopy(example, env)

/** The client: JSON content type on every request, bodiless or not, and `Authorization: Token <jwt>`. */
function client(base: string) {
  return async (method: string, url: string, options: {body?: unknown; token?: string} = {}) => {
    const headers: Record<string, string> = {'content-type': 'application/json', accept: 'application/json'}
    if (options.token) headers.authorization = `Token ${options.token}`
    const response = await fetch(base + url, {method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body)})
    const text = await response.text()
    return {status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Json) : undefined}
  }
}

test('the app is definitions and under 250 lines of its own, with no server file', () => {
  const files = appFiles(path.join(example, 'src'))
  const lines = files.reduce((sum, file) => sum + readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '').length, 0)
  assert.ok(lines < 250, `${lines} lines`)
  assert.equal(files.filter((file) => /server|app\.(ts|js)$/.test(file)), [])
})

test('a Medium-like client, against `pipe start` as a process', async () => {
  const dir = await blogCopy()
  const server = await servePipe('start', dir, env)
  const api = client(server.url)
  try {
    // Registration and login answer the user in its envelope with a token; a relation in the body is refused.
    const password = 'correct horse battery staple'
    const ada = await api('POST', '/users', {body: {user: {email: 'ada@example.com', username: 'ada', password}}})
    assert.is(ada.status, 201)
    assert.is(ada.body!.user.username, 'ada')
    assert.type(ada.body!.user.token, 'string')
    assert.not.ok('password' in ada.body!.user)
    assert.equal([ada.body!.user.bio, ada.body!.user.image], [null, null])
    const sneaky = await api('POST', '/users', {body: {user: {email: 'eve@example.com', username: 'eve', password, follows: [1]}}})
    assert.is(sneaky.status, 422)
    await api('POST', '/users', {body: {user: {email: 'bob@example.com', username: 'bob', password}}})
    const login = await api('POST', '/users/login', {body: {user: {email: 'bob@example.com', password}}})
    assert.is(login.status, 200)
    const bob = login.body!.user.token as string
    const adaToken = ada.body!.user.token as string
    const me = await api('GET', '/user', {token: adaToken})
    assert.is(me.body!.user.email, 'ada@example.com')
    const updated = await api('PUT', '/user', {token: adaToken, body: {user: {bio: 'I like to skateboard', image: 'https://example.com/ada.png'}}})
    assert.is(updated.status, 200)
    assert.is(updated.body!.user.bio, 'I like to skateboard')
    assert.is(updated.body!.user.email, 'ada@example.com')

    // An article: the slug from the title, tags as strings (new ones created), the author as a profile.
    const created = await api('POST', '/articles', {token: adaToken, body: {article: {title: 'How to train your dragon', description: 'Ever wonder how?', body: 'You have to believe', tagList: ['dragons', 'training']}}})
    assert.is(created.status, 201)
    const article = created.body!.article
    assert.match(article.slug, /^how-to-train-your-dragon-[a-z0-9]+$/)
    assert.is(created.headers.get('location'), `/articles/${article.slug}`)
    assert.equal(article.tagList, ['dragons', 'training'])
    assert.equal(article.author, {username: 'ada', bio: 'I like to skateboard', image: 'https://example.com/ada.png', following: false})
    assert.equal([article.favorited, article.favoritesCount], [false, 0])
    const slug = article.slug as string
    const second = await api('POST', '/articles', {token: bob, body: {article: {title: 'Привет мир', description: 'Hi', body: 'Text', tagList: ['dragons']}}})
    assert.match(second.body!.article.slug, /^privet-mir-/)
    const unauthenticated = await api('POST', '/articles', {body: {article: {title: 'x', description: 'x', body: 'x'}}})
    assert.is(unauthenticated.status, 401)
    const invalid = await api('POST', '/articles', {token: adaToken, body: {article: {title: 'Only a title'}}})
    assert.is(invalid.status, 422)
    assert.equal(invalid.body, {errors: {description: ['`description` is required'], body: ['`body` is required']}})

    // Reads by slug, with optional auth: anonymous, then as a reader.
    const read = await api('GET', `/articles/${slug}`)
    assert.is(read.status, 200)
    assert.is(read.body!.article.title, 'How to train your dragon')
    assert.is((await api('GET', '/articles/no-such-article')).status, 404)
    assert.is((await api('GET', `/articles/${slug}`, {token: 'not-a-token'})).status, 401)

    // Favorites: bodiless writes with a JSON content type; twice is once.
    const favorite = await api('POST', `/articles/${slug}/favorite`, {token: bob})
    assert.is(favorite.status, 200)
    assert.equal([favorite.body!.article.favorited, favorite.body!.article.favoritesCount], [true, 1])
    assert.is((await api('POST', `/articles/${slug}/favorite`, {token: bob})).body!.article.favoritesCount, 1)
    assert.is((await api('POST', `/articles/${slug}/favorite`)).status, 401)

    // Lists with plain parameters, newest first, with the total beside them.
    const all = await api('GET', '/articles', {token: bob})
    assert.equal(all.body!.articles.map((item: Json) => item.title), ['Привет мир', 'How to train your dragon'])
    assert.is(all.body!.articlesCount, 2)
    assert.equal(all.body!.articles[1].favorited, true)
    assert.equal((await api('GET', '/articles?tag=training')).body!.articles.map((item: Json) => item.slug), [slug])
    assert.equal((await api('GET', '/articles?author=bob')).body!.articlesCount, 1)
    assert.equal((await api('GET', '/articles?favorited=bob&limit=1&offset=0')).body!.articles.map((item: Json) => item.slug), [slug])
    assert.equal((await api('GET', '/articles?tag=nothing')).body, {articles: [], articlesCount: 0})

    // Profiles and follows; the feed shows the articles of the people one follows.
    assert.equal((await api('GET', '/profiles/ada', {token: bob})).body, {profile: {id: 1, username: 'ada', bio: 'I like to skateboard', image: 'https://example.com/ada.png', following: false}})
    assert.equal((await api('POST', '/profiles/ada/follow', {token: bob})).body!.profile.following, true)
    assert.is((await api('GET', '/profiles/nobody')).status, 404)
    const feed = await api('GET', '/articles/feed', {token: bob})
    assert.equal(feed.body!.articles.map((item: Json) => item.slug), [slug])
    assert.is(feed.body!.articles[0].author.following, true)
    assert.equal((await api('GET', '/articles/feed', {token: adaToken})).body, {articles: [], articlesCount: 0})
    assert.is((await api('GET', '/articles/feed')).status, 401)

    // Comments under their article: the article from the path, the author from the token.
    const comment = await api('POST', `/articles/${slug}/comments`, {token: bob, body: {comment: {body: 'Thank you so much!'}}})
    assert.is(comment.status, 201)
    assert.is(comment.body!.comment.author.username, 'bob')
    assert.is((await api('POST', '/articles/no-such-article/comments', {token: bob, body: {comment: {body: 'x'}}})).status, 404)
    // Listing under an article that is not there is a 404 too, not an empty list; an article without comments has none.
    const missing = await api('GET', '/articles/no-such-article/comments')
    assert.is(missing.status, 404)
    assert.equal(missing.body, {errors: {body: ['No article `no-such-article`']}})
    assert.equal((await api('GET', `/articles/${second.body!.article.slug}/comments`)).body, {comments: [], meta: {page: 1, limit: 100, total: 0, pages: 0}})
    assert.is((await api('POST', `/articles/${slug}/comments`, {token: bob, body: {comment: {body: 'x', article: 2}}})).status, 422)
    const comments = await api('GET', `/articles/${slug}/comments`)
    assert.equal(comments.body!.comments.map((item: Json) => [item.body, item.author.username]), [['Thank you so much!', 'bob']])
    const id = comment.body!.comment.id
    assert.is((await api('DELETE', `/articles/${slug}/comments/${id}`, {token: adaToken})).status, 404)
    assert.is((await api('DELETE', `/articles/${slug}/comments/${id}`, {token: bob})).status, 204)

    // Only the author changes or deletes an article; the others get 404, as for an article that is not there.
    assert.is((await api('PUT', `/articles/${slug}`, {token: bob, body: {article: {body: 'hacked'}}})).status, 404)
    const edited = await api('PUT', `/articles/${slug}`, {token: adaToken, body: {article: {body: 'With two hands', tagList: ['dragons']}}})
    assert.equal([edited.status, edited.body!.article.body, edited.body!.article.tagList, edited.body!.article.title], [200, 'With two hands', ['dragons'], 'How to train your dragon'])
    assert.equal((await api('GET', '/tags')).body!.tags.map((tag: Json) => tag.name), ['dragons', 'training'])
    const unfavorite = await api('DELETE', `/articles/${slug}/favorite`, {token: bob})
    assert.equal([unfavorite.body!.article.favorited, unfavorite.body!.article.favoritesCount], [false, 0])
    assert.is((await api('DELETE', '/profiles/ada/follow', {token: bob})).body!.profile.following, false)
    assert.is((await api('DELETE', `/articles/${slug}`, {token: bob})).status, 404)
    assert.is((await api('DELETE', `/articles/${slug}`, {token: adaToken})).status, 204)
    assert.is((await api('GET', `/articles/${slug}`)).status, 404)
  } finally {
    server.child.kill('SIGTERM')
    await server.exited
  }
})

test('pipe openapi and pipe map describe every route with its types and statuses', async () => {
  const dir = await blogCopy()
  const result = await runPipe(['openapi', '--project', dir, '--output', path.join(dir, 'openapi.json')], {env})
  assert.is(result.code, 0, result.stderr)
  const document = JSON.parse(readFileSync(path.join(dir, 'openapi.json'), 'utf8')) as Json
  const operations = Object.entries(document.paths as Json).flatMap(([url, methods]) => Object.entries(methods as Json).map(([method, operation]) => ({key: `${method.toUpperCase()} ${url}`, operation: operation as Json})))
  const byKey = Object.fromEntries(operations.map(({key, operation}) => [key, operation]))
  assert.is(operations.length, 19)
  const statuses = (key: string) => Object.keys(byKey[key].responses).map(Number)
  assert.ok(statuses('POST /articles').includes(201))
  assert.ok(statuses('DELETE /articles/{slug}').includes(204))
  assert.ok(statuses('POST /articles/{slug}/favorite').includes(200))
  // Answers many routes share are components (`ArticlesEnvelope`): read through the reference.
  const component = (schema: Json) => (schema.$ref ? document.components.schemas[String(schema.$ref).split('/').pop()!] : schema)
  const success = (key: string, status: number) => component(byKey[key].responses[status].content['application/json'].schema)
  assert.equal(success('GET /articles', 200).required, ['articles', 'articlesCount'])
  assert.equal(success('POST /articles/{slug}/favorite', 200).properties.article, {$ref: '#/components/schemas/Article'})
  assert.equal(Object.keys(success('GET /profiles/{username}', 200).properties.profile.properties), ['id', 'username', 'bio', 'image', 'following'])
  assert.equal(byKey['GET /articles'].parameters.slice(0, 3).map((parameter: Json) => parameter.name), ['tag', 'author', 'favorited'])
  // A comment is created under its article, which the path names: 404 when there is none (the server's answer above).
  assert.equal(statuses('POST /articles/{slug}/comments'), [201, 400, 401, 403, 404, 409, 413, 415, 422])
  assert.equal(statuses('GET /articles/{slug}/comments'), [200, 400, 401, 403, 404])
  assert.not.ok(statuses('POST /articles').includes(404))
  // A comment's body carries no `article`: the path gives it.
  const commentBody = byKey['POST /articles/{slug}/comments'].requestBody.content['application/json'].schema.properties.comment
  assert.equal(Object.keys(commentBody.properties), ['body'])
  const article = document.components.schemas.Article
  assert.equal(article.properties.tagList, {type: 'array', items: {type: 'string', maxLength: 60}})
  assert.equal(Object.keys(article.properties.author.oneOf[1].properties), ['username', 'bio', 'image', 'following'])
  // The project's own error body (src/errors.ts exports its schema) is what OpenAPI says errors are.
  assert.equal(byKey['POST /articles'].responses['422'].content, {'application/json': {schema: {$ref: '#/components/schemas/Problem'}}})
  assert.equal(document.components.schemas.Problem.required, ['errors'])
  assert.equal(byKey['POST /articles'].security.map((item: Json) => Object.keys(item)[0]), ['tokenAuth', 'bearerAuth'])

  const mapped = await runPipe(['map', dir, '--output', path.join(dir, 'docs')], {env})
  assert.is(mapped.code, 0, mapped.stderr)
  const catalogue = JSON.parse(readFileSync(path.join(dir, 'docs/api.endpoints.json'), 'utf8')) as Json
  const endpoints = catalogue.endpoints as Json[]
  assert.is(endpoints.length, 19)
  const endpoint = (key: string) => endpoints.find((item) => `${item.method} ${item.path}` === key)!
  // A body is what the server takes (no key, no timestamps), in its envelope; the answer the record in its own.
  assert.equal([endpoint('POST /articles').request, endpoint('POST /articles').response], ['ArticleInputEnvelope', 'ArticleEnvelope'])
  const type = (name: string) => (catalogue.types as Json[]).find((candidate) => candidate.name === name)!
  assert.equal(type('ArticleInputEnvelope').fields, [{name: 'article', type: 'ArticleInput', required: true}])
  // The same fields as the OpenAPI document's body schema, required alike.
  const input = document.components.schemas.ArticleInput
  assert.equal(type('ArticleInput').fields.map((field: Json) => [field.name, field.required]), Object.keys(input.properties).map((name) => [name, input.required.includes(name)]))
  assert.is(endpoint('GET /articles').response, 'ArticlesEnvelope')
  assert.is(endpoint('POST /profiles/{username}/follow').response, 'ProfileEnvelope')
  assert.ok(endpoint('DELETE /articles/{slug}/comments/{id}').status.includes(204))
  // The catalogue is the document imported: no change between the app's two maps, envelopes, optional auth and the
  // `Token` scheme included.
  const diff = await runPipe(['diff', path.join(dir, 'openapi.json'), path.join(dir, 'docs/api.endpoints.json')], {env})
  assert.equal(diff, {code: 0, stdout: '0 breaking, 0 non-breaking change(s)\n', stderr: ''})
  assert.equal([endpoint('GET /articles').auth, endpoint('GET /articles')['x-auth-alternatives']], ['none', ['api-key', 'bearer']])
  assert.equal(endpoint('POST /users/login').request, 'AuthLoginRequest')
  assert.is(endpoint('POST /users/login').response, 'AuthSession')
})

test.run()
