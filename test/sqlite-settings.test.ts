/**
 * How apipe opens a SQLite file (runtime/database.ts): WAL with `synchronous = NORMAL` by default, `FULL` when
 * `database.synchronous` says so, and a busy timeout.
 */
import {writeFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {resolveConfig} from '../runtime/config.js'
import {openDatabase} from '../runtime/database.js'
import {temporaryProject} from './helpers/databases.js'

async function pragmas(synchronous?: string) {
  const root = temporaryProject('sqlite-settings')
  const config = resolveConfig({database: {url: './data/app.sqlite', ...(synchronous ? {synchronous} : {})}}, root)
  const orm = await openDatabase(config, [])
  try {
    const connection = orm.em.getConnection()
    const read = async (name: string) => Object.values((await connection.execute(`pragma ${name}`, [], 'get')) as object)[0]
    return {journal: await read('journal_mode'), synchronous: await read('synchronous'), busy: await read('busy_timeout')}
  } finally {
    await orm.close(true)
  }
}

test('a database path through a file is said so, not as mkdir\'s EEXIST', async () => {
  const root = temporaryProject('sqlite-under-file')
  writeFileSync(path.join(root, 'README.md'), '')
  try {
    await openDatabase(resolveConfig({database: {url: './README.md/app.sqlite'}}, root), [])
    assert.unreachable()
  } catch (error) {
    // The database named as described from the working folder; the file in the way in full.
    assert.match((error as Error).message, /^Cannot use the sqlite database \S*README\.md\/app\.sqlite: /)
    assert.ok((error as Error).message.endsWith(`: \`${path.join(root, 'README.md')}\` is a file, not a folder for the database file`))
  }
})

test('a SQLite file is opened in WAL mode with synchronous NORMAL and a busy timeout', async () => {
  assert.equal(await pragmas(), {journal: 'wal', synchronous: 1, busy: 5000})
})

test('`database.synchronous: "full"` makes every commit wait for the disk', async () => {
  const {journal, synchronous} = await pragmas('FULL')
  assert.equal([journal, synchronous], ['wal', 2])
})

test('any other `database.synchronous` is refused, never silently taken as normal', async () => {
  try {
    await pragmas('off')
    assert.unreachable('opened')
  } catch (error) {
    assert.match((error as Error).message, '`database.synchronous` is `off`; expected `normal` or `full`')
  }
})

test.run()
