/**
 * Declared events through real brokers (fixtures/events-app): CloudEvents 1.0 on NATS, RabbitMQ and Redis Streams,
 * written to the outbox in the write's transaction and sent after commit; nothing for a rolled-back write; a broker
 * that is down delays events and loses none, across a restart of the app; `/health` and `/ready`; the events in
 * `pipe map` and `pipe asyncapi`, read back by `pipe import asyncapi`.
 */
import {execFileSync} from 'node:child_process'
import {cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type {FastifyInstance} from 'fastify'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {createTestApp} from '../runtime/testing.js'
import {brokerMissing, brokerProxy, brokerUrls, consume, type BrokerKind} from './helpers/brokers.js'
import {temporaryProject} from './helpers/databases.js'
import {root} from './helpers/fixtures.js'
import {projectCopy, runPipe, servePipe} from './helpers/run-pipe.js'
import {testWhen} from './helpers/skip.js'

const fixture = path.join(root, 'fixtures/events-app')
let run = 0

/**
 * The events app on a fresh in-memory database (or a SQLite file, where creates take the prepared insert),
 * publishing to `url` under a prefix of its own.
 */
async function eventsApp(url: string, file?: string, project = fixture): Promise<{app: FastifyInstance; prefix: string}> {
  const prefix = `apipe-test-${process.pid}-${++run}.`
  process.env.EVENTS_URL = url
  process.env.EVENTS_PREFIX = prefix
  try {
    return {app: await createTestApp({root: project, ...(file ? {database: {type: 'sqlite', url: file}} : {})}), prefix}
  } finally {
    delete process.env.EVENTS_URL
    delete process.env.EVENTS_PREFIX
  }
}

const post = (app: FastifyInstance, url: string, payload?: object) => app.inject({method: 'POST', url, payload, headers: payload ? {} : {'content-type': 'application/json'}})

for (const [kind, onFile] of [['nats', false], ['amqp', false], ['redis', false], ['nats', true]] as Array<[BrokerKind, boolean]>) {
  testWhen(test, await brokerMissing(kind), `${kind}${onFile ? ' on a SQLite file (prepared creates)' : ''}: each committed write is one CloudEvent, in commit order; a rolled-back write is none`, async () => {
    const {app, prefix} = await eventsApp(brokerUrls[kind], onFile ? path.join(mkdtempSync(path.join(os.tmpdir(), 'apipe-events-')), 'events.sqlite') : undefined)
    const consumer = await consume(kind, prefix)
    try {
      assert.is((await post(app, '/books', {title: 'Dune', secret: 'not for events'})).statusCode, 201)
      assert.is((await post(app, '/books', {title: 'refuse this one'})).statusCode, 422)
      assert.is((await app.inject({method: 'PATCH', url: '/books/1', payload: {title: 'Dune Messiah'}})).statusCode, 200)
      assert.is((await post(app, '/books/1/ship')).statusCode, 200)
      assert.is((await app.inject({method: 'DELETE', url: '/books/1'})).statusCode, 204)
      assert.is((await post(app, '/notes', {text: 'a note'})).statusCode, 201)
      assert.is((await app.inject({method: 'PATCH', url: '/notes/1', payload: {text: 'no event: notes declare only created'}})).statusCode, 200)
      const events = await consumer.until(5)
      await new Promise((resolve) => setTimeout(resolve, 300))
      // Redis keeps one stream per type, ordered within itself; across streams the order is the events' `time`.
      if (kind === 'redis') events.sort((a, b) => a.time.localeCompare(b.time))
      const types = events.map((event) => event.type)
      assert.equal(kind === 'redis' ? [...types].sort() : types, kind === 'redis' ? ['book.created', 'book.deleted', 'book.shipped', 'book.updated', 'note.created'] : ['book.created', 'book.updated', 'book.shipped', 'book.deleted', 'note.created'])
      const byType = Object.fromEntries(events.map((event) => [event.type, event]))
      const [created, updated, shipped, deleted] = ['book.created', 'book.updated', 'book.shipped', 'book.deleted'].map((type) => byType[type])
      assert.equal(Object.keys(created).sort(), ['data', 'datacontenttype', 'id', 'source', 'specversion', 'subject', 'time', 'type'])
      assert.equal([created.specversion, created.source, created.datacontenttype, created.subject], ['1.0', '/events-app', 'application/json', '1'])
      assert.equal(created.data, {id: 1, title: 'Dune', shipped: false})
      assert.equal(updated.data, {id: 1, title: 'Dune Messiah', shipped: false})
      assert.equal(shipped.data, {id: 1, title: 'Dune Messiah'})
      assert.equal(deleted.data, {id: 1, title: 'Dune Messiah', shipped: true})
      assert.is(new Set(events.map((event) => event.id)).size, 5)
      assert.ok(!Number.isNaN(Date.parse(created.time)))
    } finally {
      await consumer.close()
      await app.close()
    }
  })
}

testWhen(test, await brokerMissing('nats'), 'a broker that is down delays events and loses none; /ready says so and stays 200', async () => {
  const proxy = await brokerProxy(brokerUrls.nats)
  const {app, prefix} = await eventsApp(proxy.url)
  const consumer = await consume('nats', prefix)
  try {
    assert.equal((await app.inject({method: 'GET', url: '/ready'})).json(), {status: 'ready', checks: {database: 'up', broker: 'up'}})
    await proxy.down()
    for (let index = 1; index <= 20; index++) assert.is((await post(app, '/books', {title: `Book ${index}`})).statusCode, 201)
    // Still serving: the writes wait in the outbox, so a readiness probe keeps the instance in rotation.
    const ready = await app.inject({method: 'GET', url: '/ready'})
    assert.equal([ready.statusCode, ready.json()], [200, {status: 'degraded', checks: {database: 'up', broker: 'down'}}])
    assert.equal((await app.inject({method: 'GET', url: '/health'})).json(), {status: 'ok'})
    await new Promise((resolve) => setTimeout(resolve, 500))
    assert.is(consumer.events.length, 0)
    await proxy.up()
    const events = await consumer.until(20)
    assert.equal(events.map((event) => event.data), Array.from({length: 20}, (_, index) => ({id: index + 1, title: `Book ${index + 1}`, shipped: false})))
  } finally {
    await consumer.close()
    await app.close()
    await proxy.close()
  }
})

/**
 * A note of `size` characters, which the broker refuses, then a small one: the small one arrives, and the big one is
 * set aside in the outbox (`attempts` -1, never sent).
 */
async function tooBigThenSmall(app: FastifyInstance, consumer: Awaited<ReturnType<typeof consume>>, size: number): Promise<void> {
  assert.is((await post(app, '/notes', {text: 'x'.repeat(size)})).statusCode, 201)
  assert.is((await post(app, '/notes', {text: 'a note'})).statusCode, 201)
  const [event] = await consumer.until(1)
  assert.equal(event.data, {id: 2, text: 'a note'})
  const rows = await app.orm.em.fork().getConnection().execute('select id, attempts, sent_at from apipe_outbox order by id')
  assert.equal(rows.map((row: Record<string, unknown>) => [Number(row.id), Number(row.attempts), row.sent_at === null]), [[1, -1, true], [2, 0, false]])
}

for (const stream of [false, true]) {
  testWhen(test, await brokerMissing('nats'), `an event past NATS's max_payload${stream ? ' on a JetStream stream' : ''} is set aside, and the events behind it go on`, async () => {
    const {app, prefix} = await eventsApp(brokerUrls.nats)
    const consumer = await consume('nats', prefix)
    const {connect} = await import('nats')
    const nc = await connect({servers: new URL(brokerUrls.nats).host})
    const name = `APIPE_TEST_${process.pid}_${run}`
    try {
      if (stream) await (await nc.jetstreamManager()).streams.add({name, subjects: [`${prefix}>`]})
      // A body under the 1 MiB limit whose event, with its CloudEvents envelope, is past the server's 1 MiB.
      await tooBigThenSmall(app, consumer, 1_048_500)
    } finally {
      if (stream) await (await nc.jetstreamManager()).streams.delete(name).catch(() => undefined)
      await nc.close()
      await consumer.close()
      await app.close()
    }
  })
}

testWhen(test, await brokerMissing('nats'), 'a custom action\'s event that declares its payload entity is about that record: its subject is the key', async () => {
  const {app, prefix} = await eventsApp(brokerUrls.nats)
  const consumer = await consume('nats', prefix)
  try {
    assert.is((await post(app, '/books', {title: 'Dune'})).statusCode, 201)
    assert.is((await post(app, '/books/1/ship')).statusCode, 200)
    assert.is((await post(app, '/books/1/restock')).statusCode, 200)
    const events = await consumer.until(3)
    assert.equal(events.map((event) => [event.type, event.subject]), [['book.created', '1'], ['book.shipped', undefined], ['book.restocked', '1']])
    assert.equal(events[2].data, {id: 1, title: 'Dune', shipped: false})
  } finally {
    await consumer.close()
    await app.close()
  }
})

/** Set RabbitMQ's `max_message_size` (read by each channel it opens), or why it cannot be set here. */
function rabbitMaxMessageSize(bytes: number): string | undefined {
  try {
    execFileSync('rabbitmqctl', ['eval', `application:set_env(rabbit, max_message_size, ${bytes}).`], {stdio: 'pipe', timeout: 20_000})
    return undefined
  } catch (error) {
    return `rabbitmqctl cannot set max_message_size here (${(error as Error).message.split('\n')[0]})`
  }
}
const rabbitDefaultMax = 134_217_728

testWhen(test, (await brokerMissing('amqp')) ?? rabbitMaxMessageSize(rabbitDefaultMax), 'an event past RabbitMQ\'s max_message_size is set aside, and the events behind it go on', async () => {
  // Each channel reads the limit when it opens: set before the app's first publish, restored after.
  rabbitMaxMessageSize(16_384)
  const {app, prefix} = await eventsApp(brokerUrls.amqp)
  const consumer = await consume('amqp', prefix)
  try {
    await tooBigThenSmall(app, consumer, 20_000)
  } finally {
    rabbitMaxMessageSize(rabbitDefaultMax)
    await consumer.close()
    await app.close()
  }
})

/** The events app with an auth entity, without a controller, that declares `created` (its schema from the definitions: no migrations). */
function authEventsProject(): string {
  const dir = temporaryProject('events-auth')
  cpSync(fixture, dir, {recursive: true, filter: (source) => !/[/\\](data|migrations)$/.test(source)})
  mkdirSync(path.join(dir, 'node_modules'))
  symlinkSync(root, path.join(dir, 'node_modules', 'apipe-kit'))
  writeFileSync(path.join(dir, 'src', 'entities', 'user.json'), JSON.stringify({name: 'user', fields: {email: {type: 'email', required: true, unique: true}, password: {type: 'password', required: true}}, events: ['created']}))
  const config = JSON.parse(readFileSync(path.join(dir, 'pipe.config.json'), 'utf8')) as Record<string, unknown>
  writeFileSync(path.join(dir, 'pipe.config.json'), JSON.stringify({...config, auth: {entity: 'user', bcryptCost: 10}}))
  return dir
}

test('pipe map lists the auth entity\'s events under Auth, where sign-up publishes them, though no controller serves the entity', async () => {
  const dir = authEventsProject()
  const out = path.join(dir, 'map')
  const mapped = await runPipe(['map', dir, '--output', out])
  assert.is(mapped.code, 0, mapped.stderr)
  const spec = JSON.parse(readFileSync(path.join(out, 'api.endpoints.json'), 'utf8'))
  assert.equal(spec.endpoints.filter((endpoint: Record<string, unknown>) => endpoint.id === 'user.created').map((endpoint: Record<string, unknown>) => [endpoint.method, endpoint.group, endpoint.response]), [['EVENT', 'auth', 'User']])
  assert.ok(spec.groups.some((group: Record<string, unknown>) => group.id === 'auth'))
})

testWhen(test, await brokerMissing('nats'), 'a sign-up through /auth/register publishes the auth entity\'s created event, without its password', async () => {
  const dir = authEventsProject()
  const {app, prefix} = await eventsApp(brokerUrls.nats, undefined, dir)
  const consumer = await consume('nats', prefix)
  try {
    const registered = await post(app, '/auth/register', {email: 'ada@example.com', password: 'a long passphrase of hers'})
    assert.is(registered.statusCode, 201)
    const [event] = await consumer.until(1)
    assert.equal([event.type, event.subject, event.data], ['user.created', '1', {id: 1, email: 'ada@example.com'}])
  } finally {
    await consumer.close()
    await app.close()
  }
})

testWhen(test, await brokerMissing('nats'), 'events written while the broker was down are sent by the next start of the app', async () => {
  const dir = await projectCopy(fixture)
  const prefix = `apipe-restart-${process.pid}.`
  const consumer = await consume('nats', prefix)
  try {
    const down = await servePipe('start', dir, {EVENTS_URL: 'nats://127.0.0.1:1', EVENTS_PREFIX: prefix})
    for (const title of ['One', 'Two', 'Three']) {
      const answer = await fetch(`${down.url}/books`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({title})})
      assert.is(answer.status, 201)
      await answer.arrayBuffer()
    }
    // A few rounds of the relay's backoff: the log says once that the broker is down, and never that it is back.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    down.child.kill('SIGTERM')
    assert.is(await down.exited, 0)
    const said = (text: string) => down.output().split('\n').filter((line) => line.includes(text)).length
    assert.equal([said('the broker does not take events'), said('the broker answers again')], [1, 0], down.output())
    assert.is(consumer.events.length, 0)
    const up = await servePipe('start', dir, {EVENTS_PREFIX: prefix})
    try {
      const events = await consumer.until(3)
      assert.equal(events.map((event) => (event.data as {title: string}).title), ['One', 'Two', 'Three'])
    } finally {
      up.child.kill('SIGTERM')
      await up.exited
    }
  } finally {
    await consumer.close()
  }
})

