/**
 * The AsyncAPI 3.0 document of a project (`pipe asyncapi`): one channel per declared event (its address the subject),
 * one `send` operation per event, tagged with its controller, and the entities' schemas as message payloads.
 * `pipe import asyncapi` reads it back to the events `pipe map` lists.
 */
import type {EntityDefinition} from '../schemas/types/entity.js'
import type {ProjectInfo, ResolvedConfig} from './config.js'
import {describeEvents} from './events/describe.js'
import {isInternal} from './events/outbox.js'
import {entityJsonSchema} from './openapi.js'
import type {DescribedController} from './routes.js'
import {typeName} from './generate.js'

type Json = Record<string, unknown>

const cloudEventNote = 'A CloudEvents 1.0 JSON message (structured mode): the payload is the envelope, and its `data` the record.'

/**
 * The payload of a message as the broker carries it: the CloudEvents envelope (runtime/events/cloudevent.ts), with
 * `data` the record; `subject` (the record's key) only where there may be a record.
 */
function envelopeSchema(data: Json, record: boolean): Json {
  const properties: Json = {
    specversion: {type: 'string', const: '1.0'},
    id: {type: 'string', format: 'uuid'},
    source: {type: 'string', format: 'uri-reference'},
    type: {type: 'string', description: 'The event type, the channel\'s (`book.created`)'},
    time: {type: 'string', format: 'date-time'},
    datacontenttype: {type: 'string', const: 'application/json'},
    ...(record ? {subject: {type: 'string', description: "The record's key"}} : {}),
    data
  }
  // An action's event of a record has no subject when its data lacks the key.
  return {type: 'object', properties, required: ['specversion', 'id', 'source', 'type', 'time', 'datacontenttype', 'data']}
}

export function asyncapiDocument(config: ResolvedConfig, entities: readonly EntityDefinition[], controllers: readonly DescribedController[], info: ProjectInfo): Json {
  const visible = entities.filter((entity) => !isInternal(entity))
  const byName = new Map(visible.map((entity) => [entity.name, entity]))
  const events = describeEvents(config, visible, controllers)
  const channels: Json = {}
  const operations: Json = {}
  const messages: Json = {}
  const schemas: Json = {}
  for (const event of events) {
    const message = event.payload ?? `${typeName(event.type.replace(/\./g, '_'))}Data`
    const entity = [...byName.values()].find((item) => typeName(item.name) === event.payload)
    // A custom action's event without a declared `payload` carries what its code publishes: any JSON, said so.
    const undeclared = entity ? '' : ` The data is what \`${event.route ?? event.type}\` publishes: its route declares no \`payload\`, so there is no record, and no \`subject\`.`
    messages[message] ??= {name: message, contentType: 'application/cloudevents+json', description: cloudEventNote + undeclared, payload: envelopeSchema(entity ? {$ref: `#/components/schemas/${message}`} : {}, entity !== undefined)}
    channels[event.type] = {address: event.subject, messages: {[message]: {$ref: `#/components/messages/${message}`}}}
    operations[event.type] = {
      action: 'send',
      channel: {$ref: `#/channels/${event.type}`},
      summary: event.summary,
      tags: [{name: event.controller}],
      messages: [{$ref: `#/channels/${event.type}/messages/${message}`}]
    }
  }
  // Every entity's schema: a payload's relations refer to the others.
  if (events.length > 0) for (const entity of visible) schemas[typeName(entity.name)] = entityJsonSchema(entity, byName)
  const url = config.events?.url ? new URL(config.events.url) : undefined
  return {
    asyncapi: '3.0.0',
    info: {title: info.title, version: info.version},
    ...(url ? {servers: {broker: {host: url.host, protocol: url.protocol.replace(/:$/, '')}}} : {}),
    channels,
    operations,
    components: {messages, schemas}
  }
}
