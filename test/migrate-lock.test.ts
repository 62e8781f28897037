/**
 * Instances that start at once on one PostgreSQL or MariaDB: two `pipe migrate` processes at the same moment apply
 * each migration once (the run holds a database lock), and both exit 0. A database that does not exist is never made.
 */
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {connect, dropTables, testDatabases} from './helpers/databases.js'
import {root} from './helpers/fixtures.js'
import {projectCopy, runPipe} from './helpers/run-pipe.js'

const tables = ['book', 'note', 'apipe_outbox', 'apipe_migrations']
const project = await projectCopy(path.join(root, 'fixtures/events-app'))

for (const database of (await testDatabases()).filter((item) => item.type !== 'sqlite')) {
  test(`${database.label}: two pipe migrate at once apply the migration once`, async () => {
    const orm = await connect(database, project)
    try {
      await dropTables(orm, tables)
      const env = {DATABASE_URL: database.url}
      const runs = await Promise.all([runPipe(['migrate', '--project', project], {env}), runPipe(['migrate', '--project', project], {env})])
      assert.equal(runs.map((run) => run.code), [0, 0], runs.map((run) => run.stderr).join('\n'))
      const said = runs.map((run) => run.stdout.trim().replace(/\d{14}/, '<time>').replace(/\(\d+ statement\(s\)\)/, '(…)')).sort()
      assert.equal(said, ['Applied <time>_init (…)', 'Nothing to migrate: the database is up to date'])
      const applied = (await orm.em.getKnex()('apipe_migrations').count('* as n')) as Array<{n: unknown}>
      assert.is(Number(applied[0].n), 1)
    } finally {
      await dropTables(orm, tables)
      await orm.close(true)
    }
  })

  test(`${database.label}: a database the URL names that does not exist is an error saying how to create it, and is not created`, async () => {
    const name = `apipe_missing_${process.pid}`
    const url = database.url.replace(/\/[^/]*$/, `/${name}`)
    for (const command of [['migrate'], ['migrate', 'status']]) {
      const run = await runPipe([...command, '--project', project], {env: {DATABASE_URL: url}})
      assert.is(run.code, 1, run.stdout)
      assert.match(run.stderr, database.type === 'postgresql' ? `database "${name}" does not exist; create it first (\`createdb ${name}\`` : `Unknown database '${name}'; create it first`)
    }
    const orm = await connect(database, project)
    try {
      const listed = database.type === 'postgresql' ? (await orm.em.getKnex().raw('select datname from pg_database where datname = ?', [name])).rows : (await orm.em.getKnex().raw('show databases like ?', [name]))[0]
      assert.equal(listed, [], 'not created')
    } finally {
      await orm.close(true)
    }
  })
}

test.run()
