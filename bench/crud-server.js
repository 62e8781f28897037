// One server of the CRUD benchmark, on the SQLite file `BENCH_DB` (or, with `BENCH_PG`, that PostgreSQL database),
// listening on 127.0.0.1:`BENCH_PORT`:
//   apipe  - the contract blog (fixtures/blog-app) served by apipe (createApp, no request log)
//   mikro  - (a) hand-written fastify routes calling MikroORM em.findOne / em.findAndCount / em.create + flush
//   raw    - (b) fastify routes on raw prepared statements (the practical limit): better-sqlite3, or on PostgreSQL
//            node-postgres named statements over a pool of 10 connections (reads by id only)
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const [mode] = process.argv.slice(2)
const file = process.env.BENCH_DB
const port = Number(process.env.BENCH_PORT)
const project = process.env.BENCH_PROJECT
const postgres = process.env.BENCH_PG
const database = postgres ? {type: 'postgresql', url: postgres} : {type: 'sqlite', url: file}

let app
if (mode === 'apipe') {
  const {loadProject, createApp} = await import(path.join(root, 'dist/runtime/index.js'))
  const loaded = await loadProject(project)
  app = await createApp({...loaded, config: {...loaded.config, database}})
} else if (mode === 'mikro') {
  const {default: Fastify} = await import('fastify')
  const {MikroORM, wrap} = await import('@mikro-orm/core')
  const {loadProject} = await import(path.join(root, 'dist/runtime/index.js'))
  const {entitySchemas} = await import(path.join(root, 'dist/runtime/entity-schema.js'))
  const loaded = await loadProject(project)
  const driver = postgres ? (await import('@mikro-orm/postgresql')).PostgreSqlDriver : (await import('@mikro-orm/better-sqlite')).BetterSqliteDriver
  const orm = await MikroORM.init({driver, ...(postgres ? {clientUrl: postgres} : {dbName: file}), entities: entitySchemas(loaded.entities), discovery: {warnWhenNoEntities: false}})
  app = Fastify()
  app.post('/tags', async (request, reply) => {
    const em = orm.em.fork()
    const tag = em.create('tag', request.body)
    await em.flush()
    return reply.code(201).send(wrap(tag).toObject())
  })
  app.get('/posts/:id', async (request, reply) => {
    const post = await orm.em.fork().findOne('post', {id: Number(request.params.id)})
    if (!post) return reply.code(404).send({status: 404})
    return wrap(post).toObject()
  })
  app.get('/posts', async (request) => {
    const limit = Number(request.query.limit ?? 20)
    const [rows, total] = await orm.em.fork().findAndCount('post', {}, {limit, offset: 0, orderBy: {id: 'asc'}})
    return {data: rows.map((row) => wrap(row).toObject()), meta: {page: 1, limit, total, pages: Math.ceil(total / limit)}}
  })
} else if (mode === 'raw' && postgres) {
  const {default: Fastify} = await import('fastify')
  const {default: pg} = await import('pg')
  const pool = new pg.Pool({connectionString: postgres, max: 10})
  app = Fastify()
  app.get('/posts/:id', async (request, reply) => {
    const {rows} = await pool.query({name: 'post-by-id', text: 'select * from post where id = $1 and deleted_at is null', values: [Number(request.params.id)]})
    if (rows.length === 0) return reply.code(404).send({status: 404})
    return rows[0]
  })
} else if (mode === 'raw') {
  const {default: Fastify} = await import('fastify')
  const {default: Database} = await import('better-sqlite3')
  const db = new Database(file)
  const insert = db.prepare('insert into tag (label) values (?) returning *')
  const one = db.prepare('select * from post where id = ? and deleted_at is null')
  const page = db.prepare('select * from post where deleted_at is null order by id limit ? offset ?')
  const count = db.prepare('select count(*) as total from post where deleted_at is null')
  app = Fastify()
  app.post('/tags', async (request, reply) => reply.code(201).send(insert.get(request.body.label)))
  app.get('/posts/:id', async (request, reply) => {
    const row = one.get(Number(request.params.id))
    if (!row) return reply.code(404).send({status: 404})
    return row
  })
  app.get('/posts', async (request) => {
    const limit = Number(request.query.limit ?? 20)
    const {total} = count.get()
    return {data: page.all(limit, 0), meta: {page: 1, limit, total, pages: Math.ceil(total / limit)}}
  })
} else {
  throw new Error(`unknown mode ${mode}`)
}
await app.listen({port, host: '127.0.0.1'})
process.send?.('ready')
process.on('SIGTERM', async () => {
  await app.close()
  process.exit(0)
})
