/**
 * The relay: sends the outbox's unsent events to the broker in id order, which for the events of one record is the
 * order of their commits (a record's writes wait for each other's commit before they insert their event), and marks
 * each sent. At least once: an event the broker took but that could not be marked is sent again. A broker that is
 * down stops the batch at the first failure (so nothing overtakes it) and the relay tries again later, backing off
 * up to 5 s; a restarted app finds the unsent rows where they were. An event the broker can never take (too big for
 * it) is set aside, its `attempts` -1, and said as an error: the events behind it go on.
 *
 * One relay sends at a time per database: on PostgreSQL and MariaDB/MySQL a batch holds a database lock (other
 * instances skip that round); a SQLite project runs one relay (with `--workers`, in the first worker only), which
 * holds no transaction while it waits for the broker, since SQLite has one writer at a time. A batch goes to the
 * broker in one round trip, and a commit wakes the relay 50 ms later, so that events written meanwhile go together.
 */
import type {EntityManager} from '@mikro-orm/core'
import type {DatabaseType} from '../config.js'
import {RefusedEvent, type Broker} from './brokers.js'
import type {CloudEvent} from './cloudevent.js'
import {execute, outboxEntity} from './outbox.js'

interface OutboxRow {
  id: number
  type: string
  payload: string
  attempts: number
  sentAt?: Date | null
}

export interface RelayOptions {
  database: DatabaseType
  /** Put before each event type to make the subject (`events.prefix`). */
  prefix?: string
  /** Events per batch (default 100). */
  batch?: number
  /** Milliseconds between looks at the outbox when nothing woke the relay (default 1000). */
  idle?: number
  /** Where a failure is said, once per outage. */
  log?: (message: string) => void
}

/**
 * Milliseconds between a commit and the relay's look at the outbox: events committed meanwhile go in the same batch,
 * which is marked sent in one commit (under load, a look per write would double the commits).
 */
const soon = 50

export class Relay {
  readonly #em: EntityManager
  readonly #broker: Broker
  readonly #options: Required<Omit<RelayOptions, 'log'>> & Pick<RelayOptions, 'log'>
  #timer: NodeJS.Timeout | undefined
  #running: Promise<void> | undefined
  #stopped = true
  #backoff = 0
  #rounds = 0
  #down = false
  /** When the scheduled round starts (ms since the epoch). */
  #due = 0
  /** A commit woke the relay while a round ran: look again right after it. */
  #again = false

  constructor(em: EntityManager, broker: Broker, options: RelayOptions) {
    this.#em = em
    this.#broker = broker
    this.#options = {prefix: '', batch: 100, idle: 1000, ...options}
  }

  start(): void {
    this.#stopped = false
    this.#schedule(0)
  }

