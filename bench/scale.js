// The scale-out benchmark, in one run on this machine:
// - reads: GET /posts/{id} on the contract blog (SQLite file, 10,000 posts) served by `pipe start --workers 2`
//   against `--workers 1`;
// - the cost of events: POST /books on fixtures/events-app with events on (NATS at 127.0.0.1:4222, `BENCH_NATS`)
//   against the same app with `events.url` unset.
// Each server is a `pipe start` process, loaded over 10 connections on 127.0.0.1, the servers interleaved round after
// round; the table shows the median req/s and p99 latency of the rounds. The load generator shares the machine's two
// cores with the servers: for the reads it is wrk (one C thread) when the machine has it, because autocannon, a
// Node process, takes most of the core that the second worker needs; the writes, bound by the disk, use autocannon.
import {spawn, spawnSync} from 'node:child_process'
import {closeSync, cpSync, mkdirSync, mkdtempSync, openSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import autocannon from 'autocannon'
import Database from 'better-sqlite3'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const duration = Number(process.env.BENCH_SECONDS ?? 5)
const nats = process.env.BENCH_NATS ?? 'nats://127.0.0.1:4222'
const rows = 10_000
const pipe = path.join(root, 'bin/pipe.js')

/** A copy of a fixture, `apipe-kit` linked to this checkout, migrated. */
function project(fixture, env = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), `apipe-bench-${fixture}-`))
  cpSync(path.join(root, 'fixtures', fixture), dir, {recursive: true, filter: (source) => !source.includes(`${path.sep}data`)})
  mkdirSync(path.join(dir, 'node_modules'))
  symlinkSync(root, path.join(dir, 'node_modules', 'apipe-kit'))
  const migrated = spawnSync(process.execPath, [pipe, 'migrate', '--project', dir], {encoding: 'utf8', env: {...process.env, ...env}})
  if (migrated.status !== 0) throw new Error(migrated.stderr)
  return dir
}

const blog = project('blog-app')
const db = new Database(path.join(blog, 'data/blog.sqlite'))
db.prepare("insert into user (email, name, role, created_at, updated_at) values ('ada@example.com', 'Ada', 'admin', ?, ?)").run(Date.now(), Date.now())
const insert = db.prepare('insert into post (title, slug, body, status, views, rating, author_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 1, ?, ?)')
db.transaction(() => {
  for (let index = 1; index <= rows; index++) insert.run(`Post number ${index}`, `post-${index}`, 'Lorem ipsum dolor sit amet. '.repeat(4), 'published', index % 1000, 1, Date.now(), Date.now())
})()
db.close()

// The same events app twice: events on (NATS), and off (no `events.url`, so nothing declares a broker).
const eventsOn = project('events-app')
const eventsOff = project('events-app')
const offConfig = JSON.parse(readFileSync(path.join(eventsOff, 'pipe.config.json'), 'utf8'))
delete offConfig.events
writeFileSync(path.join(eventsOff, 'pipe.config.json'), JSON.stringify(offConfig))

/**
 * `pipe start` on a free port; resolves to the process and its URL once it serves. Its log goes to a file, as in
 * production: a pipe into this process would make the benchmark's own event loop read every log line, on the cores
 * the servers need.
 */
