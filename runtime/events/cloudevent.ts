/** CloudEvents 1.0 in JSON structured mode: the one shape every broker receives. */
import {randomUUID} from 'node:crypto'

export interface CloudEvent {
  specversion: '1.0'
  id: string
  source: string
  type: string
  time: string
  datacontenttype: 'application/json'
  /** What the event is about (`7`, the record's key), when it is about one record. */
  subject?: string
  data: unknown
}

/** A new event of `type` from `source`. */
export function cloudEvent(type: string, source: string, data: unknown, subject?: string): CloudEvent {
  return {
    specversion: '1.0',
    id: randomUUID(),
    source,
    type,
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    ...(subject === undefined ? {} : {subject}),
    data
  }
}
