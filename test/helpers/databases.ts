/**
 * The databases a suite runs on: SQLite always; PostgreSQL and MariaDB when their servers answer (this machine's
 * services at 127.0.0.1, or `APIPE_TEST_POSTGRES_URL` / `APIPE_TEST_MYSQL_URL`). A server that does not answer is
 * skipped with a line saying so, except in CI (`APIPE_CI=1`), where it fails the run.
 */
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import type {DatabaseType} from '../../runtime/config.js'
import {DatabaseSchema} from '@mikro-orm/knex'
import {openDatabase, type Orm} from '../../runtime/database.js'

export interface TestDatabase {
  /** `sqlite`, `postgresql` or `mariadb`. */
  label: string
  type: DatabaseType
  /** For SQLite, a path relative to the project (each project gets a fresh file). */
  url: string
}

const servers: TestDatabase[] = [
  {label: 'postgresql', type: 'postgresql', url: process.env.APIPE_TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/test'},
  {label: 'mariadb', type: 'mariadb', url: process.env.APIPE_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test'}
]

/** SQLite, then each server that answers. */
export async function testDatabases(): Promise<TestDatabase[]> {
  const available: TestDatabase[] = [{label: 'sqlite', type: 'sqlite', url: './data/app.sqlite'}]
  for (const server of servers) {
    const reason = await unreachable(server)
    if (!reason) {
      available.push(server)
      continue
    }
    if (process.env.APIPE_CI === '1') throw new Error(`CI needs ${server.label} at ${server.url}: ${reason}`)
    console.log(`  skipping the ${server.label} suites: ${server.url} does not answer (${reason})`)
  }
  return available
}

async function unreachable(database: TestDatabase): Promise<string | undefined> {
  try {
    const orm = await openDatabase({database, root: tmpdir()}, [])
    await orm.close(true)
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

/** Connect to a test database (for SQLite, the file of `root`). */
export function connect(database: TestDatabase, root: string): Promise<Orm> {
  return openDatabase({database, root}, [])
}

/** Drop `tables` (children first) so a suite starts from nothing on a shared server database. */
export async function dropTables(orm: Orm, tables: string[]): Promise<void> {
  const knex = orm.em.getKnex()
  const mysql = orm.em.getPlatform().constructor.name.startsWith('MySql')
  if (mysql) await knex.raw('set foreign_key_checks = 0')
  for (const table of tables) await knex.raw(`drop table if exists ${orm.em.getPlatform().quoteIdentifier(table)}${orm.em.getPlatform().constructor.name.startsWith('PostgreSql') ? ' cascade' : ''}`)
  if (mysql) await knex.raw('set foreign_key_checks = 1')
}

/** A fresh temporary project folder, an ES module package as `pipe init` makes one (its migrations are `.js`). */
export function temporaryProject(prefix: string): string {
  const root = mkdtempSync(path.join(tmpdir(), `apipe-${prefix}-`))
  writeFileSync(path.join(root, 'package.json'), '{"private": true, "type": "module"}\n')
  return root
}

/** Tables -> sorted `column` / `column?` (nullable) and index descriptions, as the database reports them. */
export async function introspect(orm: Orm, tables: readonly string[]): Promise<Record<string, {columns: string[]; indexes: string[]}>> {
  const schema = await DatabaseSchema.create(orm.em.getConnection(), orm.em.getPlatform(), orm.config)
  const result: Record<string, {columns: string[]; indexes: string[]}> = {}
  for (const table of schema.getTables()) {
    if (!tables.includes(table.name)) continue
    result[table.name] = {
      columns: table.getColumns().map((column) => `${column.name}${column.nullable ? '?' : ''}`).sort(),
      indexes: table
        .getIndexes()
        .filter((index) => !index.primary)
        .map((index) => `${index.unique ? 'unique ' : ''}${index.columnNames.join('+')}`)
        .filter((index, position, all) => all.indexOf(index) === position)
        .sort()
    }
  }
  return result
}
