/**
 * The database of a project: MikroORM 6 set up from `pipe.config.json` with one `EntitySchema` per entity. Drivers
 * load on demand, so a project on SQLite never loads the PostgreSQL client. SQLite runs on better-sqlite3 (the
 * synchronous driver: several times faster than `sqlite3` for the short queries of an API); MariaDB on the MySQL
 * driver.
 */
import path from 'node:path'
import {MikroORM, type Options} from '@mikro-orm/core'
import type {AbstractSqlDriver, EntityManager} from '@mikro-orm/knex'
import {ApipeError} from '../pipeline/errors.js'
import type {EntityDefinition} from '../schemas/types/entity.js'
import {databaseTypeOfUrl, sameDatabaseFamily, type DatabaseType, type ResolvedConfig} from './config.js'
import {entitySchemas, type SchemaOptions} from './entity-schema.js'
import {fileInTheWay} from '../pipeline/file-in-the-way.js'
import {makeFolder} from '../pipeline/make-folder.js'

export type Orm = MikroORM<AbstractSqlDriver, EntityManager<AbstractSqlDriver>>

async function driverOf(type: DatabaseType): Promise<Options['driver']> {
  switch (type) {
    case 'sqlite':
      return (await import('@mikro-orm/better-sqlite')).BetterSqliteDriver
    case 'postgresql':
      return (await import('@mikro-orm/postgresql')).PostgreSqlDriver
    case 'mysql':
    case 'mariadb':
      return (await import('@mikro-orm/mysql')).MySqlDriver
  }
}

/** Where a database is, for messages: the SQLite file, or the server URL without its password. */
export function describeDatabase(database: ResolvedConfig['database'], root: string): string {
  if (database.type === 'sqlite') return path.relative(process.cwd(), sqlitePath(database.url, root)) || database.url
  try {
    const url = new URL(database.url)
    if (url.password) url.password = '***'
    return url.toString()
  } catch {
    return '`' + database.url + '`'
  }
}

function sqlitePath(url: string, root: string): string {
  const file = url.replace(/^sqlite:(\/\/)?/, '')
  return file === ':memory:' ? file : path.resolve(root, file)
}

/** MikroORM options for a project's database and entities. */
export async function ormOptions(database: ResolvedConfig['database'], root: string, entities: readonly EntityDefinition[], schemaOptions: SchemaOptions = {}): Promise<Options> {
  const named = databaseTypeOfUrl(database.url)
  if (named && !sameDatabaseFamily(named, database.type)) {
    throw new ApipeError('APIPE_ERR_DATABASE', [database.type, describeDatabase(database, root), `the URL names \`${named}\`; set \`database.type\` to \`${named}\`, or leave it out: the URL says it`])
  }
  const options: Options = {
    driver: await driverOf(database.type),
    entities: entitySchemas(entities, schemaOptions),
    discovery: {warnWhenNoEntities: false},
    // Definitions are the truth: no reflection, no metadata cache files in the project.
    metadataCache: {enabled: false},
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: false
  }
  if (database.type === 'sqlite') {
    options.dbName = sqlitePath(database.url, root)
    const synchronous = (database.synchronous || 'normal').toLowerCase()
    if (synchronous !== 'normal' && synchronous !== 'full') {
      throw new ApipeError('APIPE_ERR_DATABASE', [database.type, describeDatabase(database, root), `\`database.synchronous\` is \`${database.synchronous}\`; expected \`normal\` or \`full\``])
    }
    options.pool = {afterCreate: sqliteSettings(synchronous, options.dbName !== ':memory:')}
  } else {
    if (!database.url) throw new ApipeError('APIPE_ERR_DATABASE', [database.type, '(no url)', '`database.url` is empty in pipe.config.json'])
    options.clientUrl = database.url
    // A database server's database is made by its administrator: one the URL names that does not exist is an error (a
    // typo in a production URL would otherwise get an empty database of its own), not created.
    options.ensureDatabase = false
  }
  return options
}

/**
 * How every connection to a SQLite file works: WAL, so that readers (the fast reads' own connection, other workers)
 * never wait for a writer and a commit appends to the log instead of rewriting pages through a rollback journal;
 * `synchronous` (default `normal`: a commit waits for no fsync, the log is synced at checkpoints, so a crash of the
 * process loses nothing and the file never corrupts, while a power loss can undo the last commits; `full`: an fsync
 * per commit); and a busy timeout, so that a second process waits for the write lock instead of failing at once.
 * WAL stays set in the file; `synchronous` is per connection.
 */
