/**
 * Whether a database can serve the definitions as they are, checked at start-up (`pipe dev`, `pipe start`,
 * `createTestApp`): an entity changed without a migration, or a migration not applied, would otherwise show up as
 * 500s (`no such column`) on the first request that touches it.
 */
import path from 'node:path'
import type {Orm} from '../database.js'
import type {Project} from '../project.js'
import {lastSnapshot, listMigrationFiles} from './files.js'
import {planMigration} from './plan.js'
import {MigrationRunner} from './runner.js'

/** What is missing between the definitions and the migrations (and, with `orm`, the database), or undefined. */
export async function migrationGap(project: Pick<Project, 'root' | 'config' | 'entities'>, orm?: Orm): Promise<string | undefined> {
  const directory = path.join(project.root, project.config.migrations)
  const plan = await planMigration(project.config.database.type, await lastSnapshot(directory), project.entities)
  if (plan.up.length > 0) {
    const first = listMigrationFiles(directory).length === 0 ? 'there is no migration yet' : 'the definitions changed since the last migration'
    return `pending migration: ${first} (${plan.up.length} statement(s)); run \`pipe migrate create\`, then \`pipe migrate\``
  }
  if (!orm) return undefined
  const {pending} = await new MigrationRunner(orm, project.config.database.type, directory).status()
  if (pending.length > 0) return `pending migration: ${pending.length} not applied to the database (${pending.join(', ')}); run \`pipe migrate\``
  return undefined
}
