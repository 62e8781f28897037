/**
 * What an operation says about its bodies beyond their types, for the page's reference: each response with its
 * description, body type, headers and example (`responses`), and the request body's description and example. Examples
 * come from a media type's `example`, else the first of its `examples` (its `value`), else the schema's `example`;
 * Swagger 2 keeps them in a response's `examples['application/json']`.
 */
import type {Response} from '../../schemas/types/endpoints.js'
import type {JsonRefs} from '../shared/json-refs.js'
import {pascal, record, text} from '../shared/readers.js'
import type {Context} from './context.js'

type Node = Record<string, unknown>

/** Whether a media type is JSON (`application/json`, `application/problem+json`, with or without parameters). */
export function isJsonMedia(type: string): boolean {
  return /^application\/(.+\+)?json/i.test(type)
}

/** A media type or range as a `content` key writes it (`application/json`, `text/*`, `*\/*`, with parameters). */
const mediaTypePattern = /^([\w!#$&^.+-]+|\*)\/([\w!#$&^.+-]+|\*)\s*(;.*)?$/

/**
 * The entries of a `content` map whose keys are media types. Another key (an example's name written where a media
 * type goes, as converted descriptions do: `access_token: {examples: …}`) is no way a body comes: left out, and told
 * to `drop` when given (once per map: the caller that lists the map's types passes it).
 */
export function contentEntries(refs: JsonRefs, content: unknown, drop?: Context['drop']): Array<[string, unknown]> {
  // `content: {$ref: …}` is not OpenAPI but split descriptions write it (Lob, 52 times): followed like any ref.
  const map = refs.resolve(content).value
  if (!map) return []
  const entries = Object.entries(map)
  const kept = entries.filter(([type]) => mediaTypePattern.test(type))
  if (drop && kept.length < entries.length) {
    const others = entries.filter(([type]) => !mediaTypePattern.test(type)).map(([type]) => `\`${type}\``)
    drop(`Left out ${others.join(', ')} of a \`content\` map: not a media type (expected \`type/subtype\`, such as \`application/json\`)`, map)
  }
  return kept
}

/** The JSON media type of a `content` map (`application/json`, `*\/*+json`), else its first. */
export function preferredMedia(refs: JsonRefs, content: unknown): Node | undefined {
  const entries = contentEntries(refs, content)
  const json = entries.find(([type]) => isJsonMedia(type)) ?? entries[0]
  return json ? refs.resolve(json[1]).value : undefined
}

/** The example of a media type object (or of a schema), when the source gives one. */
export function exampleOf(refs: JsonRefs, media: Node | undefined): unknown {
  if (!media) return undefined
  if (media.example !== undefined) return media.example
  const first = Object.values(record(media.examples))[0]
  if (first !== undefined) {
    const example = refs.resolve(first).value
    if (example && 'value' in example) return example.value
  }
  const schema = refs.resolve(media.schema).value
  return schema?.example
}

/**
 * Each documented response of an operation, in the source's order. A body that may come as several media types, or
 * as one that is not JSON, keeps them as `x-media-types` (OpenAPI 3: its `content`; Swagger 2: `produces` of the
 * operation, else the document's), so that `pipe diff` tells clients that ask for one by `Accept` when it goes.
 */
export function responsesOf({refs, types, document, drop}: Context, operation: Node, id: string): Response[] {
  const result: Response[] = []
  for (const [code, raw] of Object.entries(record(operation.responses))) {
    const status = /^[1-5]\d\d$/.test(code) ? Number(code) : /^(default|[1-5]XX)$/i.test(code) ? (code === 'default' ? 'default' : code.toUpperCase()) : undefined
    if (status === undefined) continue
    const resolved = refs.resolve(raw)
    const response = resolved.value ?? {}
    const entry: Response = {status}
    // A description beside the `$ref` (OpenAPI 3.1: it overrides the target's) says what this response means here.
    const description = (text(record(raw).description) ?? refs.text(response.description))?.trim()
    if (description) entry.description = description
    const media = preferredMedia(refs, response.content)
    // Swagger 2 puts the schema on the response; OpenAPI 3 under a media type.
    const schema = response.schema ?? media?.schema
    // An inline body is named after the shared response it is part of (`components/responses/UnauthorizedError`), else
    // after the operation and its code as written (`ListPets401Response`, `ListPets4XXResponse`).
    if (schema !== undefined) entry.type = types.bodyTypeOf(schema, resolved.name ?? (() => `${pascal(id)}${/^2/.test(code) ? '' : /^\d/.test(code) ? code.toUpperCase() : pascal(code)}Response`))
    const mediaTypes = response.schema === undefined ? contentEntries(refs, response.content, drop).map(([type]) => type) : stringsOf([operation.produces, document.produces].find(Array.isArray))
    if (entry.type !== undefined && (mediaTypes.length > 1 || (mediaTypes.length === 1 && !isJsonMedia(mediaTypes[0])))) entry['x-media-types'] = mediaTypes
    const headers = Object.entries(record(response.headers)).map(([name, rawHeader]) => {
      const header = refs.resolve(rawHeader).value ?? {}
      const headerSchema = header.schema ?? (header.type ? header : undefined)
      const type = headerSchema ? types.typeOf(headerSchema, () => pascal(`${name} header`)) : undefined
      // Its format, as a param keeps it (`X-Expires-After`: a `date-time` string).
      const format = type === undefined ? undefined : types.factsOf(headerSchema, type)['x-format']
      return {name, ...(type === undefined ? {} : {type}), ...(format ? {'x-format': format} : {}), ...(text(header.description) ? {description: String(header.description).trim()} : {})}
    })
    if (headers.length > 0) entry.headers = headers
    const example = exampleOf(refs, media) ?? record(response.examples)['application/json']
    if (example !== undefined) entry.example = example
    result.push(entry)
  }
  return result
}

function stringsOf(list: unknown): string[] {
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []
}
