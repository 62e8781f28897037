/**
 * Events and scale-out under faults, against `pipe start` processes on 127.0.0.1:
 * - creates under load with the broker gone for a while in the middle (a proxy in front of NATS cut and brought
 *   back), a hook refusing half of them: every committed row has its event delivered after recovery, the refused
 *   ones none; duplicates are allowed (at least once) and counted;
 * - `--workers 2` under load, one worker killed with SIGKILL: the other keeps answering, the dead one is replaced,
 *   and no acknowledged write is lost;
 * - two instances sharing a Redis rate limit: together they let through the limit, to within one request.
 * `npm test` runs 100 creates and a 1 s outage; `npm run test:reliability` 1,000 creates and 5 s.
 */
import Database from 'better-sqlite3'
import {execFileSync} from 'node:child_process'
import {writeFileSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {brokerMissing, brokerProxy, brokerUrls, consume} from '../helpers/brokers.js'
import {root} from '../helpers/fixtures.js'
import {projectCopy, servePipe} from '../helpers/run-pipe.js'
import {testWhen} from '../helpers/skip.js'

const full = process.env.APIPE_RELIABILITY === 'full'
const creates = full ? 1000 : 100
const outage = full ? 5000 : 1000

/** Run `count` requests, `concurrency` at a time; `each(i)` resolves to what the test keeps of answer i. */
async function pool<T>(count: number, concurrency: number, each: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count)
  let next = 0
  await Promise.all(
    Array.from({length: concurrency}, async () => {
      while (next < count) {
        const index = next++
        results[index] = await each(index)
      }
    })
  )
  return results
}

const json = {'content-type': 'application/json'}

testWhen(test, await brokerMissing('nats'), `${creates} creates with the broker gone for ${outage / 1000} s: one event per committed row, none for the refused`, async () => {
  const dir = await projectCopy(path.join(root, 'fixtures/events-app'))
  const proxy = await brokerProxy(brokerUrls.nats)
  const prefix = `apipe-outage-${process.pid}.`
  const consumer = await consume('nats', prefix)
  const server = await servePipe('start', dir, {EVENTS_URL: proxy.url, EVENTS_PREFIX: prefix})
  try {
    let outageDone: Promise<void> | undefined
    const answers = await pool(creates, 10, async (index) => {
      if (index === Math.floor(creates / 3)) outageDone = proxy.down().then(() => new Promise((resolve) => setTimeout(resolve, outage))).then(() => proxy.up())
      const title = index % 2 === 0 ? `Book ${index}` : `refuse ${index}`
      const response = await fetch(`${server.url}/books`, {method: 'POST', headers: json, body: JSON.stringify({title})})
      return {status: response.status, body: (await response.json()) as {id?: number; title?: string}}
    })
    await outageDone
    const committed = answers.filter((answer) => answer.status === 201)
    assert.is(committed.length, creates / 2)
    assert.ok(answers.every((answer) => answer.status === 201 || answer.status === 422), 'only 201 and 422')
    await consumer.until(committed.length, 60_000)
    // Anything still on its way arrives; then count.
    await new Promise((resolve) => setTimeout(resolve, 500))
    const delivered = consumer.events.filter((event) => event.type === 'book.created').map((event) => (event.data as {id: number; title: string}))
    const ids = new Set(delivered.map((data) => data.id))
    assert.equal([...ids].sort((a, b) => a - b), committed.map((answer) => answer.body.id!).sort((a, b) => a - b))
    assert.ok(delivered.every((data) => data.title.startsWith('Book ')), 'no event for a refused write')
    console.log(`  ${committed.length} committed, ${ids.size} delivered, ${delivered.length - ids.size} duplicate(s) after a ${outage} ms outage`)
  } finally {
    server.child.kill('SIGTERM')
    await server.exited
    await consumer.close()
    await proxy.close()
  }
})

