/**
 * The brokers the events suites publish to — this machine's NATS (4222), RabbitMQ (5672) and Redis (6379) — with a
 * consumer for each that collects what arrives, and a TCP proxy in front of one that a test can take down and bring
 * back (the app sees a broker that stops answering, the machine's broker stays up for the other suites).
 */
import {createConnection, createServer, type Server, type Socket} from 'node:net'
import type {CloudEvent} from '../../runtime/events/cloudevent.js'

export const brokerUrls = {
  nats: process.env.APIPE_TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
  amqp: process.env.APIPE_TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  redis: process.env.APIPE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
} as const

export type BrokerKind = keyof typeof brokerUrls

/** Why a broker cannot be used here, or undefined when it answers; in CI (`APIPE_CI=1`) a broker that does not answer fails. */
export async function brokerMissing(kind: BrokerKind): Promise<string | undefined> {
  const url = new URL(brokerUrls[kind])
  const socket = createConnection({host: url.hostname, port: Number(url.port)})
  const answers = await new Promise<boolean>((resolve) => {
    socket.once('connect', () => resolve(true)).once('error', () => resolve(false))
    socket.setTimeout(1000, () => resolve(false))
  }).finally(() => socket.destroy())
  if (answers) return undefined
  if (process.env.APIPE_CI === '1') throw new Error(`CI needs ${kind} at ${brokerUrls[kind]}`)
  return `${brokerUrls[kind]} does not answer`
}

/** A consumer of every event under `prefix`: what it received so far, in arrival order. */
export interface Consumer {
  events: CloudEvent[]
  /** Resolves once at least `count` events arrived (rejects after `ms`). */
  until(count: number, ms?: number): Promise<CloudEvent[]>
  close(): Promise<void>
}

/** Subscribe to `prefix` on a broker before anything is published. */
export async function consume(kind: BrokerKind, prefix: string): Promise<Consumer> {
  const events: CloudEvent[] = []
  const until = async (count: number, ms = 15_000) => {
    const deadline = Date.now() + ms
    while (events.length < count) {
      if (Date.now() > deadline) throw new Error(`${events.length} of ${count} events arrived in ${ms} ms`)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    return events
  }
  if (kind === 'nats') {
    const {connect} = await import('nats')
    const nc = await connect({servers: new URL(brokerUrls.nats).host})
    const subscription = nc.subscribe(`${prefix}>`, {callback: (_error, message) => events.push(JSON.parse(new TextDecoder().decode(message.data)) as CloudEvent)})
    await nc.flush()
    return {events, until, close: async () => (subscription.unsubscribe(), await nc.close())}
  }
  if (kind === 'amqp') {
    const amqp = await import('amqplib')
    const connection = await amqp.connect(brokerUrls.amqp)
    const channel = await connection.createChannel()
    const {queue} = await channel.assertQueue('', {exclusive: true})
    await channel.bindQueue(queue, 'amq.topic', `${prefix}#`)
    await channel.consume(queue, (message) => message && events.push(JSON.parse(message.content.toString()) as CloudEvent), {noAck: true})
    return {events, until, close: () => connection.close()}
  }
  // Redis Streams: one stream per subject; read every stream under the prefix, oldest first, until closed.
  const {Redis} = await import('ioredis')
  const client = new Redis(brokerUrls.redis)
  let open = true
  const seen = new Map<string, string>()
  const poll = async () => {
    while (open) {
      // Streams are per subject: the entries of all of them, in the order of their ids (the time they were added).
      const fresh: Array<{id: string; event: CloudEvent}> = []
      for (const stream of await client.keys(`${prefix}*`)) {
        for (const [id, fields] of await client.xrange(stream, `(${seen.get(stream) ?? '0-0'}`, '+')) {
          seen.set(stream, id)
          fresh.push({id, event: JSON.parse(fields[fields.indexOf('event') + 1]) as CloudEvent})
        }
      }
      const order = (id: string) => id.split('-').map(Number)
      fresh.sort((a, b) => order(a.id)[0] - order(b.id)[0] || order(a.id)[1] - order(b.id)[1])
      events.push(...fresh.map((entry) => entry.event))
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  const polling = poll()
  return {
    events,
    until,
    close: async () => {
      open = false
      await polling
      const streams = await client.keys(`${prefix}*`)
      if (streams.length > 0) await client.del(...streams)
      await client.quit()
    }
  }
}

/** A TCP proxy to `target` that a test can take down (every connection cut, new ones refused) and bring back. */
export async function brokerProxy(target: string): Promise<{url: string; down(): Promise<void>; up(): Promise<void>; close(): Promise<void>}> {
  const {hostname, port, protocol, username, password} = new URL(target)
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let listenPort = 0
  const up = async () => {
    server = createServer((client) => {
      const upstream = createConnection({host: hostname, port: Number(port)})
      for (const socket of [client, upstream]) {
        sockets.add(socket)
        socket.on('close', () => sockets.delete(socket)).on('error', () => undefined)
      }
      client.pipe(upstream).pipe(client)
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
    await new Promise<void>((resolve) => server!.listen(listenPort, '127.0.0.1', resolve))
    listenPort = (server.address() as {port: number}).port
  }
  const down = async () => {
    const closing = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
    for (const socket of sockets) socket.destroy()
    await closing
    server = undefined
  }
  await up()
  const auth = username ? `${username}:${password}@` : ''
  return {url: `${protocol}//${auth}127.0.0.1:${listenPort}`, down, up, close: down}
}
