/**
 * The brokers events go to, chosen by the scheme of `events.url`, each through its maintained client:
 * - `nats://`: JetStream (acknowledged, de-duplicated by the event id) when a stream covers the subject, else core
 *   NATS, flushed to the server (a subject without a stream is looked at again after 30 s);
 * - `amqp://`: RabbitMQ, a persistent message on a topic exchange (`amq.topic` by default) with publisher confirms;
 * - `redis://`: Redis Streams, one stream per subject (`XADD`).
 * A broker that is down is not an error at start-up: `publishAll` rejects and the relay tries again later; the connection
 * is made (again) on the next attempt.
 */
import type {CloudEvent} from './cloudevent.js'

/**
 * The first event of a batch is one the broker can never take (bigger than NATS's `max_payload`, than RabbitMQ's
 * `max_message_size`): sent again it would fail again and hold up every event behind it, so the relay sets it aside.
 */
export class RefusedEvent extends Error {
  override readonly name = 'RefusedEvent'
}

export interface Broker {
  readonly kind: 'nats' | 'amqp' | 'redis'
  /**
   * Publish events in one round trip where the client allows (one flush, one confirm wait, one pipeline);
   * resolves to how many of them, from the first on, the broker has. Rejects only when it took none: with a
   * {@link RefusedEvent} when the broker will never take the first.
   */
  publishAll(items: ReadonlyArray<{subject: string; event: CloudEvent}>): Promise<number>
  /** Whether the broker answers now (for `GET /ready`). */
  reachable(): Promise<boolean>
  close(): Promise<void>
}

export interface BrokerOptions {
  /** AMQP: the topic exchange (default `amq.topic`). */
  exchange?: string
  /** Milliseconds one publish may take before it counts as failed (default 5000). */
  timeout?: number
}

/** The broker of a URL; nothing connects until the first publish or check. */
export function brokerOf(url: string, options: BrokerOptions = {}): Broker {
  const scheme = new URL(url).protocol.replace(/:$/, '')
  if (scheme === 'nats') return natsBroker(url, options)
  if (scheme === 'amqp' || scheme === 'amqps') return amqpBroker(url, options)
  if (scheme === 'redis' || scheme === 'rediss') return redisBroker(url, options)
  throw new Error(`events.url has an unknown scheme \`${scheme}:\`; expected nats://, amqp:// or redis://`)
}

/** Reject after `ms` (a broker that hangs counts as down). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/** One lazily made connection, dropped when it fails so that the next use makes a new one. */
function lazily<T>(open: () => Promise<T>, close: (value: T) => Promise<unknown>) {
  let current: Promise<T> | undefined
  return {
    get: () => (current ??= open().catch((error: unknown) => {
      current = undefined
      throw error
    })),
    drop: async () => {
      const value = current
      current = undefined
      if (value) await value.then(close, () => undefined).catch(() => undefined)
    }
  }
}

/** Whether a broker answers within a second: its connection, then `probe` on it (a failure drops the connection). */
async function answers<T>(connection: ReturnType<typeof lazily<T>>, probe: (value: T) => Promise<boolean>): Promise<boolean> {
  try {
    return await within(connection.get().then(probe), 1000, 'a broker check')
  } catch {
    await connection.drop()
    return false
  }
}

/**
 * How long a subject that no JetStream stream covered is taken to have none: a stream made after the app started (a
 * usual order of deploys) is found within this, and its events are then acknowledged and de-duplicated.
 */
const noStreamFor = 30_000

function natsBroker(url: string, {timeout = 5000}: BrokerOptions): Broker {
  /** Per subject: whether a stream covers it, and until when a "no" holds. */
  const streams = new Map<string, {covered: boolean; until: number}>()
  const connection = lazily(
    async () => {
      const {connect} = await import('nats')
      const parsed = new URL(url)
      return connect({servers: `${parsed.hostname}:${parsed.port || 4222}`, user: parsed.username || undefined, pass: parsed.password || undefined, reconnect: true, maxReconnectAttempts: -1, timeout})
    },
    (nc) => nc.close()
  )
  return {
    kind: 'nats',
    async publishAll(items) {
      try {
        const nc = await within(connection.get(), timeout, 'connecting to NATS')
        const manager = await nc.jetstreamManager()
        const now = Date.now()
        for (const {subject} of items) {
          const known = streams.get(subject)
          if (known && (known.covered || known.until > now)) continue
          streams.set(subject, {covered: await manager.streams.find(subject).then(() => true, () => false), until: now + noStreamFor})
        }
        const encoder = new TextEncoder()
        const messages = items.map(({event}) => encoder.encode(JSON.stringify(event)))
        // The server's limit on a message (1 MiB by default): what is past it goes no further than the batch before it.
        const limit = nc.info?.max_payload ?? Number.POSITIVE_INFINITY
        const over = messages.findIndex((message) => message.byteLength > limit)
        if (over === 0) throw new RefusedEvent(`the event is ${messages[0].byteLength} bytes, past the server's max_payload of ${limit}`)
        const sendable = over === -1 ? items.length : over
        // JetStream acknowledges each message: send them all, then count the acks in order. Each ack is settled at
        // once, so that one that fails while the flush is awaited is not an unhandled rejection.
        const acks = items.slice(0, sendable).map(({subject, event}, index) =>
          streams.get(subject)?.covered ? within(nc.jetstream().publish(subject, messages[index], {msgID: event.id}), timeout, 'a JetStream publish').then(() => true, () => false) : (nc.publish(subject, messages[index]), undefined)
        )
        await within(nc.flush(), timeout, 'a NATS flush')
        let done = 0
        for (const ack of acks) {
          if (ack && !(await ack)) break
          done++
        }
        if (done === 0 && items.length > 0) throw new Error('JetStream took none of the events')
        return done
      } catch (error) {
        if (error instanceof RefusedEvent) throw error
        streams.clear()
        await connection.drop()
        throw error
      }
    },
    reachable: () => answers(connection, async (nc) => (await nc.flush(), true)),
    close: () => connection.drop()
  }
}

