// The CRUD benchmark: GET /posts/{id}, GET /posts?limit=20 and POST /tags (a write) on the contract blog (fixtures/blog-app) over one
// SQLite file with 10,000 posts, apipe against (a) fastify + MikroORM em.findOne/findAndCount/create+flush and (b)
// fastify + raw prepared better-sqlite3 statements; then GET /posts/{id} with apipe and (a) on PostgreSQL
// (`BENCH_PG`, default the machine's 127.0.0.1:5432/test; its blog tables are dropped and made again). Each server
// runs in its own process; autocannon (10 connections, 127.0.0.1) runs them interleaved, round after round; the table
// shows the median req/s and p99 latency of the rounds.
// The SQLite file is in WAL mode: apipe's `pipe migrate` opens it so and WAL stays set in the file. (a) and (b) open
// it as any better-sqlite3 user would, which for a WAL file means `synchronous = NORMAL` (better-sqlite3 is built
// with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1), the setting apipe sets itself: the three run the same journal and syncs,
// and the run prints what the file and a plain connection say.
import {fork, spawnSync} from 'node:child_process'
import {cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import autocannon from 'autocannon'
import Database from 'better-sqlite3'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const duration = Number(process.env.BENCH_SECONDS ?? 5)
const rows = 10_000

const dir = mkdtempSync(path.join(tmpdir(), 'apipe-bench-crud-'))
cpSync(path.join(root, 'fixtures/blog-app'), dir, {recursive: true, filter: (source) => !source.includes(`${path.sep}data`)})
// The blog's code imports `apipe-kit/runtime`: this checkout, as `npm install` would link it.
mkdirSync(path.join(dir, 'node_modules'))
symlinkSync(root, path.join(dir, 'node_modules', 'apipe-kit'))
const file = path.join(dir, 'data/blog.sqlite')
const migrated = spawnSync(process.execPath, [path.join(root, 'bin/pipe.js'), 'migrate', '--project', dir], {encoding: 'utf8'})
if (migrated.status !== 0) throw new Error(migrated.stderr)
const db = new Database(file)
db.prepare("insert into user (email, name, role, created_at, updated_at) values ('ada@example.com', 'Ada', 'admin', ?, ?)").run(Date.now(), Date.now())
const insert = db.prepare('insert into post (title, slug, body, status, views, rating, author_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 1, ?, ?)')
db.transaction(() => {
  for (let index = 1; index <= rows; index++) {
    insert.run(`Post number ${index}`, `post-${index}`, 'Lorem ipsum dolor sit amet. '.repeat(4), index % 3 ? 'published' : 'draft', index % 1000, (index % 50) / 10, Date.now(), Date.now())
  }
})()
const journal = `journal_mode = ${db.pragma('journal_mode', {simple: true})}, a plain connection's synchronous = ${db.pragma('synchronous', {simple: true})} (1 = NORMAL)`
db.close()

async function start(mode, port, extra = {}) {
  const child = fork(path.join(root, 'bench/crud-server.js'), [mode], {env: {...process.env, BENCH_DB: file, BENCH_PORT: String(port), BENCH_PROJECT: dir, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), ...extra}, stdio: 'inherit'})
  await new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', (code) => reject(new Error(`${mode} exited with ${code}`)))
  })
  return child
}

let writes = 0
function load(url, kind) {
  let next = 0
  const request = (request) => {
    if (kind === 'write') return {...request, method: 'POST', path: '/tags', headers: {'content-type': 'application/json'}, body: JSON.stringify({label: `bench-${++writes}`})}
    return {...request, path: kind === 'id' ? `/posts/${1 + (next++ % rows)}` : '/posts?limit=20'}
  }
  return new Promise((resolve, reject) => {
    autocannon({url, connections: 10, duration, requests: [{setupRequest: request}]}, (error, result) => (error ? reject(error) : resolve(result)))
  })
}

