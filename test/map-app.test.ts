/**
 * The framework meets the catalogue: `pipe map <project dir>` and `pipe openapi` on the contract blog (fixtures/blog-app), and the same
 * OpenAPI document served at `/openapi.json`.
 */
import {readFileSync, rmSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {createTestApp} from '../runtime/testing.js'
import {loadValidator} from '../pipeline/schemas.js'
import type {Catalogue} from '../schemas/types/endpoints.js'
import type {Erd} from '../schemas/types/erd.js'
import {temporaryProject} from './helpers/databases.js'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'

const blog = path.join(root, 'fixtures/blog-app')

test('pipe map <project dir> writes a catalogue of the app that validates with zero findings', async () => {
  const out = temporaryProject('map')
  const result = await runPipe(['map', blog, '--output', out])
  assert.is(result.code, 0, result.stderr)
  assert.is(result.stdout, `Wrote ${path.join(out, 'api.endpoints.json')}\nWrote ${path.join(out, 'api.endpoints.html')}\nWrote ${path.join(out, 'api.erd.json')}\n`)
  const validated = await runPipe(['validate', path.join(out, 'api.endpoints.json')])
  assert.is(validated.stdout + validated.stderr, '0 error(s), 0 warning(s)\n')
  const spec = JSON.parse(readFileSync(path.join(out, 'api.endpoints.json'), 'utf8')) as Catalogue
  assert.equal(spec.groups!.map((group) => group.id), ['comment', 'post', 'tag', 'user'])
  assert.is(spec.endpoints.length, 29)
  const publish = spec.endpoints.find((endpoint) => endpoint.id === 'post.publish')!
  assert.equal(publish, {
    id: 'post.publish',
    method: 'POST',
    path: '/posts/{id}/publish',
    group: 'post',
    summary: 'Publish a draft',
    auth: 'none',
    status: [200, 400, 404, 422],
    params: [{name: 'id', in: 'path', type: 'string', required: true}],
    // Each status with its body, as the app's OpenAPI document describes it: errors are problem details.
    responses: [
      {status: 200, description: 'OK'},
      {status: 400, description: 'Malformed JSON or query', type: 'Problem'},
      {status: 404, description: 'Not found', type: 'Problem'},
      {status: 422, description: 'Validation failed; `errors` lists each field', type: 'Problem'}
    ],
    sources: [{file: 'src/controller/post.ts', line: 13}, {file: 'src/hooks/post/beforePublish.ts', line: 1}]
  })
  const create = spec.endpoints.find((endpoint) => endpoint.id === 'post.create')!
  // What the server takes (no key, no timestamps) and what it answers, as `pipe openapi` says them.
  assert.equal([create.request, create.response, create.entities, create.status], ['PostInput', 'Post', ['post'], [201, 400, 409, 413, 415, 422]])
  const type = (name: string) => spec.types!.find((candidate) => candidate.name === name)!
  assert.equal(type('PostInput').fields!.map((field) => field.name), ['title', 'slug', 'body', 'status', 'publishedAt', 'views', 'rating', 'author', 'tags'])
  assert.equal(type('PostPatch').fields!.filter((field) => field.required), [])
  assert.equal(spec.endpoints.find((endpoint) => endpoint.id === 'post.update')!.request, 'PostPatch')
  // The lists' `meta` and the counts' answers say the same for every model: one type each, named by what they are.
  assert.equal(type('PostListResponse').fields, [{name: 'data', type: 'Post[]', required: true}, {name: 'meta', type: 'ListResponseMeta', required: true}])
  assert.equal(type('CountResponse').fields, [{name: 'count', type: 'integer', required: true}])
  assert.equal(spec.endpoints.find((endpoint) => endpoint.id === 'post.count')!.responses, [{status: 200, description: 'OK', type: 'CountResponse'}, {status: 400, description: 'Malformed JSON or query', type: 'Problem'}])
  assert.is(spec.meta.version, '1.0.0')
  assert.equal(spec.endpoints.find((endpoint) => endpoint.id === 'user.list')!.sources, [{file: 'src/controller/user.json', line: 5}])
  assert.is(spec.endpoints.find((endpoint) => endpoint.id === 'post.list')!.response, 'PostListResponse')
  assert.is(spec.endpoints.find((endpoint) => endpoint.id === 'post.count')!.response, 'CountResponse')
  const post = spec.types!.find((type) => type.name === 'Post')!
  assert.equal(post.fields!.filter((field) => ['author', 'tags', 'comments', 'status'].includes(field.name)), [
    {name: 'status', type: 'string', enum: ['draft', 'published'], required: true},
    {name: 'author', type: 'PostAuthor', required: true},
    {name: 'tags', type: 'PostTagsItem[]', required: false},
    {name: 'comments', type: 'PostCommentsItem[]', required: false}
  ])
  // A relation is answered as its key, or as the record when populated: the document's `oneOf`, imported.
  assert.equal(type('PostAuthor'), {name: 'PostAuthor', kind: 'union', members: ['integer', 'User']})
  assert.not.ok(spec.types!.find((type) => type.name === 'User')!.fields!.some((field) => field.name === 'password'), 'hidden fields are not shown')
  const page = readFileSync(path.join(out, 'api.endpoints.html'), 'utf8')
  assert.ok(page.includes('Publish a draft'))
})

test('a pipe init project: its catalogue and its OpenAPI document describe the same API, change for change', async () => {
  const parent = temporaryProject('map-init')
  const dir = path.join(parent, 'my-api')
  assert.is((await runPipe(['init', dir])).code, 0)
  assert.is((await runPipe(['openapi', '--project', dir, '--output', path.join(dir, 'openapi.json')])).code, 0)
  assert.is((await runPipe(['map', dir, '--output', path.join(dir, 'docs'), '--quiet'])).code, 0)
  const diff = await runPipe(['diff', path.join(dir, 'openapi.json'), path.join(dir, 'docs', 'api.endpoints.json')])
  assert.equal(diff, {code: 0, stdout: '0 breaking, 0 non-breaking change(s)\n', stderr: ''})
})

test('the documents of a project carry its package.json version, so that a release is told apart from the last', async () => {
  const parent = temporaryProject('map-version')
  const dir = path.join(parent, 'versioned')
  assert.is((await runPipe(['init', dir])).code, 0)
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {version?: string}
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({...manifest, version: '2.3.0'}, null, 2))
  for (const command of ['openapi', 'asyncapi']) {
    assert.is((await runPipe([command, '--project', dir, '--output', path.join(dir, `${command}.json`)])).code, 0)
    const document = JSON.parse(readFileSync(path.join(dir, `${command}.json`), 'utf8')) as {info: {title: string; version: string}}
    assert.equal(document.info, {title: 'versioned', version: '2.3.0'}, command)
  }
  assert.is((await runPipe(['map', dir, '--output', path.join(dir, 'docs'), '--quiet'])).code, 0)
  const spec = JSON.parse(readFileSync(path.join(dir, 'docs', 'api.endpoints.json'), 'utf8')) as Catalogue
  assert.is(spec.meta.version, '2.3.0')
})

