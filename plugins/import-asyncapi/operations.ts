/**
 * The operations an application publishes, in AsyncAPI 2.x (`subscribe` under a channel: clients subscribe to what
 * the application sends) and 3.0 (`action: send`), with what the importer needs of each.
 */
import type {JsonRefs} from '../shared/json-refs.js'
import {record as asRecord, text as str} from '../shared/readers.js'

type Record_ = Record<string, unknown>

/** One published operation. */
export interface Published {
  /** operationId (2.x) or the operation's key (3.0), if any. */
  id?: string
  /** The channel address (2.x: the channel's key; 3.0: `address`, else the key). */
  address: string
  /** Channel parameters by name. */
  parameters: Record_
  /** The channel, resolved (its description says what flows through it when the operation does not). */
  channel: Record_
  operation: Record_
  /** The messages it sends, unresolved, with the key they are listed under when there is one. */
  messages: Array<{message: unknown; key?: string}>
}

/**
 * The published operations of a document, how many received ones were left out, and the keys of 3.0 operations whose
 * `action` is neither `send` nor `receive` (left out too; the importer says so).
 */
export function publishedOperations(document: Record_, refs: JsonRefs): {published: Published[]; received: number; unknownActions: string[]} {
  const published: Published[] = []
  const unknownActions: string[] = []
  let received = 0
  if (String(document.asyncapi).startsWith('2.')) {
    for (const [address, raw] of Object.entries(asRecord(document.channels))) {
      const channel = asRecord(refs.resolve(raw).value)
      if (channel.publish) received++
      const operation = withTraits(asRecord(channel.subscribe), refs)
      if (!channel.subscribe) continue
      const message = refs.resolve(operation.message).value as Record_ | undefined
      const messages = (Array.isArray(message?.oneOf) ? (message!.oneOf as unknown[]) : operation.message ? [operation.message] : []).map((item) => ({message: item}))
      published.push({id: str(operation.operationId), address, parameters: asRecord(channel.parameters), channel, operation, messages})
    }
    return {published, received, unknownActions}
  }
  for (const [key, raw] of Object.entries(asRecord(document.operations))) {
    const operation = withTraits(asRecord(refs.resolve(raw).value), refs)
    if (operation.action !== 'send') {
      if (operation.action !== 'receive') {
        unknownActions.push(key)
        continue
      }
      received++
      // What the application answers a request it receives with (3.0 request/reply) is a message it sends.
      const reply = replyOf(key, operation, refs)
      if (reply) published.push(reply)
      continue
    }
    const channelRef = refs.resolve(operation.channel)
    // A channel ref that leads nowhere is an `asyncapi-ref` finding: the operation has no address to list.
    if (channelRef.missing !== undefined) continue
    const channel = asRecord(channelRef.value)
    const address = str(channel.address) ?? channelRef.name ?? key
    const messages =
      Array.isArray(operation.messages) && operation.messages.length > 0
        ? operation.messages.map((item: unknown) => ({message: item}))
        : Object.entries(asRecord(channel.messages)).map(([name, item]) => ({message: item, key: name}))
    published.push({id: key, address, parameters: asRecord(channel.parameters), channel, operation, messages})
  }
  return {published, received, unknownActions}
}

/**
 * The reply of a received operation (AsyncAPI 3.0 `reply`), as the operation the application sends it by: its
 * channel's address, else the reply address's runtime expression (`$message.header#/replyTo`), and its messages,
 * else the channel's. Named `<key>Reply`, with the operation's tags and security; undefined without a reply, or
 * when its channel leads nowhere (an `asyncapi-ref` finding).
 */
function replyOf(key: string, operation: Record_, refs: JsonRefs): Published | undefined {
  const reply = asRecord(refs.resolve(operation.reply).value)
  if (reply.channel === undefined && reply.address === undefined) return undefined
  const channelRef = refs.resolve(reply.channel)
  if (reply.channel !== undefined && channelRef.missing !== undefined) return undefined
  const channel = asRecord(channelRef.value)
  const address = str(channel.address) ?? str(asRecord(refs.resolve(reply.address).value).location) ?? channelRef.name ?? `${key}Reply`
  const messages =
    Array.isArray(reply.messages) && reply.messages.length > 0
      ? reply.messages.map((item: unknown) => ({message: item}))
      : Object.entries(asRecord(channel.messages)).map(([name, item]) => ({message: item, key: name}))
  const sent: Record_ = {summary: `The reply to \`${key}\``, ...(operation.tags ? {tags: operation.tags} : {}), ...(operation.security ? {security: operation.security} : {})}
  return {id: `${key}Reply`, address, parameters: asRecord(channel.parameters), channel, operation: sent, messages}
}

/**
 * An operation or message with its `traits` applied: what a trait says and the object itself does not (tags, a
 * summary, a name) counts as the object's; the object's own values win, as AsyncAPI 3.0 specifies.
 */
export function withTraits(node: Record_, refs: JsonRefs): Record_ {
  if (!Array.isArray(node.traits) || node.traits.length === 0) return node
  const merged: Record_ = {}
  for (const trait of node.traits) Object.assign(merged, asRecord(refs.resolve(trait).value))
  return {...merged, ...node}
}

/**
 * The protocol bindings a document writes anywhere (servers, channels, operations, messages, components), which the
 * catalogue has no place for: how many objects have them, and for which protocols.
 */
export function bindingsOf(document: Record_): {count: number; protocols: string[]} {
  const protocols = new Set<string>()
  let count = 0
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return
    if (Array.isArray(node)) return node.forEach(walk)
    for (const [key, value] of Object.entries(node)) {
      if (key === 'bindings' && value && typeof value === 'object' && !Array.isArray(value)) {
        const names = Object.keys(value).filter((name) => name !== '$ref')
        if (names.length > 0 || '$ref' in value) count++
        names.forEach((name) => protocols.add(name))
      } else if (key !== 'examples' && key !== 'payload') walk(value)
    }
  }
  walk(document)
  return {count, protocols: [...protocols].sort()}
}
