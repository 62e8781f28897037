/**
 * Applying and reverting migrations. The table `apipe_migrations` records what ran. Each migration runs in its own
 * transaction together with its record, so a failure leaves the database as it was and names the statement:
 * - SQLite and PostgreSQL roll schema changes back with the transaction (on SQLite foreign keys are checked at the
 *   end instead of during the table rebuilds some changes need, as SQLite's documentation prescribes);
 * - MySQL and MariaDB commit each schema statement at once, so after a failure the migration's `down` statements are
 *   run to undo what had run (statements that find nothing to undo are skipped), and the message says so.
 */
import type {Knex} from '@mikro-orm/knex'
import {ApipeError} from '../../pipeline/errors.js'
import type {DatabaseType} from '../config.js'
import {reasonOf, type Orm} from '../database.js'
import {planMigration} from './plan.js'
import {listMigrationFiles, loadMigration, type Migration, type MigrationSteps} from './files.js'

export const migrationsTable = 'apipe_migrations'

/** Where each migration stands. */
export interface MigrationStatus {
  applied: Array<{name: string; appliedAt: string}>
  pending: string[]
  /** Applied migrations whose file is gone. */
  missing: string[]
}

/** What a run did or, with `dryRun`, would do. */
export interface MigrationRun {
  name: string
  statements: string[]
}

export class MigrationRunner {
  readonly #orm: Orm
  readonly #type: DatabaseType
  readonly #directory: string

  constructor(orm: Orm, type: DatabaseType, directory: string) {
    this.#orm = orm
    this.#type = type
    this.#directory = directory
  }

