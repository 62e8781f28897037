/**
 * Events plugin: when the project declares events and `events.url` names a broker, writes record their events in the
 * outbox (request.ts) and a relay sends them after commit; the relay starts with the server and stops with it,
 * after the requests in flight. Also `GET /health` (the process answers) and `GET /ready` (the database and the
 * broker answer), outside rate limits and the catalogue.
 */
import type {FastifyInstance} from 'fastify'
import fp from 'fastify-plugin'
import {brokerOf, type Broker} from '../events/brokers.js'
import {declaredWrites, outboxEntity, routeEvents} from '../events/outbox.js'
import {Relay} from '../events/relay.js'
import {problemBody} from '../http/problem.js'
import type {Project} from '../project.js'
import {projectInfo} from '../config.js'

/** What request.ts needs to record events. */
export interface EventsRuntime {
  /** Whether events are recorded (a broker is configured and the outbox exists). */
  recording: boolean
  /** The CloudEvents `source`. */
  source: string
  /** The write events each entity declares, by entity name. */
  writes: ReadonlyMap<string, ReadonlySet<string>>
  /** Event types any hook or action may publish: the entities' and the routes' declared ones. */
  types: ReadonlySet<string>
  /**
   * The record an event is about, by type: the entity and its key's name, for the entities' write events and the
   * routes' events that declare a `payload`, so that a published event's `subject` is the record's key.
   */
  records: ReadonlyMap<string, {entity: string; primaryKey: string}>
  /** Events were committed: wake the relay. */
  committed(): void
}

declare module 'fastify' {
  interface FastifyInstance {
    events: EventsRuntime
  }
}

export const eventsPlugin = fp(
  async (app: FastifyInstance, {project}: {project: Project}) => {
    const {config} = project
    const writes = new Map(project.entities.map((entity) => [entity.name, new Set(declaredWrites(entity))]))
    const declared = project.controllers.flatMap(({definition}) => Object.values(definition.routes).flatMap((route) => routeEvents(route)))
    const types = new Set([...[...writes].flatMap(([entity, kinds]) => [...kinds].map((kind) => `${entity}.${kind}`)), ...declared.map((event) => event.type)])
    const records = new Map<string, {entity: string; primaryKey: string}>()
    for (const {type, payload} of declared) {
      const model = payload ? app.models.get(payload) : undefined
      if (model && !records.has(type)) records.set(type, {entity: model.name, primaryKey: model.primaryKey})
    }
    const recording = Boolean(config.events?.url) && app.models.has(outboxEntity)
    const broker: Broker | undefined = recording ? brokerOf(config.events!.url, {exchange: config.events!.exchange}) : undefined
    // With `--workers`, the first worker relays (APIPE_RELAY=0 in the others): one relay per SQLite file.
    const relay = broker && process.env.APIPE_RELAY !== '0' ? new Relay(app.orm.em, broker, {database: config.database.type, prefix: config.events?.prefix, log: (message) => app.log.warn(message)}) : undefined
    if (types.size > 0 && !recording) app.log.warn('events are declared but pipe.config.json has no events.url: they are not published')
    app.decorate('events', {
      recording,
      source: config.events?.source ?? `/${projectInfo(project.root).title}`,
      writes,
      types,
      records,
      committed: () => relay?.notify()
    } satisfies EventsRuntime)
    app.addHook('onReady', async () => relay?.start())
    app.addHook('onClose', async () => {
      await relay?.stop()
      await broker?.close()
    })
    healthRoutes(app, broker)
  },
  {name: 'apipe-events', dependencies: ['apipe-orm']}
)

/** `GET /health` and `GET /ready`, unless the project routes those paths itself. */
function healthRoutes(app: FastifyInstance, broker: Broker | undefined): void {
  const free = (url: string) => !app.hasRoute({method: 'GET', url})
  if (free('/health')) app.get('/health', async () => ({status: 'ok'}))
  if (!free('/ready')) return
  app.get('/ready', async (_request, reply) => {
    const database = (await app.orm.checkConnection().catch(() => ({ok: false}))).ok
    const checks: Record<string, 'up' | 'down'> = {database: database ? 'up' : 'down'}
    if (broker) checks.broker = (await broker.reachable()) ? 'up' : 'down'
    // Without its broker the app still serves: writes keep their events in the outbox until it is back. Only a
    // database that does not answer takes it out of rotation.
    if (database) return {status: checks.broker === 'down' ? 'degraded' : 'ready', checks}
    reply.header('retry-after', '5')
    return reply.code(503).type('application/problem+json').send({...problemBody(503, 'Not ready: the database does not answer'), checks})
  })
}
