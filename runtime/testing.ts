/**
 * `createTestApp()`: the project's app on a throw-away database, for tests with `app.inject` (no port). The
 * database is a private in-memory SQLite unless `APIPE_TEST_DATABASE_URL` (with `APIPE_TEST_DATABASE_TYPE`) names
 * another; its schema comes from the project's migrations when they were written for that database type, else
 * straight from the definitions, and it starts empty either way.
 */
import path from 'node:path'
import type {FastifyInstance} from 'fastify'
import {createApp} from './server/index.js'
import {databaseTypeOfUrl, type DatabaseType} from './config.js'
import {openDatabase} from './database.js'
import {listMigrationFiles, loadMigration} from './migrations/files.js'
import {MigrationRunner} from './migrations/runner.js'
import {ApipeError} from '../pipeline/errors.js'
import {migrationGap} from './migrations/check.js'
import {loadProject} from './project.js'

export interface TestAppOptions {
  /** The project folder (default: the working directory, as `pipe test` runs). */
  root?: string
  /** The database (default: `APIPE_TEST_DATABASE_TYPE`/`APIPE_TEST_DATABASE_URL`, else in-memory SQLite). */
  database?: {type: DatabaseType; url: string}
  /** Prepared-statement reads on a SQLite file (default: true), as `createApp`'s option. */
  fastReads?: boolean
  /** Prepared-statement creates on a SQLite file (default: true), as `createApp`'s option. */
  fastWrites?: boolean
}

/** The app of the project on a fresh database; `await app.close()` drops it. */
export async function createTestApp(options: TestAppOptions = {}): Promise<FastifyInstance> {
  const project = await loadProject(path.resolve(options.root ?? process.cwd()))
  const database = options.database ?? testDatabase(process.env)
  const type = database.type
  const orm = await openDatabase({...project.config, database}, project.entities)
  const directory = path.join(project.root, project.config.migrations)
  const files = listMigrationFiles(directory)
  const same = (other?: DatabaseType) => (other === 'mariadb' ? 'mysql' : other) === (type === 'mariadb' ? 'mysql' : type)
  const migrations = await Promise.all(files.map((file) => loadMigration(file)))
  // Tests run on the migrations' schema: definitions ahead of them would fail as 500s, so say what is missing.
  const gap = migrations.length > 0 ? await migrationGap(project) : undefined
  if (gap) {
    await orm.close(true)
    throw new ApipeError('APIPE_ERR_CONFIG', [gap])
  }
  if (migrations.length > 0 && migrations.every((migration) => !migration.database || same(migration.database))) {
    await new MigrationRunner(orm, type, directory).up()
    // A database that outlives the test (a server's, a file) starts empty, as the in-memory one does: the rows of
    // the last run would be duplicates of this one's (`… is already taken`).
    if (!(type === 'sqlite' && database.url === ':memory:')) await orm.schema.clearDatabase()
  } else {
    await orm.schema.refreshDatabase()
  }
  const app = await createApp({...project, config: {...project.config, database}}, {orm, fastReads: options.fastReads, fastWrites: options.fastWrites})
  app.addHook('onClose', async () => orm.close(true))
  return app
}

/**
 * The database of the tests from the environment: `APIPE_TEST_DATABASE_URL`, of `APIPE_TEST_DATABASE_TYPE` or else of
 * the type its scheme says (`postgresql://…`, as `database.url` says it in `pipe.config.json`); else in-memory SQLite.
 */
export function testDatabase(environment: NodeJS.ProcessEnv): {type: DatabaseType; url: string} {
  const url = environment.APIPE_TEST_DATABASE_URL || ':memory:'
  const type = (environment.APIPE_TEST_DATABASE_TYPE as DatabaseType | undefined) || databaseTypeOfUrl(url) || 'sqlite'
  return {type, url}
}
