/**
 * Faults: the PostgreSQL server stopped under a stream of writes. While it is down, requests answer 503
 * problem+json with Retry-After (never a stack, never a hang); once it is back the app recovers by itself, and every
 * acknowledged write is in the table.
 *
 * It stops this machine's PostgreSQL cluster, so it runs only in `npm run test:reliability` (APIPE_RELIABILITY=full)
 * and only where `pg_ctlcluster` controls the server at 127.0.0.1:5432.
 */
import {execFileSync} from 'node:child_process'
import {existsSync, readdirSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {testWhen} from '../helpers/skip.js'
import {createTestApp} from '../../runtime/testing.js'
import {connect, dropTables, temporaryProject, testDatabases} from '../helpers/databases.js'
import {root} from '../helpers/fixtures.js'

const full = process.env.APIPE_RELIABILITY === 'full'
const cluster = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql')[0] : undefined
const pg = (action: 'start' | 'stop') => execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', cluster!, 'main', action, ...(action === 'stop' ? ['-m', 'fast'] : [])], {stdio: 'ignore'})

// It stops this machine's PostgreSQL cluster, so only the full run (npm run test:reliability) does it.
const faultsMissing = !full ? 'it runs in npm run test:reliability' : !cluster ? 'no PostgreSQL cluster that pg_ctlcluster controls' : undefined

testWhen(test, faultsMissing, 'PostgreSQL stopped under writes: 503 while down, recovery after, no acknowledged write lost', async () => {
  const postgres = (await testDatabases()).find((database) => database.type === 'postgresql')
  if (!postgres) throw new Error('PostgreSQL does not answer at 127.0.0.1:5432')
  const setup = await connect(postgres, temporaryProject('faults'))
  await dropTables(setup, ['comment', 'post_tags', 'post', 'tag', 'user', 'apipe_migrations'])
  await setup.close(true)
  const app = await createTestApp({root: path.join(root, 'fixtures/blog-app'), database: postgres})
  const acknowledged: string[] = []
  const statuses = new Map<number, number>()
  const unexpected: string[] = []
  let stop = false
  let n = 0
  const writer = async () => {
    while (!stop) {
      const label = `fault-${n++}`
      const response = await app.inject({method: 'POST', url: '/tags', payload: {label}})
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1)
      if (response.statusCode === 201) acknowledged.push(label)
      else {
        if (response.statusCode !== 503 || !response.headers['retry-after']) unexpected.push(`${response.statusCode} ${response.body}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
  }
  try {
    const writers = Array.from({length: 5}, writer)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    pg('stop')
    await new Promise((resolve) => setTimeout(resolve, 2000))
    pg('start')
    // Recovery: writes succeed again without restarting the app.
    const recovered = Date.now()
    const before = acknowledged.length
    while (acknowledged.length === before && Date.now() - recovered < 20_000) await new Promise((resolve) => setTimeout(resolve, 100))
    await new Promise((resolve) => setTimeout(resolve, 1000))
    stop = true
    await Promise.all(writers)
    assert.equal(unexpected.slice(0, 3), [], 'while down: 503 problem+json with Retry-After, nothing else')
    assert.ok(acknowledged.length > before, 'writes succeed again after the server is back')
    assert.ok((statuses.get(503) ?? 0) > 0, 'the outage was answered with 503')
    const stored = (await app.orm.em.getKnex()('tag').select('label')) as Array<{label: string}>
    const labels = new Set(stored.map((row) => row.label))
    assert.equal(acknowledged.filter((label) => !labels.has(label)), [], 'no acknowledged write lost')
    console.log(`  PostgreSQL stopped for 2 s under 5 writers: ${[...statuses].map(([status, count]) => `${count} x ${status}`).join(', ')}; ${acknowledged.length} acknowledged writes, all stored`)
  } finally {
    stop = true
    try {
      pg('start')
    } catch {
      // Already running.
    }
    await app.close()
  }
})

test.run()
