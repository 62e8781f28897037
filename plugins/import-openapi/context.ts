/** What the OpenAPI import's modules share while they build the endpoints of one document. */
import type {JsonRefs} from '../shared/json-refs.js'
import type {SchemaTypes} from '../shared/schema-types.js'

/** What building an endpoint needs. */
export interface Context {
  document: Record<string, unknown>
  refs: JsonRefs
  types: SchemaTypes
  ids: Set<string>
  /** Told what the catalogue cannot hold, with the node it sits in: an `openapi-dropped` warning there, once a node. */
  drop: (reason: string, node: object) => void
}
