/**
 * Routes nested under a parent by their `where` (`GET /clubs/{id}/memos` with `{"club": "params.id"}`): a list or a
 * count under a parent that is not there answers 404, as a create under it does; under one that is, an empty list.
 */
import {mkdirSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {createTestApp} from '../runtime/testing.js'
import {temporaryProject} from './helpers/databases.js'

function clubProject(): string {
  const dir = temporaryProject('nested')
  for (const folder of ['src/entities', 'src/controller']) mkdirSync(path.join(dir, folder), {recursive: true})
  const write = (file: string, value: object) => writeFileSync(path.join(dir, file), JSON.stringify(value))
  write('pipe.config.json', {database: {url: ':memory:'}})
  write('src/entities/club.json', {name: 'club', fields: {name: {type: 'string', required: true, unique: true}}})
  write('src/entities/memo.json', {name: 'memo', fields: {text: {type: 'string', required: true}}, relations: {club: {kind: 'many-to-one', entity: 'club', required: true}}})
  write('src/controller/club.json', {name: 'club', routes: {'POST /clubs': 'create'}})
  write('src/controller/memo.json', {
    name: 'memo',
    routes: {
      // By the parent's key, and by a unique field of it.
      'GET /clubs/{id}/memos': {action: 'list', where: {club: 'params.id'}},
      'GET /clubs/{id}/memos/count': {action: 'count', where: {club: 'params.id'}},
      'POST /clubs/{id}/memos': {action: 'create', where: {club: 'params.id'}},
      'GET /by-name/{name}/memos': {action: 'list', where: {'club.name': 'params.name'}}
    }
  })
  return dir
}

test('a list or a count under a parent that is not there is a 404; under one without records, empty', async () => {
  const app = await createTestApp({root: clubProject()})
  try {
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const response = await app.inject({method, url, payload})
      return {status: response.statusCode, type: response.headers['content-type'], body: response.json()}
    }
    assert.is((await call('POST', '/clubs', {name: 'chess'})).status, 201)
    // The club is there, without memos: an empty list, a count of 0.
    assert.equal((await call('GET', '/clubs/1/memos')).body, {data: [], meta: {page: 1, limit: 20, total: 0, pages: 0}})
    assert.equal((await call('GET', '/clubs/1/memos/count')).body, {count: 0})
    assert.equal((await call('GET', '/by-name/chess/memos')).body.data, [])
    // No club 7: each route says so, as the create does.
    for (const [method, url] of [['GET', '/clubs/7/memos'], ['GET', '/clubs/7/memos/count'], ['POST', '/clubs/7/memos'], ['GET', '/by-name/go/memos']] as const) {
      const answer = await call(method, url, method === 'POST' ? {text: 'x'} : undefined)
      assert.is(answer.status, 404, url)
      assert.is(answer.type, 'application/problem+json; charset=utf-8', url)
      assert.is(answer.body.detail, `No club \`${url.startsWith('/by-name') ? 'go' : '7'}\``, url)
    }
    // With records, the list is the club's; a filter that matches none under a club that is there is still empty.
    assert.is((await call('POST', '/clubs/1/memos', {text: 'Openings'})).status, 201)
    assert.equal((await call('GET', '/clubs/1/memos')).body.data.map((memo: {text: string}) => memo.text), ['Openings'])
    assert.equal((await call('GET', '/clubs/1/memos?filter[text]=Endgames')).body.data, [])
    assert.equal((await call('GET', '/clubs/1/memos/count')).body, {count: 1})
  } finally {
    await app.close()
  }
})

test.run()