  get #knex(): Knex {
    return this.#orm.em.getKnex()
  }

  async #ensureTable(): Promise<void> {
    await this.#knex.raw(`create table if not exists ${this.#quote(migrationsTable)} (${this.#quote('name')} varchar(255) not null primary key, ${this.#quote('applied_at')} varchar(32) not null)`)
  }

  #quote(name: string): string {
    return this.#orm.em.getPlatform().quoteIdentifier(name)
  }

  /** Applied, pending and missing migrations. */
  async status(): Promise<MigrationStatus> {
    await this.#ensureTable()
    const rows = (await this.#knex(migrationsTable).select('name', 'applied_at').orderBy('name')) as Array<{name: string; applied_at: string}>
    const files = listMigrationFiles(this.#directory).map((file) => nameOf(file))
    const applied = rows.map((row) => ({name: row.name, appliedAt: row.applied_at}))
    const done = new Set(applied.map((row) => row.name))
    return {applied, pending: files.filter((name) => !done.has(name)), missing: applied.map((row) => row.name).filter((name) => !files.includes(name))}
  }

  /**
   * Apply every pending migration, oldest first; stops at the first failure (the ones before it stay applied). On
   * PostgreSQL and MariaDB/MySQL the run holds a database lock, so that instances starting at once take turns: the
   * second finds nothing pending.
   */
  async up(options: {dryRun?: boolean} = {}): Promise<MigrationRun[]> {
    return options.dryRun ? this.#up(options) : this.#locked(() => this.#up(options))
  }

  async #up(options: {dryRun?: boolean}): Promise<MigrationRun[]> {
    const {pending} = await this.status()
    const runs: MigrationRun[] = []
    for (const name of pending) {
      const migration = await this.#load(name)
      runs.push(options.dryRun ? {name, statements: describe(migration.up)} : await this.#run(migration, 'up'))
    }
    return runs
  }

  /** Revert the newest applied migration (none: resolves to `undefined`). */
  async down(options: {dryRun?: boolean} = {}): Promise<MigrationRun | undefined> {
    return options.dryRun ? this.#down(options) : this.#locked(() => this.#down(options))
  }

  async #down(options: {dryRun?: boolean}): Promise<MigrationRun | undefined> {
    const {applied, missing} = await this.status()
    const last = applied.at(-1)
    if (!last) return undefined
    if (missing.includes(last.name)) throw new ApipeError('APIPE_ERR_MIGRATION_FILE', [last.name, `the file is missing from ${this.#directory}, so its \`down\` is unknown`])
    const migration = await this.#load(last.name)
    return options.dryRun ? {name: last.name, statements: describe(migration.down)} : this.#run(migration, 'down')
  }

  /**
   * Run `work` holding the migration lock: a session lock on one connection kept for the whole run (PostgreSQL's
   * advisory lock, MariaDB's `get_lock`, waiting up to 10 minutes). SQLite needs none beyond its own file lock.
   */
  async #locked<T>(work: () => Promise<T>): Promise<T> {
    const lock = {
      postgresql: ['select pg_advisory_lock(72270602)', 'select pg_advisory_unlock(72270602)'],
      mysql: ["select get_lock('apipe_migrations', 600)", "select release_lock('apipe_migrations')"],
      mariadb: ["select get_lock('apipe_migrations', 600)", "select release_lock('apipe_migrations')"]
    }[this.#type as 'postgresql']
    if (!lock) return work()
    const client = (this.#knex as unknown as {client: {acquireConnection(): Promise<unknown>; releaseConnection(connection: unknown): Promise<void>}}).client
    const connection = await client.acquireConnection()
    try {
      await this.#knex.raw(lock[0]).connection(connection)
      try {
        return await work()
      } finally {
        await this.#knex.raw(lock[1]).connection(connection)
      }
    } finally {
      await client.releaseConnection(connection)
    }
  }

  /**
   * A migration with its steps for this database: its own `up`/`down`, or, for a portable one, the planner's
   * statements from the previous migration's snapshot to its own.
   */
  async #load(name: string): Promise<Migration & {up: MigrationSteps; down: MigrationSteps}> {
    const migration = await loadMigration(this.#fileOf(name))
    this.#checkDatabase(migration)
    if (migration.up !== undefined && migration.down !== undefined) return migration as Migration & {up: MigrationSteps; down: MigrationSteps}
    const files = listMigrationFiles(this.#directory)
    const before = files[files.findIndex((file) => nameOf(file) === name) - 1]
    const previous = before ? ((await loadMigration(before)).snapshot?.entities ?? []) : []
    const plan = await planMigration(this.#type, previous, migration.snapshot!.entities)
    return {...migration, up: plan.up, down: plan.down}
  }

  #fileOf(name: string): string {
    return listMigrationFiles(this.#directory).find((file) => nameOf(file) === name)!
  }

  #checkDatabase(migration: Migration): void {
    const same = (type?: DatabaseType) => (type === 'mariadb' ? 'mysql' : type)
    if (migration.database && same(migration.database) !== same(this.#type)) {
      throw new ApipeError('APIPE_ERR_MIGRATION_FILE', [migration.name, `it was written for ${migration.database}, and this project's database is ${this.#type}`])
    }
  }

  async #run(migration: Migration & {up: MigrationSteps; down: MigrationSteps}, direction: 'up' | 'down'): Promise<MigrationRun> {
    const sqlite = this.#type === 'sqlite'
    const executed: string[] = []
    let current: {index: number; sql: string} | undefined
    if (sqlite) await this.#knex.raw('pragma foreign_keys = off')
    try {
      await this.#knex.transaction(async (trx) => {
        const execute = async (sql: string, parameters: unknown[] = []) => {
          current = {index: executed.length + 1, sql}
          const result = await trx.raw(sql, parameters as Knex.RawBinding[])
          executed.push(sql)
          return result
        }
        await runSteps(direction === 'up' ? migration.up : migration.down, execute)
        current = undefined
        if (sqlite) {
          const broken = (await trx.raw('pragma foreign_key_check')) as unknown[]
          if (broken.length > 0) throw new Error(`${broken.length} row(s) would break a foreign key`)
        }
        if (direction === 'up') await trx(migrationsTable).insert({name: migration.name, applied_at: new Date().toISOString()})
        else await trx(migrationsTable).where({name: migration.name}).delete()
      })
    } catch (error) {
      const undone = !sqlite && this.#type !== 'postgresql' && executed.length > 0 ? await this.#compensate(migration, direction) : ''
      const where = current ? `${current.index}` : 'end'
      const statement = current ? current.sql : 'checks after the last statement'
      throw new ApipeError('APIPE_ERR_MIGRATION', [migration.name, where, statement, reasonOf(error) + undone], {cause: error})
    } finally {
      if (sqlite) await this.#knex.raw('pragma foreign_keys = on')
    }
    return {name: migration.name, statements: executed}
  }

  /** MySQL/MariaDB: undo the schema statements that committed before a failure by running the other direction. */
  async #compensate(migration: Migration & {up: MigrationSteps; down: MigrationSteps}, direction: 'up' | 'down'): Promise<string> {
    let undone = 0
    await runSteps(direction === 'up' ? migration.down : migration.up, async (sql, parameters = []) => {
      try {
        await this.#knex.raw(sql, parameters as Knex.RawBinding[])
        undone++
      } catch {
        // Nothing to undo for this one: the statement it reverts never ran.
      }
    })
    return ` (${this.#type} commits schema changes at once; ${undone} statement(s) of \`${direction === 'up' ? 'down' : 'up'}\` were run to undo them)`
  }
}

function nameOf(file: string): string {
  return file.replace(/^.*[\\/]/, '').replace(/\.m?js$/, '')
}

async function runSteps(steps: MigrationSteps, execute: (sql: string, parameters?: unknown[]) => Promise<unknown>): Promise<void> {
  if (typeof steps === 'function') await steps({execute})
  else for (const sql of steps) await execute(sql)
}

function describe(steps: MigrationSteps): string[] {
  return typeof steps === 'function' ? ['-- a function: its statements are known when it runs'] : steps
}
