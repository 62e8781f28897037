/**
 * The ORM plugin: opens the project's database (or takes a connected ORM, as tests share one), decorates the app
 * with it, the entity models, the prepared-statement reader (a SQLite file, or PostgreSQL) and writer (a SQLite
 * file), and closes what it
 * opened when the app closes, a failed start included.
 */
import {raw} from '@mikro-orm/core'
import type {FastifyInstance} from 'fastify'
import fp from 'fastify-plugin'
import type {Project} from '../project.js'
import {openDatabase, type Orm} from '../database.js'
import {FastReader, type FastReadDriver} from '../http/fast-read.js'
import {FastWriter} from '../http/fast-write.js'
import type {EntityModel} from '../http/model.js'
import type {LikeMatch} from '../http/query.js'

declare module 'fastify' {
  interface FastifyInstance {
    orm: Orm
    /** The project's entities as the HTTP layer sees them, by name. */
    models: ReadonlyMap<string, EntityModel>
    /** Prepared-statement reads on a SQLite file or PostgreSQL, when enabled. */
    fastReader?: FastReader
    /** Prepared-statement creates on a SQLite file, when enabled. */
    fastWriter?: FastWriter
    /** How this database matches `filter[…][like]` (see {@link likeMatch}). */
    likeMatch: LikeMatch
  }
}

/** Options of the ORM plugin. */
export interface OrmOptions {
  project: Project
  /** The project's entity models (built once by `createApp`). */
  models: ReadonlyMap<string, EntityModel>
  /** A connected ORM to use instead of opening the project's database (it is not closed with the app). */
  orm?: Orm
  /** Answer hook-free reads on a SQLite file or PostgreSQL with prepared statements (default: true). */
  fastReads?: boolean
  /** Answer hook-free creates of plain records on a SQLite file with one prepared insert (default: true). */
  fastWrites?: boolean
}

export const ormPlugin = fp<OrmOptions>(
  async (app, {project, models, orm: given, fastReads, fastWrites}) => {
    const {config, entities} = project
    app.decorate('models', models)
    const orm = given ?? (await openDatabase(config, entities))
    if (!given) app.addHook('onClose', async () => orm.close())
    app.decorate('orm', orm)
    app.decorate('likeMatch', likeMatch(orm.em.getPlatform().constructor.name))
    const driver = fastReads === false ? undefined : await fastReadDriver(app, config.database, orm)
    if (driver) {
      const reader = new FastReader(driver, models)
      app.addHook('onClose', async () => reader.close())
      app.decorate('fastReader', reader)
    }
    if (fastWrites !== false && config.database.type === 'sqlite' && config.database.url !== ':memory:') app.decorate('fastWriter', new FastWriter(orm, models))
  },
  {name: 'apipe-orm'}
)

/**
 * The fast reads' driver of the database: a SQLite file, or PostgreSQL (loaded on demand, so SQLite projects never
 * load node-postgres); none for in-memory SQLite (a second connection would see another database) and MySQL/MariaDB.
 */
async function fastReadDriver(app: FastifyInstance, database: Project['config']['database'], orm: Orm): Promise<FastReadDriver | undefined> {
  if (database.type === 'sqlite' && database.url !== ':memory:') {
    const {sqliteFastReads} = await import('../http/fast-read-sqlite.js')
    return sqliteFastReads(orm.config.get('dbName') as string)
  }
  if (database.type === 'postgresql') {
    const {postgresFastReads} = await import('../http/fast-read-postgres.js')
    return postgresFastReads({url: orm.config.get('clientUrl') as string, onError: (error) => app.log.warn({err: error}, 'fast-read connection failed')})
  }
  return undefined
}

/**
 * `filter[…][like]` on the database of `platform` (a MikroORM platform's class name), case-insensitive on every one:
 * PostgreSQL's LIKE is case-sensitive, so it gets ILIKE. PostgreSQL, MySQL and MariaDB escape `%`, `_` and `\` with
 * `\` by default; SQLite has no escape character unless the statement names one.
 */
export function likeMatch(platform: string): LikeMatch {
  if (platform.startsWith('PostgreSql')) return (pattern) => ({$ilike: pattern})
  if (platform.includes('Sqlite')) return (pattern) => ({$like: raw("? escape '\\'", [pattern])})
  return (pattern) => ({$like: pattern})
}
