/**
 * One migrations folder for every database: migrations written by `pipe migrate create` on SQLite (a team's laptop)
 * migrate PostgreSQL and MariaDB (its servers) to the same tables and columns, renames keeping their data, and back
 * down. Each server that does not answer is skipped, saying so (CI starts both).
 */
import {cpSync, mkdirSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import type {EntityDefinition} from '../schemas/types/entity.js'
import {connect, dropTables, introspect, temporaryProject, testDatabases} from './helpers/databases.js'
import {runPipe} from './helpers/run-pipe.js'

const tables = ['book_tags', 'book', 'tag', 'writer', 'apipe_migrations']
const writer: EntityDefinition = {name: 'writer', fields: {name: {type: 'string', required: true}}}
const tag: EntityDefinition = {name: 'tag', fields: {label: {type: 'string', required: true, unique: true}}}
const book = (title: string, extra: Record<string, EntityDefinition['fields'][string]> = {}): EntityDefinition => ({
  name: 'book',
  fields: {[title]: {type: 'string', required: true, ...(title === 'title' ? {} : {renamedFrom: 'title'})}, ...extra},
  relations: {writer: {kind: 'many-to-one', entity: 'writer', required: true}, tags: {kind: 'many-to-many', entity: 'tag', writable: true}}
})

function writeEntities(root: string, entities: EntityDefinition[]) {
  mkdirSync(path.join(root, 'src/entities'), {recursive: true})
  for (const entity of entities) writeFileSync(path.join(root, 'src/entities', `${entity.name}.json`), JSON.stringify(entity, null, 2))
}

/** Columns of each table (indexes differ by design: PostgreSQL does not index foreign keys by itself). */
const columnsOf = (schema: Awaited<ReturnType<typeof introspect>>) => Object.fromEntries(Object.entries(schema).map(([table, {columns, indexes}]) => [table, {columns, unique: indexes.filter((index) => index.startsWith('unique'))}]))

test('migrations written on SQLite bring PostgreSQL and MariaDB to the same schema, renames keeping data', async () => {
  const authored = temporaryProject('portable-sqlite')
  const ok = async (root: string, ...args: string[]) => {
    const result = await runPipe(args, {cwd: root})
    assert.is(result.code, 0, `pipe ${args.join(' ')}: ${result.stderr}`)
    return result.stdout
  }
  writeFileSync(path.join(authored, 'pipe.config.json'), JSON.stringify({database: {url: './data/app.sqlite'}}))
  writeEntities(authored, [writer, tag, book('title')])
  await ok(authored, 'migrate', 'create', 'init')
  writeEntities(authored, [writer, tag, book('title', {pages: {type: 'integer'}})])
  await ok(authored, 'migrate', 'create', 'add pages')
  writeEntities(authored, [writer, tag, book('heading', {pages: {type: 'integer'}})])
  await ok(authored, 'migrate', 'create', 'rename title')
  await ok(authored, 'migrate')
  const sqlite = await connect({label: 'sqlite', type: 'sqlite', url: './data/app.sqlite'}, authored)
  const expected = columnsOf(await introspect(sqlite, tables))
  await sqlite.close(true)
  assert.equal(expected.book.columns, ['heading', 'id', 'pages?', 'writer_id'])

  const servers = (await testDatabases()).filter((database) => database.type !== 'sqlite')
  for (const server of servers) {
    const deployed = temporaryProject(`portable-${server.label}`)
    cpSync(path.join(authored, 'migrations'), path.join(deployed, 'migrations'), {recursive: true})
    writeFileSync(path.join(deployed, 'pipe.config.json'), JSON.stringify({database: {type: server.type, url: server.url}}))
    writeEntities(deployed, [writer, tag, book('title')])
    const orm = await connect(server, deployed)
    try {
      await dropTables(orm, tables)
      // The first migration only, with a row, so that the rename has data to keep.
      await ok(deployed, 'migrate')
      await ok(deployed, 'migrate', 'down')
      await ok(deployed, 'migrate', 'down')
      const knex = orm.em.getKnex()
      await knex('writer').insert({name: 'Ursula'})
      await knex('book').insert({title: 'The Dispossessed', writer_id: 1})
      await ok(deployed, 'migrate')
      assert.equal(columnsOf(await introspect(orm, tables)), expected, `${server.label} has the schema SQLite has`)
      assert.equal(await knex('book').select('heading'), [{heading: 'The Dispossessed'}], `${server.label}: the rename kept the title`)
    } finally {
      await dropTables(orm, tables)
      await orm.close(true)
    }
  }
  assert.ok(servers.length > 0 || process.env.APIPE_CI !== '1', 'CI runs this on PostgreSQL and MariaDB')
})

test.run()