/** The blog's tables on PostgreSQL with the same 10,000 posts; undefined (and why) when it does not answer. */
async function seedPostgres(url) {
  const pgDir = mkdtempSync(path.join(tmpdir(), 'apipe-bench-crud-pg-'))
  cpSync(dir, pgDir, {recursive: true, filter: (source) => !source.includes(`${path.sep}data`) && !source.includes(`${path.sep}migrations`)})
  writeFileSync(path.join(pgDir, 'pipe.config.json'), JSON.stringify({database: {url}, middleware: ['requestId']}))
  const {default: pg} = await import('pg')
  const client = new pg.Client({connectionString: url})
  try {
    await client.connect()
  } catch (error) {
    return {missing: `PostgreSQL does not answer at ${url}: ${error.message}`}
  }
  try {
    for (const table of ['comment', 'post_tags', 'post', 'tag', 'user', 'apipe_migrations']) await client.query(`drop table if exists "${table}" cascade`)
    const created = spawnSync(process.execPath, [path.join(root, 'bin/pipe.js'), 'migrate', 'create', 'init', '--project', pgDir], {encoding: 'utf8'})
    const applied = spawnSync(process.execPath, [path.join(root, 'bin/pipe.js'), 'migrate', '--project', pgDir], {encoding: 'utf8'})
    if (created.status !== 0 || applied.status !== 0) throw new Error(created.stderr + applied.stderr)
    await client.query(`insert into "user" (email, name, role, created_at, updated_at) values ('ada@example.com', 'Ada', 'admin', now(), now())`)
    await client.query(
      `insert into post (title, slug, body, status, views, rating, author_id, created_at, updated_at)
       select 'Post number ' || i, 'post-' || i, repeat('Lorem ipsum dolor sit amet. ', 4), case when i % 3 = 0 then 'draft' else 'published' end, i % 1000, (i % 50) / 10.0, 1, now(), now()
       from generate_series(1, ${rows}) as i`
    )
    return {project: pgDir}
  } finally {
    await client.end()
  }
}

const servers = [['apipe', 4101], ['mikro', 4102], ['raw', 4103]]
const kinds = ['id', 'list', 'write']
const children = {}
for (const [mode, port] of servers) children[mode] = await start(mode, port)
const results = {}
const measureRounds = async (list, kindsOf, prefix = '') => {
  for (let round = 0; round < rounds; round++) {
    for (const kind of kindsOf) {
      for (const [mode, port] of list) {
        const result = await load(`http://127.0.0.1:${port}`, kind)
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${mode} ${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`)
        ;(results[`${prefix}${mode} ${kind}`] ??= []).push({rps: result.requests.average, p99: result.latency.p99})
      }
    }
  }
}
try {
  await measureRounds(servers, kinds)
} finally {
  for (const child of Object.values(children)) child.kill('SIGTERM')
}
const postgres = await seedPostgres(process.env.BENCH_PG ?? 'postgresql://postgres@127.0.0.1:5432/test')
if (postgres.project) {
  const pgServers = [['apipe', 4111], ['mikro', 4112], ['raw', 4113]]
  const pgChildren = []
  try {
    for (const [mode, port] of pgServers) pgChildren.push(await start(mode, port, {BENCH_PG: process.env.BENCH_PG ?? 'postgresql://postgres@127.0.0.1:5432/test', BENCH_PROJECT: postgres.project}))
    await measureRounds(pgServers, ['id'], 'pg ')
  } finally {
    for (const child of pgChildren) child.kill('SIGTERM')
    rmSync(postgres.project, {recursive: true, force: true})
  }
}
rmSync(dir, {recursive: true, force: true})

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const summary = (key) => ({rps: median(results[key].map((item) => item.rps)), p99: median(results[key].map((item) => item.p99))})
const cell = ({rps, p99}) => `${Math.round(rps).toLocaleString('en-US')} req/s, p99 ${p99} ms`
console.log(`CRUD benchmark: ${rows} posts, autocannon 10 connections x ${duration} s, ${rounds} interleaved rounds (median); SQLite file: ${journal}`)
console.log('| route | apipe | (a) fastify + MikroORM | (b) fastify + raw prepared statements | apipe / (a) | apipe / (b) |')
console.log('| --- | --- | --- | --- | --- | --- |')
for (const [kind, label] of [['id', '`GET /posts/{id}`'], ['list', '`GET /posts?limit=20`'], ['write', '`POST /tags` (a write)']]) {
  const [apipe, mikro, raw] = ['apipe', 'mikro', 'raw'].map((mode) => summary(`${mode} ${kind}`))
  console.log(`| ${label}, SQLite | ${cell(apipe)} | ${cell(mikro)} | ${cell(raw)} | ${(apipe.rps / mikro.rps).toFixed(2)}x | ${(apipe.rps / raw.rps).toFixed(2)}x |`)
}
if (postgres.project) {
  const [apipe, mikro, raw] = ['pg apipe id', 'pg mikro id', 'pg raw id'].map(summary)
  console.log(`| \`GET /posts/{id}\`, PostgreSQL | ${cell(apipe)} | ${cell(mikro)} | ${cell(raw)} (node-postgres) | ${(apipe.rps / mikro.rps).toFixed(2)}x | ${(apipe.rps / raw.rps).toFixed(2)}x |`)
} else {
  console.log(`| \`GET /posts/{id}\`, PostgreSQL | not measured: ${postgres.missing} | | | | |`)
}
