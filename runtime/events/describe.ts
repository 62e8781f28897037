/**
 * The events of a project as data, like routes.ts for routes: what `pipe map` lists as EVENT endpoints and
 * `pipe asyncapi` as channels. Entities' write events (`book.created`) belong to the controller that serves the
 * entity; a custom action's declared events to its controller.
 */
import type {ControllerDefinition} from '../../schemas/types/controller.js'
import type {EntityDefinition} from '../../schemas/types/entity.js'
import type {ResolvedConfig} from '../config.js'
import {tableOf} from '../entity-schema.js'
import {typeName} from '../generate.js'
import {declaredWrites, routeEvents} from './outbox.js'

export interface EventInfo {
  /** The CloudEvents `type` (`book.created`). */
  type: string
  /** Where it is published: the subject, routing key or stream name (`events.prefix` + type). */
  subject: string
  controller: string
  summary: string
  /** The catalogue type of the event's `data`, when known (the entity's, or the `payload` a custom action declares). */
  payload?: string
  /** The table the event is about. */
  table?: string
  /** The controller route that declares it (custom events), for sources. */
  route?: string
}

const past = {created: 'created', updated: 'updated', deleted: 'deleted'} as const

/** Every event a project declares, entity events first, in definition order. */
export function describeEvents(config: Pick<ResolvedConfig, 'events'>, entities: readonly EntityDefinition[], controllers: ReadonlyArray<{definition: ControllerDefinition}>): EventInfo[] {
  const prefix = config.events?.prefix ?? ''
  const byName = new Map(entities.map((entity) => [entity.name, entity]))
  const events: EventInfo[] = []
  for (const entity of entities) {
    const controller = controllers.find(({definition}) => (definition.entity ?? definition.name) === entity.name)?.definition.name ?? entity.name
    for (const write of declaredWrites(entity)) {
      const type = `${entity.name}.${write}`
      events.push({type, subject: prefix + type, controller, summary: `A ${entity.name.replace(/_/g, ' ')} was ${past[write]}`, payload: typeName(entity.name), table: tableOf(entity)})
    }
  }
  for (const {definition} of controllers) {
    for (const [key, value] of Object.entries(definition.routes)) {
      // What an action publishes is its code's own: the documents name a payload only where the route declares one
      // (the route's response need not be it: an action may publish less than it answers).
      for (const {type, payload} of routeEvents(value)) {
        if (events.some((event) => event.type === type)) continue
        const entity = payload ? byName.get(payload) : undefined
        events.push({type, subject: prefix + type, controller: definition.name, summary: `Published by \`${key}\``, payload: entity ? typeName(entity.name) : undefined, table: entity ? tableOf(entity) : undefined, route: key})
      }
    }
  }
  return events
}
