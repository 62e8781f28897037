/**
 * Instances that start at once on one PostgreSQL or MariaDB: two `pipe migrate` processes at the same moment apply
 * each migration once (the run holds a database lock), and both exit 0.
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
}

test.run()
