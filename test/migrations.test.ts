/**
 * The migration scenario of issue #6, through the real `pipe migrate` commands, on SQLite and on each database
 * server that answers: three entities with relations and rows, then add a field, rename a field (data kept), add an
 * index, soft delete, down twice, up again; the introspected schema and the rows are compared at every step. Also:
 * destructive steps refused and named, `--dry-run`, and a failing migration that leaves the database as it was.
 */
import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {suite} from 'uvu'
import * as assert from 'uvu/assert'
import type {Orm} from '../runtime/database.js'
import type {EntityDefinition} from '../schemas/types/entity.js'
import {connect, dropTables, introspect as introspectTables, temporaryProject, testDatabases, type TestDatabase} from './helpers/databases.js'
import {runPipe} from './helpers/run-pipe.js'

const tables = ['post_tags', 'post', 'tag', 'author', 'apipe_migrations']
const introspect = (orm: Orm) => introspectTables(orm, tables)

/** Step 1: authors, posts (many-to-one author, many-to-many tags), tags. */
const author: EntityDefinition = {name: 'author', fields: {name: {type: 'string', required: true}, email: {type: 'email', unique: true}}}
const tag: EntityDefinition = {name: 'tag', fields: {label: {type: 'string', required: true, unique: true}}}
const post: EntityDefinition = {
  name: 'post',
  fields: {title: {type: 'string', required: true, length: 200}, body: {type: 'text'}},
  relations: {author: {kind: 'many-to-one', entity: 'author', required: true, onDelete: 'cascade'}, tags: {kind: 'many-to-many', entity: 'tag'}}
}

function writeEntities(root: string, entities: EntityDefinition[]) {
  mkdirSync(path.join(root, 'src/entities'), {recursive: true})
  for (const entity of entities) writeFileSync(path.join(root, 'src/entities', `${entity.name}.json`), JSON.stringify(entity, null, 2) + '\n')
}

async function rows(orm: Orm, table: string, columns: string[]): Promise<unknown[]> {
  const found = (await orm.em.getKnex()(table).select(columns).orderBy(columns[0])) as Array<Record<string, unknown>>
  return found.map((row) => columns.map((column) => row[column]))
}

/** `assert.match` that shows what it got. */
function matches(actual: string, expected: RegExp | string) {
  const found = typeof expected === 'string' ? actual.includes(expected) : expected.test(actual)
  assert.ok(found, `Expected ${String(expected)} in:\n${actual}`)
}

