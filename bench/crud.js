// The CRUD benchmark of issue #7: GET /posts/{id} and GET /posts?limit=20 on the example blog over one SQLite file
// with 10,000 posts, apipe against (a) fastify + MikroORM em.findOne/findAndCount and (b) fastify + raw prepared
// better-sqlite3 statements. Each server runs in its own process; autocannon (10 connections, 127.0.0.1) runs them
// interleaved, round after round; the table shows the median req/s and p99 latency of the rounds.
import {fork, spawnSync} from 'node:child_process'
import {cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync} from 'node:fs'
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
cpSync(path.join(root, 'examples/blog'), dir, {recursive: true, filter: (source) => !source.includes(`${path.sep}data`)})
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
db.close()

async function start(mode, port) {
  const child = fork(path.join(root, 'bench/crud-server.js'), [mode], {env: {...process.env, BENCH_DB: file, BENCH_PORT: String(port), BENCH_PROJECT: dir, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40)}, stdio: 'inherit'})
  await new Promise((resolve, reject) => {
    child.once('message', resolve)
    child.once('exit', (code) => reject(new Error(`${mode} exited with ${code}`)))
  })
  return child
}

function load(url, byId) {
  let next = 0
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: 10,
        duration,
        requests: [{setupRequest: (request) => ({...request, path: byId ? `/posts/${1 + (next++ % rows)}` : '/posts?limit=20'})}]
      },
      (error, result) => (error ? reject(error) : resolve(result))
    )
  })
}

const servers = [['apipe', 4101], ['mikro', 4102], ['raw', 4103]]
const children = {}
for (const [mode, port] of servers) children[mode] = await start(mode, port)
const results = {}
try {
  for (let round = 0; round < rounds; round++) {
    for (const byId of [true, false]) {
      for (const [mode, port] of servers) {
        const result = await load(`http://127.0.0.1:${port}`, byId)
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${mode}: ${result.non2xx} non-2xx, ${result.errors} errors`)
        ;(results[`${mode} ${byId ? 'id' : 'list'}`] ??= []).push({rps: result.requests.average, p99: result.latency.p99})
      }
    }
  }
} finally {
  for (const child of Object.values(children)) child.kill('SIGTERM')
  rmSync(dir, {recursive: true, force: true})
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const summary = (key) => ({rps: median(results[key].map((item) => item.rps)), p99: median(results[key].map((item) => item.p99))})
console.log(`CRUD benchmark: ${rows} posts in SQLite, autocannon 10 connections x ${duration} s, ${rounds} interleaved rounds (median)`)
console.log('| route | apipe | (a) fastify + MikroORM | (b) fastify + raw better-sqlite3 | apipe / (a) | apipe / (b) |')
console.log('| --- | --- | --- | --- | --- | --- |')
for (const [kind, label] of [['id', '`GET /posts/{id}`'], ['list', '`GET /posts?limit=20`']]) {
  const [apipe, mikro, raw] = ['apipe', 'mikro', 'raw'].map((mode) => summary(`${mode} ${kind}`))
  const cell = ({rps, p99}) => `${Math.round(rps).toLocaleString('en-US')} req/s, p99 ${p99} ms`
  console.log(`| ${label} | ${cell(apipe)} | ${cell(mikro)} | ${cell(raw)} | ${(apipe.rps / mikro.rps).toFixed(2)}x | ${(apipe.rps / raw.rps).toFixed(2)}x |`)
}