/** RabbitMQ's answer to a message past its `max_message_size` (it closes the channel): the size it allows. */
function amqpSizeLimit(error: unknown): number | undefined {
  const match = /message size \d+ is larger than configured max size (\d+)/.exec(error instanceof Error ? error.message : '')
  return match ? Number(match[1]) : undefined
}

function amqpBroker(url: string, {exchange = 'amq.topic', timeout = 5000}: BrokerOptions): Broker {
  /**
   * RabbitMQ's `max_message_size` (128 MiB by default), which it tells a client only by closing the channel on a
   * message past it: learnt then, so that the next batches stop before such an event, which is then refused.
   */
  let limit = Number.POSITIVE_INFINITY
  const connection = lazily(
    async () => {
      const amqp = await import('amqplib')
      const model = await amqp.connect(url)
      // A lost connection is found on the next publish, which then opens a new one.
      model.on('error', () => undefined)
      const channel = await model.createConfirmChannel()
      // The channel's own error says why the server closed it; the publish only sees "channel closed".
      channel.on('error', (error: unknown) => {
        limit = amqpSizeLimit(error) ?? limit
      })
      if (exchange !== 'amq.topic') await channel.assertExchange(exchange, 'topic', {durable: true})
      return {model, channel}
    },
    ({model}) => model.close()
  )
  return {
    kind: 'amqp',
    async publishAll(items) {
      const bodies = items.map(({event}) => Buffer.from(JSON.stringify(event)))
      const over = bodies.findIndex((body) => body.byteLength > limit)
      if (over === 0) throw new RefusedEvent(`the event is ${bodies[0].byteLength} bytes, past the broker's max_message_size of ${limit}`)
      const sendable = over === -1 ? items.length : over
      try {
        const {channel} = await within(connection.get(), timeout, 'connecting to AMQP')
        for (const [index, {subject, event}] of items.slice(0, sendable).entries()) channel.publish(exchange, subject, bodies[index], {persistent: true, contentType: 'application/cloudevents+json', messageId: event.id, type: event.type})
        // One wait for every confirm: a nack anywhere counts the batch as not sent (and it is sent again).
        await within(channel.waitForConfirms(), timeout, 'AMQP confirms')
        return sendable
      } catch (error) {
        await connection.drop()
        throw error
      }
    },
    // A confirm channel that opened is an answer: AMQP has no ping of its own.
    reachable: () => answers(connection, async () => true),
    close: () => connection.drop()
  }
}

function redisBroker(url: string, {timeout = 5000}: BrokerOptions): Broker {
  const connection = lazily(
    async () => {
      const {Redis} = await import('ioredis')
      // No offline queue and no retries: a Redis that is down fails the publish now, and the relay retries it later.
      const client = new Redis(url, {lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: timeout})
      client.on('error', () => undefined)
      await client.connect()
      return client
    },
    (client) => client.quit()
  )
  return {
    kind: 'redis',
    async publishAll(items) {
      try {
        const client = await within(connection.get(), timeout, 'connecting to Redis')
        const pipeline = client.pipeline()
        for (const {subject, event} of items) pipeline.xadd(subject, '*', 'type', event.type, 'id', event.id, 'event', JSON.stringify(event))
        const results = (await within(pipeline.exec(), timeout, 'a Redis pipeline')) ?? []
        const done = results.findIndex(([error]) => error)
        if (done === 0) throw results[0][0]
        return done === -1 ? results.length : done
      } catch (error) {
        await connection.drop()
        throw error
      }
    },
    reachable: () => answers(connection, async (client) => (await client.ping()) === 'PONG'),
    close: () => connection.drop()
  }
}