  /** A write committed events: look soon instead of at the next idle round. */
  notify(): void {
    if (this.#stopped || this.#backoff > 0) return
    if (this.#running) this.#again = true
    else if (this.#due > Date.now() + soon) this.#schedule(soon)
  }

  /** Stop after the batch in flight. */
  async stop(): Promise<void> {
    this.#stopped = true
    clearTimeout(this.#timer)
    await this.#running
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer)
    this.#due = Date.now() + ms
    this.#timer = setTimeout(() => {
      this.#running = this.#round().finally(() => (this.#running = undefined))
    }, ms)
    this.#timer.unref()
  }

  async #round(): Promise<void> {
    let next = this.#options.idle
    try {
      const {sent, failed} = await this.#batch()
      if (failed) {
        this.#backoff = Math.min(this.#backoff === 0 ? 100 : this.#backoff * 2, 5000)
        next = this.#backoff
      } else {
        // Only a batch the broker took says it is back: a round with nothing to send never asked it.
        if (this.#down && sent > 0) {
          this.#options.log?.('events: the broker answers again; sending the events that waited')
          this.#down = false
        }
        this.#backoff = 0
        if (sent === this.#options.batch) next = 0
        else if (this.#again) next = soon
      }
    } catch (error) {
      this.#options.log?.(`events: the outbox could not be read: ${(error as Error).message}`)
      this.#backoff = Math.min(Math.max(this.#backoff * 2, 200), 5000)
      next = this.#backoff
    }
    this.#again = false
    if (!this.#stopped) this.#schedule(next)
  }

  /** Send one batch (inside a transaction that holds the relay lock, but on SQLite); how many were sent, and whether the broker failed. */
  async #batch(): Promise<{sent: number; failed: boolean}> {
    if (this.#options.database === 'sqlite') return this.#send(this.#em.fork())
    return this.#em.fork().transactional(async (em) => {
      if (!(await this.#lock(em))) return {sent: 0, failed: false}
      try {
        return await this.#send(em)
      } finally {
        await this.#unlock(em)
      }
    })
  }

  async #send(em: EntityManager): Promise<{sent: number; failed: boolean}> {
    // A native select: the rows are read once and never changed as entities (hydrating them was most of a batch's time).
    const rows = (await execute(em, `select id, type, payload, attempts from ${outboxEntity} where sent_at is null and attempts >= 0 order by id limit ?`, [this.#options.batch])).map((row) => ({...row, id: Number(row.id), attempts: Number(row.attempts)})) as unknown as OutboxRow[]
    // Nothing waits: the broker is not asked (connecting to a stopped one would fail a round that had nothing to do).
    if (rows.length === 0) return {sent: 0, failed: false}
    let sent = 0
    try {
      sent = await this.#broker.publishAll(rows.map((row) => ({subject: this.#options.prefix + row.type, event: JSON.parse(row.payload) as CloudEvent})))
    } catch (error) {
      if (error instanceof RefusedEvent) {
        const [row] = rows
        this.#options.log?.(`events: the broker refuses event ${row.id} (\`${row.type}\`): ${error.message}; it is set aside in ${outboxEntity} (attempts = -1), and the events behind it go on`)
        await execute(em, `update ${outboxEntity} set attempts = ? where id = ?`, [-1, row.id], 'run')
        return {sent: 0, failed: false}
      }
      if (!this.#down) this.#options.log?.(`events: the broker does not take events (${(error as Error).message}); they wait in the outbox`)
      this.#down = true
    }
    const failed = sent < rows.length
    if (sent > 0) {
      // Plain SQL too: the query builder took longer over a hundred ids than the update itself. SQLite keeps a datetime
      // as epoch milliseconds (what the platform makes of a Date), the others take the Date.
      const ids = rows.slice(0, sent).map((row) => row.id)
      await execute(em, `update ${outboxEntity} set sent_at = ? where id in (${ids.map(() => '?').join(', ')})`, [em.getPlatform().processDateProperty(new Date()), ...ids], 'run')
    }
    if (failed) await execute(em, `update ${outboxEntity} set attempts = ? where id = ?`, [rows[sent].attempts + 1, rows[sent].id], 'run')
    // Sent events are kept an hour, for whoever looks; then they go.
    if (++this.#rounds % 60 === 0) await em.nativeDelete(outboxEntity, {sentAt: {$lt: new Date(Date.now() - 3_600_000)}})
    return {sent, failed}
  }

  /** Take the relay lock for this transaction; false when another instance's relay has it. */
  async #lock(em: EntityManager): Promise<boolean> {
    if (this.#options.database === 'postgresql') return (await execute(em, 'select pg_try_advisory_xact_lock(72270601) as locked'))[0]?.locked === true
    if (this.#options.database === 'mysql' || this.#options.database === 'mariadb') return Number((await execute(em, "select get_lock('apipe_outbox_relay', 0) as locked"))[0]?.locked) === 1
    return true
  }

  /** MariaDB and MySQL keep `get_lock` for the connection, not the transaction: give it back before the batch ends. */
  async #unlock(em: EntityManager): Promise<void> {
    if (this.#options.database === 'mysql' || this.#options.database === 'mariadb') await execute(em, "select release_lock('apipe_outbox_relay')")
  }
}