async function start(dir, args = [], env = {}) {
  const log = path.join(dir, `server-${Date.now()}.log`)
  const out = openSync(log, 'w')
  const child = spawn(process.execPath, [pipe, 'start', '--project', dir, ...args], {env: {...process.env, PORT: '0', NODE_ENV: 'production', EVENTS_URL: nats, EVENTS_PREFIX: 'apipe-bench.', ...env}, stdio: ['ignore', out, 'inherit']})
  closeSync(out)
  let exited = false
  child.once('exit', () => (exited = true))
  for (let tries = 0; tries < 300 && !exited; tries++) {
    const match = /Serving on (http:\/\/localhost:\d+)/.exec(readFileSync(log, 'utf8').slice(0, 4096))
    if (match) return {child, url: match[1].replace('localhost', '127.0.0.1')}
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  child.kill()
  throw new Error(`pipe start did not serve:\n${readFileSync(log, 'utf8').slice(0, 2000)}`)
}

const hasWrk = spawnSync('wrk', ['--version']).error === undefined
const ids = path.join(mkdtempSync(path.join(tmpdir(), 'apipe-bench-wrk-')), 'ids.lua')
writeFileSync(ids, `local n = 0\nrequest = function()\n  n = n + 1\n  return wrk.format("GET", "/posts/" .. (n % ${rows} + 1))\nend\n`)

/** Reads with wrk: requests per second and the p99 latency in ms, as autocannon's result reports them. */
async function wrk(url) {
  // Asynchronously, like autocannon: the benchmark's own timers and children go on meanwhile.
  const child = spawn('wrk', ['-t1', '-c10', `-d${duration}s`, '--latency', '-s', ids, url], {stdio: ['ignore', 'pipe', 'inherit']})
  let stdout = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  await new Promise((resolve) => child.once('close', resolve))
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1])
  const [, value, unit] = /99%\s+([\d.]+)(us|ms|s)/.exec(stdout) ?? []
  const p99 = Number(value) * ({us: 0.001, ms: 1, s: 1000}[unit] ?? NaN)
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0)
  return {requests: {average: rps}, latency: {p99: Math.round(p99 * 10) / 10}, errors: 0, non2xx}
}

let writes = 0
function load(url, kind) {
  if (kind === 'id' && hasWrk) return wrk(url)
  let next = 0
  const request = (request) =>
    kind === 'write'
      ? {...request, method: 'POST', path: '/books', headers: {'content-type': 'application/json'}, body: JSON.stringify({title: `Book ${++writes}`})}
      : {...request, path: `/posts/${1 + (next++ % rows)}`}
  return new Promise((resolve, reject) => {
    autocannon({url, connections: 10, duration, requests: [{setupRequest: request}]}, (error, result) => (error ? reject(error) : resolve(result)))
  })
}

const servers = [
  {name: 'reads, --workers 2', dir: blog, args: ['--workers', '2'], kind: 'id'},
  {name: 'reads, --workers 1', dir: blog, args: [], kind: 'id'},
  {name: 'creates, events on (NATS)', dir: eventsOn, args: [], kind: 'write'},
  {name: 'creates, events off', dir: eventsOff, args: [], kind: 'write'}
]
const results = new Map(servers.map((server) => [server.name, []]))
for (let round = 0; round < rounds; round++) {
  // Each pair in turn goes first: on this disk a run after a write-heavy one pays for its writeback.
  const order = round % 2 === 0 ? servers : [servers[1], servers[0], servers[3], servers[2]]
  for (const server of order) {
    const running = await start(server.dir, server.args)
    await load(running.url, server.kind) // warm-up, not counted
    const result = await load(running.url, server.kind)
    results.get(server.name).push({rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx})
    running.child.kill('SIGTERM')
    await new Promise((resolve) => running.child.once('exit', resolve))
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const row = (name) => {
  const runs = results.get(name)
  return {rps: median(runs.map((run) => run.rps)), p99: median(runs.map((run) => run.p99)), errors: runs.reduce((sum, run) => sum + run.errors, 0)}
}
const format = (name) => {
  const {rps, p99, errors} = row(name)
  return `${Math.round(rps).toLocaleString('en-US')} req/s, p99 ${p99} ms${errors ? `, ${errors} errors` : ''}`
}
console.log(`reads loaded by ${hasWrk ? 'wrk' : 'autocannon'}, writes by autocannon; ${rounds} rounds of ${duration} s`)
console.log(`| measure | apipe | against | ratio |`)
console.log(`|---|---|---|---|`)
console.log(`| GET /posts/{id}, SQLite, --workers 2 vs 1 | ${format('reads, --workers 2')} | ${format('reads, --workers 1')} | ${(row('reads, --workers 2').rps / row('reads, --workers 1').rps).toFixed(2)}x |`)
console.log(`| POST /books, events on (NATS) vs off | ${format('creates, events on (NATS)')} | ${format('creates, events off')} | ${(row('creates, events on (NATS)').rps / row('creates, events off').rps).toFixed(2)}x |`)