test('a project without routes maps to a catalogue without endpoints, not a refusal of its OpenAPI document', async () => {
  const parent = temporaryProject('map-no-routes')
  const dir = path.join(parent, 'entities-only')
  assert.is((await runPipe(['init', dir])).code, 0)
  rmSync(path.join(dir, 'src', 'controller'), {recursive: true})
  const mapped = await runPipe(['map', dir, '--output', path.join(dir, 'docs'), '--quiet'])
  assert.equal(mapped, {code: 0, stdout: '', stderr: ''})
  const spec = JSON.parse(readFileSync(path.join(dir, 'docs', 'api.endpoints.json'), 'utf8')) as Catalogue
  assert.equal([spec.endpoints, spec.meta.erd], [[], 'api.erd.json'])
})

test('pipe map <project dir> writes the ERD of the entities beside the catalogue, which names it, and the page shows its columns', async () => {
  const out = temporaryProject('map-erd')
  assert.is((await runPipe(['map', blog, '--output', out])).code, 0)
  const erd = JSON.parse(readFileSync(path.join(out, 'api.erd.json'), 'utf8')) as Erd
  assert.ok(loadValidator('erd')(erd), 'api.erd.json keeps schemas/erd.schema.json')
  assert.equal(erd.tables.map((table) => table.id), ['comment', 'post', 'tag', 'user'])
  const post = erd.tables.find((table) => table.id === 'post')!
  assert.equal(post.columns.find((column) => column.name === 'id'), {name: 'id', type: 'integer', primary: true})
  assert.equal(post.columns.find((column) => column.name === 'slug'), {name: 'slug', type: 'string', unique: true, nullable: true})
  assert.equal(post.columns.find((column) => column.name === 'author_id'), {name: 'author_id', type: 'integer', references: 'user'})
  assert.equal(post.columns.at(-1), {name: 'deleted_at', type: 'datetime', nullable: true})
  assert.equal(post.relations, [
    {to: 'user', kind: 'many-to-one', name: 'author', column: 'author_id'},
    {to: 'tag', kind: 'many-to-many', name: 'tags'},
    {to: 'comment', kind: 'one-to-many', name: 'comments'}
  ])
  const spec = JSON.parse(readFileSync(path.join(out, 'api.endpoints.json'), 'utf8')) as Catalogue
  assert.is(spec.meta.erd, 'api.erd.json')
  const page = readFileSync(path.join(out, 'api.endpoints.html'), 'utf8')
  assert.match(page, /<table class="columns" aria-label="Columns of post"><tr><th>id<td>integer<td><span class="key">PK<\/span>/)
})