function sqliteSettings(synchronous: 'normal' | 'full', file: boolean) {
  return (connection: SqliteConnection, done: (error: Error | null, connection: unknown) => void) => {
    try {
      if (file) {
        connection.pragma('busy_timeout = 5000')
        connection.pragma('journal_mode = WAL')
        connection.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`)
      }
      connection.function('like', {deterministic: true, varargs: true}, unicodeLike)
      done(null, connection)
    } catch (error) {
      done(error as Error, connection)
    }
  }
}

/** What the settings use of a better-sqlite3 connection. */
interface SqliteConnection {
  pragma(source: string): unknown
  function(name: string, options: {deterministic: boolean; varargs: boolean}, implementation: (...args: unknown[]) => unknown): unknown
}

/** Each LIKE pattern as a regular expression, by its escape character and text (a list query repeats one pattern per row). */
const likePatterns = new Map<string, RegExp>()

/**
 * SQLite's `like(pattern, value[, escape])`, which its LIKE operator calls, case-insensitive beyond ASCII: SQLite's
 * own folds only A–Z, so `filter[name][like]=émile` missed "Émile", where PostgreSQL's ILIKE and MySQL's collations
 * find it. `%` is any text, `_` one character, and the escape character makes the next one literal.
 */
function unicodeLike(...args: unknown[]): number | null {
  const [pattern, value, escape] = args
  if (pattern === null || value === null || pattern === undefined || value === undefined) return null
  const key = `${typeof escape === 'string' ? escape : ''}\u0000${String(pattern)}`
  let expression = likePatterns.get(key)
  if (!expression) {
    let source = ''
    const characters = [...String(pattern)]
    for (let index = 0; index < characters.length; index++) {
      const character = characters[index]
      if (character === escape && index + 1 < characters.length) source += characters[++index].replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')
      else if (character === '%') source += '[\\s\\S]*'
      else if (character === '_') source += '[\\s\\S]'
      else source += character.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')
    }
    expression = new RegExp(`^${source}$`, 'iu')
    if (likePatterns.size > 1000) likePatterns.clear()
    likePatterns.set(key, expression)
  }
  return expression.test(String(value)) ? 1 : 0
}

/** Connect to a project's database (creating the SQLite file and its folder on first use). */
export async function openDatabase(config: Pick<ResolvedConfig, 'database' | 'root'> & Partial<Pick<ResolvedConfig, 'auth'>>, entities: readonly EntityDefinition[]): Promise<Orm> {
  const options = await ormOptions(config.database, config.root, entities, {bcryptCost: config.auth?.bcryptCost, authEntity: config.auth?.entity})
  try {
    if (config.database.type === 'sqlite' && options.dbName !== ':memory:') folderFor(options.dbName!)
    const orm = (await MikroORM.init(options)) as Orm
    // MikroORM connects lazily on some drivers: ask once, so a wrong URL fails here and not in the first request.
    const check = await orm.isConnected()
    if (!check) {
      const reason = (await orm.checkConnection()) as {reason?: string}
      await orm.close(true)
      throw new Error(reason.reason ?? 'not connected')
    }
    return orm
  } catch (error) {
    if (error instanceof ApipeError) throw error
    throw new ApipeError('APIPE_ERR_DATABASE', [config.database.type, describeDatabase(config.database, config.root), reasonOf(error)], {cause: error})
  }
}

/** An ORM that never connects: for the SQL of a set of definitions on a database type (migrations, `--dry-run`). */
export async function offlineOrm(type: DatabaseType, entities: readonly EntityDefinition[]): Promise<Orm> {
  const options = await ormOptions({type, url: type === 'sqlite' ? ':memory:' : `${type}://offline@127.0.0.1/offline`}, '/', entities)
  return MikroORM.initSync({...options, connect: false}) as Orm
}

/** The message of a driver error, without its stack. */
/** Make the folder of the SQLite file `file`; one on its way that is a file is said so, not as `mkdir`'s EEXIST. */
function folderFor(file: string): void {
  try {
    makeFolder(path.dirname(file))
  } catch (error) {
    const inTheWay = fileInTheWay(error, path.dirname(file))
    if (!inTheWay) throw error
    throw new Error(`\`${inTheWay}\` is a file, not a folder for the database file`, {cause: error})
  }
}

export function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return reasonOf(error.errors[0])
  if (error instanceof Error) return missingDatabaseHint(error.message.split('\n')[0] || error.name)
  return String(error)
}

/** A database the server does not have (apipe never creates one): what to run to create it. */
function missingDatabaseHint(reason: string): string {
  const postgres = /database "([^"]+)" does not exist/.exec(reason)?.[1]
  const mysql = /Unknown database '([^']+)'/.exec(reason)?.[1]
  if (postgres) return `${reason}; create it first (\`createdb ${postgres}\`, or \`CREATE DATABASE "${postgres}"\`)`
  if (mysql) return `${reason}; create it first (\`CREATE DATABASE \\\`${mysql}\\\`\`)`
  return reason
}
