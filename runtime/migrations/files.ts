/**
 * Migration files: `migrations/<YYYYMMDDHHmmss>_<name>.js`, ES modules a team reviews and may edit (`.mjs` where Node
 * reads `.js` as CommonJS: a project whose package.json does not say `"type": "module"`).
 *
 * ```js
 * export const snapshot = {entities: [...]}
 * ```
 *
 * A migration is portable: `snapshot` holds the definitions it leads to, and the statements of each database are
 * derived when it runs, from the previous migration's snapshot to this one (the planner that `pipe migrate create`
 * uses, renames included), so one folder migrates SQLite, PostgreSQL and MariaDB to equal schemas. A file may instead
 * export `up` and `down` — lists of SQL statements or async functions of `{execute}` for hand-written steps — and
 * `database`, the type those statements were written for (older files did so). The newest snapshot is the base of the
 * next diff, and deleting a migration that was never shared also forgets its changes.
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import slugify from '@sindresorhus/slugify'
import {pathToFileURL} from 'node:url'
import {ApipeError} from '../../pipeline/errors.js'
import type {EntityDefinition} from '../../schemas/types/entity.js'
import type {DatabaseType} from '../config.js'
import {reasonOf} from '../database.js'

/** What a hand-written step receives. */
export interface MigrationContext {
  execute(sql: string, parameters?: unknown[]): Promise<unknown>
}

export type MigrationSteps = string[] | ((context: MigrationContext) => Promise<void> | void)

/** A loaded migration. */
export interface Migration {
  /** File name without `.js`, e.g. `20261123104501_add_isbn`. */
  name: string
  file: string
  database?: DatabaseType
  /** Hand-written or dialect-specific steps; without them the steps are derived from the snapshots. */
  up?: MigrationSteps
  down?: MigrationSteps
  snapshot?: {entities: EntityDefinition[]}
}

const migrationName = /^\d{14}_[a-z0-9_]+\.(js|mjs)$/

/** Migration files of a folder, oldest first (names order them). */
export function listMigrationFiles(directory: string): string[] {
  try {
    return readdirSync(directory).filter((name) => migrationName.test(name)).sort().map((name) => path.join(directory, name))
  } catch {
    return []
  }
}

/** Load a migration module. */
export async function loadMigration(file: string): Promise<Migration> {
  const name = path.basename(file).replace(/\.m?js$/, '')
  // Written before the project's package.json said otherwise, or copied out of an ES module package: Node would read
  // it as CommonJS and stop at its first `export`, after a warning of its own.
  if (file.endsWith('.js') && moduleExtension(path.dirname(file)) === '.mjs') {
    throw new ApipeError('APIPE_ERR_MIGRATION_FILE', [path.basename(file), 'Node reads `.js` here as CommonJS (the nearest package.json does not say `"type": "module"`); rename it to `.mjs` or add `"type": "module"`'])
  }
  let module: Partial<Migration>
  try {
    module = (await import(pathToFileURL(file).href)) as Partial<Migration>
  } catch (error) {
    throw new ApipeError('APIPE_ERR_MIGRATION_FILE', [path.basename(file), reasonOf(error)], {cause: error})
  }
  const portable = module.up === undefined && module.down === undefined
  if (portable && !Array.isArray(module.snapshot?.entities)) {
    throw new ApipeError('APIPE_ERR_MIGRATION_FILE', [path.basename(file), 'it has neither `up`/`down` nor a `snapshot` to derive them from'])
  }
  for (const key of portable ? [] : (['up', 'down'] as const)) {
    const steps = module[key]
    if (!(typeof steps === 'function' || (Array.isArray(steps) && steps.every((step) => typeof step === 'string')))) {
      throw new ApipeError('APIPE_ERR_MIGRATION_FILE', [path.basename(file), `\`${key}\` must be a list of SQL statements or a function`])
    }
  }
  return {name, file, database: module.database, up: module.up, down: module.down, snapshot: module.snapshot}
}

/**
 * The extension an ES module takes in `directory` (which need not exist yet): `.js` where the nearest package.json
 * says `"type": "module"` (`pipe init` projects), else `.mjs`, which Node reads as an ES module everywhere.
 */
export function moduleExtension(directory: string): '.js' | '.mjs' {
  for (let folder = path.resolve(directory); ; folder = path.dirname(folder)) {
    const manifest = path.join(folder, 'package.json')
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, 'utf8')) as {type?: unknown}).type === 'module' ? '.js' : '.mjs'
      } catch {
        return '.mjs'
      }
    }
    if (folder === path.dirname(folder)) return '.mjs'
  }
}

/** The definitions of the newest migration (none before the first). */
export async function lastSnapshot(directory: string): Promise<EntityDefinition[]> {
  const files = listMigrationFiles(directory)
  for (const file of files.reverse()) {
    const migration = await loadMigration(file)
    if (migration.snapshot) return migration.snapshot.entities
  }
  return []
}

/** The name part of a migration file: `Add ISBN!` -> `add_isbn`, `Добавить ISBN` -> `dobavit_isbn`; empty -> `migration`. */
export function migrationFileSlug(name: string): string {
  return slugify(name, {separator: '_'}).slice(0, 60).replace(/_+$/, '') || 'migration'
}

function stamp(date: Date): string {
  return date.toISOString().replace(/\D/g, '').slice(0, 14)
}

/**
 * The file name of a new migration: the current UTC time to the second, later than every existing migration (a
 * second is added while it is not), so names order migrations and never collide.
 */
export function nextMigrationName(existing: readonly string[], name: string, now = new Date()): string {
  const last = existing.map((file) => path.basename(file).slice(0, 14)).sort().at(-1)
  let time = now.getTime()
  while (last && stamp(new Date(time)) <= last) time += 1000
  return `${stamp(new Date(time))}_${migrationFileSlug(name)}`
}

/**
 * The source of a portable migration module: the snapshot it leads to, and, as comments for review, the statements it
 * comes to on the database it was written on.
 */
export function migrationSource(input: {name: string; database: DatabaseType; up: string[]; down: string[]; entities: EntityDefinition[]}): string {
  const preview = (statements: string[]) => (statements.length === 0 ? ['//   (none)'] : statements.map((statement) => `//   ${statement.replace(/\n/g, ' ')}`))
  return [
    `// Migration ${input.name}, written by \`pipe migrate create\` from the changes of the definitions.`,
    '// Portable: each database derives its statements from the previous snapshot to this one when it runs, in one',
    '// transaction. To write steps by hand, export `up` and `down` (SQL lists or async functions of `{execute}`).',
    `// On ${input.database}, up:`,
    ...preview(input.up),
    '// down:',
    ...preview(input.down),
    '',
    `export const snapshot = ${JSON.stringify({entities: input.entities}, null, 2)}`,
    ''
  ].join('\n')
}