test('pipe openapi writes the OpenAPI 3.1 document, which the server also serves at /openapi.json', async () => {
  const out = path.join(temporaryProject('openapi'), 'openapi.json')
  const result = await runPipe(['openapi', '--project', blog, '--output', out])
  assert.is(result.stdout, `Wrote ${out}\n`, result.stderr)
  const document = JSON.parse(readFileSync(out, 'utf8'))
  assert.is(document.openapi, '3.1.0')
  assert.equal(Object.keys(document.paths).sort(), ['/comments', '/comments/count', '/comments/{id}', '/posts', '/posts/count', '/posts/{id}', '/posts/{id}/publish', '/tags', '/tags/count', '/tags/{id}', '/users', '/users/count', '/users/{id}'])
  const create = document.paths['/posts'].post
  assert.equal(create.requestBody.content['application/json'].schema, {$ref: '#/components/schemas/PostInput'})
  assert.equal(Object.keys(create.responses), ['201', '400', '409', '413', '415', '422'])
  assert.equal(create.responses['422'].content, {'application/problem+json': {schema: {$ref: '#/components/schemas/Problem'}}})
  assert.equal(create.responses['201'].headers, {Location: {description: "The new record's address, as `/posts/{id}` reads it", schema: {type: 'string', format: 'uri-reference'}}})
  assert.is(document.paths['/posts/{id}'].patch.responses['200'].headers, undefined)
  assert.equal(document.components.schemas.PostInput.required, ['title', 'author'])
  const imported = await runPipe(['import', 'openapi', out, path.join(path.dirname(out), 'again.endpoints.json')])
  assert.is(imported.code, 0, imported.stderr)
  assert.match(imported.stdout, '(29 endpoints')
  // The app's two maps tell clients the same about bodies: the routes whose body is required.
  const mapped = temporaryProject('map-bodies')
  assert.is((await runPipe(['map', blog, '--output', mapped])).code, 0)
  const bodies = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as Catalogue).endpoints.filter((endpoint) => endpoint['x-request-required'] === true).map((endpoint) => `${endpoint.method} ${endpoint.path}`).sort()
  const required = bodies(path.join(path.dirname(out), 'again.endpoints.json'))
  assert.equal(bodies(path.join(mapped, 'api.endpoints.json')), required)
  assert.ok(required.includes('POST /posts') && required.includes('PATCH /posts/{id}'), required.join(', '))
  const app = await createTestApp({root: blog})
  try {
    const served = await app.inject({method: 'GET', url: '/openapi.json'})
    assert.is(served.statusCode, 200)
    assert.equal(served.json(), document)
    // What the server answers fits what the document says of it: a field not set is null, which the schema allows.
    const {default: Ajv2020} = await import('ajv/dist/2020.js')
    const ajv = new (Ajv2020 as unknown as typeof import('ajv').Ajv)({strict: false})
    ajv.addSchema({...document, $id: 'openapi.json'})
    assert.is((await app.inject({method: 'POST', url: '/users', payload: {email: 'ada@example.com', name: 'Ada'}})).statusCode, 201)
    const created = await app.inject({method: 'POST', url: '/posts', payload: {title: 'Notes', author: 1}})
    assert.is(created.headers.location, '/posts/1')
    const read = (await app.inject({method: 'GET', url: created.headers.location as string})).json() as Record<string, unknown>
    assert.equal([read.body, read.rating, read.publishedAt], [null, null, null])
    const check = ajv.getSchema('openapi.json#/components/schemas/Post')!
    assert.ok(check(read), JSON.stringify(check.errors))
  } finally {
    await app.close()
  }
})

test.run()