test('createTestApp on a database that outlives it (a file, a server) starts each test app empty', async () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'apipe-test-db-')), 'kept.sqlite')
  for (const round of [1, 2]) {
    const app = await createTestApp({root: fixture, database: {type: 'sqlite', url: file}})
    try {
      assert.is(await app.orm.em.fork().count('note'), 0, `round ${round}: an empty table`)
      assert.is((await post(app, '/notes', {text: `round ${round}`})).statusCode, 201)
    } finally {
      await app.close()
    }
  }
})

test('publishing a type nothing declares is a 500 naming it, and the write rolls back', async () => {
  const {app} = await eventsApp('nats://127.0.0.1:1')
  try {
    const answer = await post(app, '/books', {title: 'leak'})
    assert.is(answer.statusCode, 500)
    assert.is(answer.json().detail, "`book.leaked` is not a declared event; declare it in the route's `events` (`POST /books`) or the entity's")
    assert.equal((await app.inject({method: 'GET', url: '/books'})).json().data, [])
  } finally {
    await app.close()
  }
})

test('pipe map lists the events; pipe asyncapi writes them and pipe import asyncapi reads them back', async () => {
  const dir = temporaryProject('events-map')
  const asyncapi = path.join(dir, 'asyncapi.json')
  assert.is((await runPipe(['asyncapi', '--project', fixture, '--output', asyncapi])).code, 0)
  assert.is((await runPipe(['map', fixture, '--output', dir])).code, 0)
  const imported = await runPipe(['import', 'asyncapi', asyncapi, path.join(dir, 'back.endpoints.json')])
  assert.is(imported.code, 0, imported.stderr)
  const pick = (endpoint: Record<string, unknown>) => ({id: endpoint.id, method: endpoint.method, path: endpoint.path, group: endpoint.group, summary: endpoint.summary, response: endpoint.response})
  const mapped = (JSON.parse(readFileSync(path.join(dir, 'api.endpoints.json'), 'utf8')).endpoints as Array<Record<string, unknown>>).filter((endpoint) => endpoint.method === 'EVENT')
  const back = JSON.parse(readFileSync(path.join(dir, 'back.endpoints.json'), 'utf8')).endpoints as Array<Record<string, unknown>>
  assert.equal(mapped.map(pick), [
    {id: 'book.created', method: 'EVENT', path: 'apipe-test.book.created', group: 'book', summary: 'A book was created', response: 'Book'},
    {id: 'book.updated', method: 'EVENT', path: 'apipe-test.book.updated', group: 'book', summary: 'A book was updated', response: 'Book'},
    {id: 'book.deleted', method: 'EVENT', path: 'apipe-test.book.deleted', group: 'book', summary: 'A book was deleted', response: 'Book'},
    {id: 'note.created', method: 'EVENT', path: 'apipe-test.note.created', group: 'note', summary: 'A note was created', response: 'Note'},
    // What an action publishes is its own: a payload only where the route declares one, not the route's response.
    {id: 'book.shipped', method: 'EVENT', path: 'apipe-test.book.shipped', group: 'book', summary: 'Published by `POST /books/{id}/ship`', response: undefined},
    {id: 'book.restocked', method: 'EVENT', path: 'apipe-test.book.restocked', group: 'book', summary: 'Published by `POST /books/{id}/restock`', response: 'Book'}
  ])
  const document = JSON.parse(readFileSync(asyncapi, 'utf8'))
  // The payload is what the broker carries: the CloudEvents envelope, with the record (or the action's data) in `data`.
  const envelope = document.components.messages.Book.payload
  assert.is(document.components.messages.Book.contentType, 'application/cloudevents+json')
  assert.equal(envelope.required, ['specversion', 'id', 'source', 'type', 'time', 'datacontenttype', 'data'])
  assert.is(envelope.properties.subject.description, "The record's key")
  assert.equal(envelope.properties.data, {$ref: '#/components/schemas/Book'})
  assert.equal(envelope.properties.specversion, {type: 'string', const: '1.0'})
  assert.equal(document.components.messages.BookShippedData.payload.properties.data, {})
  assert.not.ok('subject' in document.components.messages.BookShippedData.payload.properties)
  assert.match(document.components.messages.BookShippedData.description, /The data is what `POST \/books\/\{id\}\/ship` publishes: its route declares no `payload`, so there is no record, and no `subject`\.$/)
  assert.equal(back.map(pick).filter((endpoint) => endpoint.id !== 'book.shipped'), mapped.map(pick).filter((endpoint) => endpoint.id !== 'book.shipped'))
  assert.is(document.asyncapi, '3.0.0')
  assert.equal(document.servers, {broker: {host: '127.0.0.1:4222', protocol: 'nats'}})
  // The outbox is a table, not API: no type of it anywhere.
  assert.not.ok(JSON.stringify(document).includes('ApipeOutbox'))
})

test.run()