test('--workers 2 under load, one killed with SIGKILL: answers go on, it is replaced, no acknowledged write lost', async () => {
  const dir = await projectCopy(path.join(root, 'fixtures/blog-app'))
  const server = await servePipe('start', dir, {HOST: '127.0.0.1'}, ['--workers', '2'])
  try {
    // The line says where the workers listen, as one server's does.
    assert.match(server.output(), /^Serving on http:\/\/127\.0\.0\.1:\d+ \(2 workers\)\n/m)
    const workers = () => execFileSync('ps', ['-o', 'pid=', '--ppid', String(server.child.pid)], {encoding: 'utf8'}).split('\n').map((line) => Number(line.trim())).filter(Boolean)
    assert.is(workers().length, 2)
    const killAt = Math.floor(creates / 2)
    let killed = 0
    const answers = await pool(creates * 2, 10, async (index) => {
      if (index === killAt) {
        killed = workers()[0]
        process.kill(killed, 'SIGKILL')
      }
      try {
        // Bodies are read (an unread one holds its connection) and a request may take 10 s at most.
        const response = await fetch(`${server.url}/tags`, {method: 'POST', headers: json, body: JSON.stringify({label: `tag-${index}`}), signal: AbortSignal.timeout(10_000)})
        await response.arrayBuffer()
        return {index, status: response.status}
      } catch {
        // A request the killed worker held: its connection was cut, nothing was acknowledged.
        return {index, status: 0}
      }
    })
    const acknowledged = answers.filter((answer) => answer.status === 201)
    const cut = answers.filter((answer) => answer.status === 0)
    assert.ok(answers.every((answer) => answer.status === 201 || answer.status === 0), `statuses: ${[...new Set(answers.map((answer) => answer.status))]}`)
    assert.ok(answers.slice(killAt + 20).filter((answer) => answer.status === 201).length > creates / 2, 'the other worker kept answering')
    // At most the requests of the killed worker's connections (one each, 10 connections), and a retry on one of
    // them that the client sent before it saw the connection closed.
    assert.ok(cut.length <= 20, `${cut.length} requests cut`)
    for (let tries = 0; tries < 50 && (workers().length < 2 || workers().includes(killed)); tries++) await new Promise((resolve) => setTimeout(resolve, 100))
    assert.is(workers().length, 2)
    assert.not.ok(workers().includes(killed))
    assert.match(server.output(), 'A worker stopped (SIGKILL); starting another')
    const stored = new Set((new Database(path.join(dir, 'data/blog.sqlite'), {readonly: true}).prepare('select label from tag').all() as Array<{label: string}>).map((row) => row.label))
    assert.equal(acknowledged.filter((answer) => !stored.has(`tag-${answer.index}`)), [])
    console.log(`  ${acknowledged.length} acknowledged and stored, ${cut.length} cut by the SIGKILL`)
  } finally {
    server.child.kill('SIGTERM')
    assert.is(await server.exited, 0)
  }
})

testWhen(test, await brokerMissing('redis'), 'two instances share a Redis rate limit: together they let the limit through, to within one', async () => {
  const dir = await projectCopy(path.join(root, 'fixtures/blog-app'))
  const config = JSON.parse(readFileSync(path.join(dir, 'pipe.config.json'), 'utf8'))
  writeFileSync(path.join(dir, 'pipe.config.json'), JSON.stringify({...config, rateLimit: {max: 20, window: '1 minute', store: brokerUrls.redis}}))
  const first = await servePipe('start', dir)
  const second = await servePipe('start', dir)
  try {
    const statuses = await pool(60, 6, async (index) => {
      const response = await fetch(`${index % 2 === 0 ? first.url : second.url}/tags`, {signal: AbortSignal.timeout(10_000)})
      await response.arrayBuffer()
      return response.status
    })
    const allowed = statuses.filter((status) => status === 200).length
    assert.ok(Math.abs(allowed - 20) <= 1, `${allowed} allowed`)
    console.log(`  a limit of 20 over two instances: ${allowed} let through, ${60 - allowed} answered 429`)
    assert.is(statuses.filter((status) => status === 429).length, 60 - allowed)
  } finally {
    for (const server of [first, second]) {
      server.child.kill('SIGTERM')
      await server.exited
    }
  }
})

test.run()