function scenario(database: TestDatabase) {
  const test = suite(`migrations on ${database.label}`)
  const root = temporaryProject(`migrate-${database.label}`)
  let orm: Orm
  const pipe = async (...args: string[]) => runPipe(args, {cwd: root})
  const ok = async (...args: string[]) => {
    const result = await pipe(...args)
    assert.is(result.code, 0, `pipe ${args.join(' ')}: ${result.stderr}`)
    return result.stdout
  }
  const postIndexes = (extra: string[] = []) => (database.type === 'postgresql' ? extra : ['author_id', ...extra]).sort()
  const pivotIndexes = database.type === 'postgresql' ? [] : ['post_id', 'tag_id']

  test.before(async () => {
    writeFileSync(path.join(root, 'pipe.config.json'), JSON.stringify({database: {type: database.type, url: database.url}}, null, 2))
    writeEntities(root, [author, tag, post])
    orm = await connect(database, root)
    await dropTables(orm, tables)
  })

  test.after(async () => {
    await dropTables(orm, tables)
    await orm.close(true)
  })

  test('create the schema from three entities with relations', async () => {
    const created = await ok('migrate', 'create', 'init')
    matches(created, /^Created migrations\/\d{14}_init\.js \(\d+ statement\(s\) up, \d+ down\)\n$/)
    matches(await ok('migrate', 'status'), /^pending {2}\d{14}_init\n0 applied, 1 pending\n$/)
    matches(await ok('migrate'), /^Applied \d{14}_init \(\d+ statement\(s\)\)\n$/)
    assert.equal(await introspect(orm), {
      author: {columns: ['email?', 'id', 'name'], indexes: ['unique email']},
      post: {columns: ['author_id', 'body?', 'id', 'title'], indexes: postIndexes()},
      post_tags: {columns: ['post_id', 'tag_id'], indexes: pivotIndexes},
      tag: {columns: ['id', 'label'], indexes: ['unique label']},
      apipe_migrations: {columns: ['applied_at', 'name'], indexes: []}
    })
    const knex = orm.em.getKnex()
    await knex('author').insert([{name: 'Ada', email: 'ada@example.com'}, {name: 'Grace', email: 'grace@example.com'}])
    await knex('tag').insert([{label: 'math'}, {label: 'navy'}])
    await knex('post').insert([{title: 'Notes', body: 'On the engine', author_id: 1}, {title: 'Compilers', author_id: 2}, {title: 'Bugs', author_id: 2}])
    await knex('post_tags').insert([{post_id: 1, tag_id: 1}, {post_id: 2, tag_id: 2}, {post_id: 3, tag_id: 2}])
    matches(await ok('migrate', 'create', 'again'), /^No changes: the definitions match the newest migration\n$/)
  })

  test('add a field', async () => {
    writeEntities(root, [{...post, fields: {...post.fields, views: {type: 'integer', required: true, default: 0}}}])
    await ok('migrate', 'create', 'add views')
    matches(await ok('migrate'), /^Applied \d{14}_add_views /)
    assert.equal((await introspect(orm)).post.columns, ['author_id', 'body?', 'id', 'title', 'views'])
    assert.equal(await rows(orm, 'post', ['id', 'title', 'views']), [[1, 'Notes', 0], [2, 'Compilers', 0], [3, 'Bugs', 0]])
  })

  test('rename a field keeps its data', async () => {
    const {title, ...rest} = post.fields
    writeEntities(root, [{...post, fields: {headline: {...title, renamedFrom: 'title'}, ...rest, views: {type: 'integer', required: true, default: 0}}}])
    await ok('migrate', 'create', 'rename title')
    await ok('migrate')
    assert.equal((await introspect(orm)).post.columns, ['author_id', 'body?', 'headline', 'id', 'views'])
    assert.equal(await rows(orm, 'post', ['id', 'headline']), [[1, 'Notes'], [2, 'Compilers'], [3, 'Bugs']])
  })

  const renamed = (): EntityDefinition => ({
    ...post,
    fields: {headline: {type: 'string', required: true, length: 200}, body: {type: 'text'}, views: {type: 'integer', required: true, default: 0}}
  })

  test('add an index', async () => {
    writeEntities(root, [{...renamed(), indexes: [{fields: ['headline', 'views']}]}])
    await ok('migrate', 'create', 'index headline views')
    await ok('migrate')
    assert.equal((await introspect(orm)).post.indexes, postIndexes(['headline+views']))
  })

  test('soft delete', async () => {
    writeEntities(root, [{...renamed(), indexes: [{fields: ['headline', 'views']}], softDelete: true}])
    await ok('migrate', 'create', 'soft delete')
    await ok('migrate')
    const post = (await introspect(orm)).post
    assert.equal(post.columns, ['author_id', 'body?', 'deleted_at?', 'headline', 'id', 'views'])
    assert.equal(post.indexes, postIndexes(['deleted_at', 'headline+views']))
    assert.equal(await rows(orm, 'post', ['id', 'headline', 'deleted_at']), [[1, 'Notes', null], [2, 'Compilers', null], [3, 'Bugs', null]])
  })

  test('migrate down twice, then up again', async () => {
    matches(await ok('migrate', 'down'), /^Reverted \d{14}_soft_delete \(\d+ statement\(s\)\)\n$/)
    matches(await ok('migrate', 'down'), /^Reverted \d{14}_index_headline_views /)
    const down = await introspect(orm)
    assert.equal(down.post, {columns: ['author_id', 'body?', 'headline', 'id', 'views'], indexes: postIndexes()})
    assert.equal(await rows(orm, 'post', ['id', 'headline', 'views']), [[1, 'Notes', 0], [2, 'Compilers', 0], [3, 'Bugs', 0]])
    const status = await ok('migrate', 'status')
    matches(status, /pending {2}\d{14}_index_headline_views\npending {2}\d{14}_soft_delete\n3 applied, 2 pending\n$/)
    const up = await ok('migrate')
    matches(up, /^Applied \d{14}_index_headline_views \(\d+ statement\(s\)\)\nApplied \d{14}_soft_delete /)
    assert.equal((await introspect(orm)).post.indexes, postIndexes(['deleted_at', 'headline+views']))
    assert.equal(await rows(orm, 'post_tags', ['post_id', 'tag_id']), [[1, 1], [2, 2], [3, 2]])
    assert.equal(await rows(orm, 'author', ['id', 'name']), [[1, 'Ada'], [2, 'Grace']])
  })

  test('destructive steps are refused and named, unless --allow-destructive', async () => {
    const {body: _, ...fields} = renamed().fields
    writeEntities(root, [{...renamed(), fields: {...fields, status: {type: 'string', required: true}}, indexes: [{fields: ['headline', 'views']}], softDelete: true}])
    const refused = await pipe('migrate', 'create', 'drop body')
    assert.is(refused.code, 1)
    matches(refused.stderr, /^src\/entities\/post\.json\n3:3 +error Destructive step: drop column `post\.body` and its values; pass --allow-destructive to write it anyway +destructive-migration apipe\n/)
    matches(refused.stderr, /\n14:5 +error Destructive step: add required column `post\.status` without a default \(existing rows have no value\)/)
    assert.is(readdirSync(path.join(root, 'migrations')).filter((name) => name.includes('drop_body')).length, 0)
    const dryRunResult = await pipe('migrate', 'create', 'drop body', '--allow-destructive', '--dry-run')
    assert.is(dryRunResult.code, 0, dryRunResult.stderr)
    matches(dryRunResult.stderr, /warning Destructive step: drop column `post\.body` and its values \(allowed by --allow-destructive\) +destructive-migration/)
    const dryRun = dryRunResult.stdout
    matches(dryRun, /-- \d{14}_drop_body up\n/)
    matches(dryRun, /drop column/)
    assert.is(readdirSync(path.join(root, 'migrations')).filter((name) => name.includes('drop_body')).length, 0)
    writeEntities(root, [{...renamed(), indexes: [{fields: ['headline', 'views']}], softDelete: true}])
  })

  test('--dry-run prints the SQL and changes nothing', async () => {
    writeEntities(root, [{...renamed(), fields: {...renamed().fields, slug: {type: 'string'}}, indexes: [{fields: ['headline', 'views']}], softDelete: true}])
    await ok('migrate', 'create', 'add slug')
    const printed = await ok('migrate', '--dry-run')
    matches(printed, /^-- \d{14}_add_slug\n.*add.*slug/s)
    assert.not.ok((await introspect(orm)).post.columns.includes('slug?'))
    await ok('migrate')
    assert.ok((await introspect(orm)).post.columns.includes('slug?'))
  })

  const current = (): EntityDefinition => ({...renamed(), fields: {...renamed().fields, slug: {type: 'string'}}, indexes: [{fields: ['headline', 'views']}], softDelete: true})

  test('a changed onDelete: an ALTER on servers, the table rebuilt on SQLite (its keys live inside it), rows kept', async () => {
    writeEntities(root, [{...current(), relations: {...post.relations, author: {...post.relations!.author, onDelete: 'restrict'}}}])
    await ok('migrate', 'create', 'restrict authors')
    await ok('migrate')
    assert.equal(await rows(orm, 'post', ['id', 'headline', 'author_id']), [[1, 'Notes', 1], [2, 'Compilers', 2], [3, 'Bugs', 2]])
    assert.equal((await introspect(orm)).post.indexes, postIndexes(['deleted_at', 'headline+views']))
    // The rebuilt table is still the one the tags' join table refers to.
    assert.equal(await rows(orm, 'post_tags', ['post_id', 'tag_id']), [[1, 1], [2, 2], [3, 2]])
    writeEntities(root, [current()])
    await ok('migrate', 'create', 'cascade authors')
    await ok('migrate')
  })

  test('a field made required with a default: empty values take it, on every database (SQLite rebuilds the table)', async () => {
    writeEntities(root, [{...current(), fields: {...current().fields, body: {type: 'text', required: true, default: 'none'}}}])
    matches(await ok('migrate', 'create', 'body required'), /^Created migrations\/\d{14}_body_required\.js /)
    await ok('migrate')
    assert.equal(await rows(orm, 'post', ['id', 'body']), [[1, 'On the engine'], [2, 'none'], [3, 'none']])
    assert.equal((await introspect(orm)).post.columns, ['author_id', 'body', 'deleted_at?', 'headline', 'id', 'slug?', 'views'])
    matches(await ok('migrate', 'down'), /^Reverted \d{14}_body_required /)
    assert.equal((await introspect(orm)).post.columns, ['author_id', 'body?', 'deleted_at?', 'headline', 'id', 'slug?', 'views'])
    assert.equal(await rows(orm, 'post', ['id', 'headline']), [[1, 'Notes'], [2, 'Compilers'], [3, 'Bugs']])
    matches(await ok('migrate'), /^Applied \d{14}_body_required /)
    matches(await ok('migrate', 'create', 'again'), /^No changes/)
  })

  test('a string widened: a migration on every database, though SQLite keeps no length (one folder serves all)', async () => {
    const required = current().fields
    writeEntities(root, [{...current(), fields: {...required, headline: {...required.headline, length: 300}, body: {type: 'text', required: true, default: 'none'}}}])
    const pending = await pipe('run', '--preset', 'backend', 'pipe.config.json')
    if (database.type === 'sqlite') matches(pending.stderr, 'The definitions changed since the last migration (none here, 1 statement(s) on postgresql)')
    else matches(pending.stderr, /The definitions changed since the last migration \(1 statement\(s\)\)/)
    const created = await ok('migrate', 'create', 'widen headline')
    if (database.type === 'sqlite') matches(created, /^Created migrations\/\d{14}_widen_headline\.js \(0 statement\(s\) up, 0 down; nothing on sqlite, 1 on postgresql\)\n$/)
    else matches(created, /^Created migrations\/\d{14}_widen_headline\.js \(1 statement\(s\) up, 1 down\)\n$/)
    matches(await ok('migrate'), /^Applied \d{14}_widen_headline /)
    matches(await ok('migrate', 'create', 'again'), /^No changes/)
  })

  test('a failed migration leaves the database as it was and names the statement', async () => {
    const before = await introspect(orm)
    const file = path.join(root, 'migrations', '29991231235959_broken.js')
    const quote = database.type === 'postgresql' ? '"' : '`'
    writeFileSync(
      file,
      [
        `export const up = ['alter table ${quote}post${quote} add column ${quote}extra${quote} integer null;', 'select * from no_such_table;']`,
        `export const down = ['alter table ${quote}post${quote} drop column ${quote}extra${quote};']`,
        ''
      ].join('\n')
    )
    const failed = await pipe('migrate')
    assert.is(failed.code, 1)
    matches(failed.stderr, /^pipe migrate: Migration 29991231235959_broken failed at statement 2 \(select \* from no_such_table;\): /)
    assert.equal(await introspect(orm), before)
    matches(await ok('migrate', 'status'), /pending {2}29991231235959_broken\n/)
    assert.ok(readFileSync(file, 'utf8').length > 0)
  })

  return test
}

