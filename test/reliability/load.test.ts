/**
 * Load and shutdown against `pipe start` on the example blog (SQLite file), with autocannon on 127.0.0.1:
 * - mixed reads and writes (a third creates tags, the rest read posts and tags): zero 5xx, every acknowledged create
 *   present afterwards (the 201s counted against the rows), and memory after the run within 10% of memory after the
 *   warm-up;
 * - SIGTERM under load: requests in flight complete, later ones are refused cleanly (503 or a closed connection,
 *   never another 5xx), and the process exits 0.
 * `npm test` runs 10 s at 20 connections; `npm run test:reliability` 60 s at 100 connections.
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {cpSync, mkdirSync, readFileSync, rmSync, symlinkSync} from 'node:fs'
import path from 'node:path'
import autocannon from 'autocannon'
import Database from 'better-sqlite3'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {temporaryProject} from '../helpers/databases.js'
import {root} from '../helpers/fixtures.js'
import {pipeBin, runPipe} from '../helpers/run-pipe.js'

const full = process.env.APIPE_RELIABILITY === 'full'
const seconds = full ? 60 : 10
const connections = full ? 100 : 20

async function blog(): Promise<string> {
  const dir = temporaryProject('load')
  cpSync(path.join(root, 'examples/blog'), dir, {recursive: true, filter: (source) => !source.includes(`${path.sep}data`)})
  rmSync(path.join(dir, 'node_modules'), {recursive: true, force: true})
  mkdirSync(path.join(dir, 'node_modules'))
  symlinkSync(root, path.join(dir, 'node_modules', 'apipe'))
  assert.is((await runPipe(['migrate', '--project', dir])).code, 0)
  return dir
}

function start(dir: string): Promise<{child: ChildProcess; url: string; exited: Promise<number | null>}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [pipeBin, 'start', '--project', dir], {cwd: dir, env: {...process.env, PORT: '0', LOG_LEVEL: 'warn'}, stdio: ['ignore', 'pipe', 'pipe']})
    let output = ''
    const exited = new Promise<number | null>((done) => child.on('close', done))
    void exited.then((code) => reject(new Error(`pipe start exited with ${code}:\n${output}`)))
    child.stdout!.on('data', (chunk) => {
      output += chunk
      const match = /on (http:\/\/localhost:\d+)/.exec(output)
      if (match) resolve({child, url: match[1].replace('localhost', '127.0.0.1'), exited})
    })
    child.stderr!.on('data', (chunk) => (output += chunk))
  })
}

function rss(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024
}

type Result = autocannon.Result & {statusCodeStats?: Record<string, {count: number}>}

function run(url: string, duration: number, onResponse?: (status: number) => void): Promise<Result> {
  let next = 0
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration,
        requests: [
          {
            setupRequest: (request) => {
              const n = next++
              if (n % 3 === 0) return {...request, method: 'POST', path: '/tags', headers: {'content-type': 'application/json'}, body: JSON.stringify({label: `tag-${process.pid}-${n}`})}
              return {...request, method: 'GET', path: n % 3 === 1 ? '/posts?limit=20' : '/tags?limit=5&sort=-id'}
            }
          }
        ]
      },
      (error, result) => (error ? reject(error) : resolve(result as Result))
    )
    if (onResponse) instance.on('response', (_client: unknown, status: number) => onResponse(status))
  })
}

test(`${seconds} s of mixed reads and writes at ${connections} connections: no 5xx, no lost write, stable memory`, async () => {
  const dir = await blog()
  const server = await start(dir)
  try {
    let created = 0
    let serverErrors = 0
    const count = (status: number) => {
      if (status === 201) created++
      if (status >= 500) serverErrors++
    }
    await run(server.url, 3, count)
    const warm = rss(server.child.pid!)
    const warmCreated = created
    const result = await run(server.url, seconds, count)
    const after = rss(server.child.pid!)
    assert.is(serverErrors, 0, 'no 5xx')
    assert.is(result.errors, 0, 'no connection errors')
    const db = new Database(path.join(dir, 'data/blog.sqlite'), {readonly: true})
    const rows = (db.prepare('select count(*) as n from tag').get() as {n: number}).n
    db.close()
    assert.is(rows, created, 'every acknowledged create is stored')
    const growth = (after - warm) / warm
    console.log(`  load: ${result.requests.total} requests in ${seconds} s (${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms), ${created - warmCreated} creates acknowledged and stored, memory ${warm.toFixed(0)} -> ${after.toFixed(0)} MB`)
    assert.ok(growth < 0.1, `memory grew ${(growth * 100).toFixed(1)}% (${warm.toFixed(0)} -> ${after.toFixed(0)} MB)`)
  } finally {
    server.child.kill('SIGTERM')
    await server.exited
  }
})

test('SIGTERM under load: in-flight requests complete, later ones are refused cleanly, exit 0', async () => {
  const dir = await blog()
  const server = await start(dir)
  const statuses = new Map<number, number>()
  const load = run(server.url, 4, (status) => statuses.set(status, (statuses.get(status) ?? 0) + 1))
  await new Promise((resolve) => setTimeout(resolve, 1500))
  server.child.kill('SIGTERM')
  const code = await server.exited
  await load
  assert.is(code, 0)
  const bad = [...statuses].filter(([status]) => status >= 500 && status !== 503)
  assert.equal(bad, [], 'only 503 while closing')
  assert.ok((statuses.get(200) ?? 0) > 0 && (statuses.get(201) ?? 0) > 0)
  console.log(`  SIGTERM under load: ${[...statuses].map(([status, n]) => `${n} x ${status}`).join(', ')}; exit ${code}`)
})

test.run()
