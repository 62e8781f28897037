/**
 * The transactional outbox: declared events are rows of `apipe_outbox`, inserted in the transaction of the write that
 * caused them, so a rolled-back write leaves none and a committed one cannot lose its event. The relay (relay.ts)
 * sends them after commit. The table is an entity like the project's own (`x-internal`: no routes, no catalogue),
 * so `pipe migrate create` plans it on every database.
 */
import type {EntityManager} from '@mikro-orm/core'
import type {RouteOptions} from '../../schemas/types/controller.js'
import type {EntityDefinition} from '../../schemas/types/entity.js'
import {cloudEvent, type CloudEvent} from './cloudevent.js'

export const outboxEntity = 'apipe_outbox'

/** An event waiting in the outbox, with the key that orders it (`article:7`). */
export interface OutboxEvent {
  event: CloudEvent
  key: string
}

/** The write event of a record (`book.created`), its subject the record's key, ordered with the record's other events. */
export function writeEvent(entity: string, what: string, record: Record<string, unknown>, primaryKey: string, source: string): OutboxEvent {
  const key = String(record?.[primaryKey] ?? '')
  return {event: cloudEvent(`${entity}.${what}`, source, record, key), key: `${entity}:${key}`}
}

/** The outbox table's definition. */
export const outboxDefinition: EntityDefinition = {
  name: outboxEntity,
  'x-internal': true,
  fields: {
    type: {type: 'string', required: true, length: 200},
    key: {type: 'string', required: true, length: 200, comment: 'What the event is about (`article:7`): events of one key are sent in commit order'},
    payload: {type: 'text', required: true},
    sentAt: {type: 'datetime', index: true},
    attempts: {type: 'integer', required: true, default: 0}
  }
}

/** A custom action's declared event: its type, and the entity whose record is its data when the route says. */
export interface RouteEvent {
  type: string
  payload?: string
}

/** The events a route declares (`events: ['book.shipped', {type: 'book.sold', payload: 'book'}]`), one reading. */
export function routeEvents(route: RouteOptions | string | undefined): RouteEvent[] {
  if (typeof route !== 'object' || !route) return []
  return (route.events ?? []).map((item) => (typeof item === 'string' ? {type: item} : {type: item.type, ...(item.payload ? {payload: item.payload} : {})}))
}

/**
 * Whether a project has an outbox: something declares events. It does not depend on `events.url`, so that the
 * schema (and the migrations) stay the same wherever the app runs; without a broker, nothing is recorded.
 */
export function declaresEvents(entities: readonly EntityDefinition[], routeEvents: number): boolean {
  return routeEvents > 0 || entities.some((entity) => entity.events)
}

/** The write events an entity declares (`events: true` is all three). */
export function declaredWrites(entity: EntityDefinition): Array<'created' | 'updated' | 'deleted'> {
  if (entity.events === true) return ['created', 'updated', 'deleted']
  return Array.isArray(entity.events) ? entity.events : []
}

/**
 * Insert events into the outbox inside the caller's transaction (`em` is the transaction's entity manager). One
 * native insert: the rows are never read back as entities, and a second flush would compute change sets for every
 * entity the write loaded (in bench/scale.js on SQLite in WAL mode, writes with events went from 0.67x to 0.74x of
 * the same writes without).
 */
export async function recordEvents(em: EntityManager, events: ReadonlyArray<OutboxEvent>): Promise<void> {
  if (events.length === 0) return
  // Plain SQL with parameters: building the insert through the query builder cost more than running it.
  await execute(em, outboxInsert(events.length, (name) => em.getPlatform().quoteIdentifier(name)), outboxValues(events), 'run')
}

/** The insert of `count` outbox rows, identifiers quoted by `quote`; its parameters are {@link outboxValues}. */
export function outboxInsert(count: number, quote: (name: string) => string): string {
  return `insert into ${quote(outboxEntity)} (${['type', 'key', 'payload', 'attempts'].map(quote).join(', ')}) values ${Array.from({length: count}, () => '(?, ?, ?, 0)').join(', ')}`
}

/** The parameters of {@link outboxInsert} for `events`. */
export function outboxValues(events: ReadonlyArray<OutboxEvent>): unknown[] {
  return events.flatMap(({event, key}) => [event.type, key, JSON.stringify(event)])
}

/** SQL with parameters on `em`'s connection (in its transaction, when it has one): rows for `all`, nothing for `run`. */
export function execute(em: EntityManager, sql: string, params: unknown[] = [], method: 'all' | 'run' = 'all'): Promise<Array<Record<string, unknown>>> {
  return (em as unknown as {execute(sql: string, params: unknown[], method: string): Promise<Array<Record<string, unknown>>>}).execute(sql, params, method)
}

/** Internal entities (the outbox) are tables, not API: no routes, no types, no catalogue rows. */
export function isInternal(entity: EntityDefinition): boolean {
  return entity['x-internal'] === true
}