for (const database of await testDatabases()) scenario(database).run()

const modules = suite('migrations outside an ES module package')

modules('a CommonJS package gets `.mjs` migrations, which migrate; a `.js` one written as an ES module says how to fix it', async () => {
  const root = temporaryProject('migrate-commonjs')
  writeFileSync(path.join(root, 'package.json'), '{"name": "notes", "type": "commonjs"}\n')
  writeFileSync(path.join(root, 'pipe.config.json'), JSON.stringify({database: {type: 'sqlite', url: './data/notes.sqlite'}}))
  writeEntities(root, [{name: 'note', fields: {text: {type: 'string'}}}])
  const pipe = (...args: string[]) => runPipe(args, {cwd: root})
  const created = await pipe('migrate', 'create', 'init')
  matches(created.stdout, /^Created migrations\/\d{14}_init\.mjs \(/)
  const applied = await pipe('migrate')
  assert.is(applied.code, 0, applied.stderr)
  matches(applied.stdout, /^Applied \d{14}_init /)
  // Written before the package said `commonjs`, or copied out of an ES module package.
  const [name] = readdirSync(path.join(root, 'migrations'))
  writeFileSync(path.join(root, 'migrations', '29991231235959_copied.js'), readFileSync(path.join(root, 'migrations', name), 'utf8'))
  const refused = await pipe('migrate')
  assert.is(refused.code, 1)
  matches(refused.stderr, "Node reads `.js` here as CommonJS (the nearest package.json does not say `\"type\": \"module\"`); rename it to `.mjs` or add `\"type\": \"module\"`")
})

modules.run()
