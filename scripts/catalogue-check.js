// A fast way through the catalogue's schema check for valid catalogues (used by build-validators.js; held to ajv's
// verdicts on schemas/endpoints.schema.json by test/catalogue-check.test.ts).
//
// Every import and `pipe validate` checks a catalogue against its schema; ajv's code asks each endpoint, param, type
// and field for every keyword of its definition in turn, and counts code points for each `minLength` (GitHub REST's
// catalogue, 1,493 endpoints and 2,452 types with ~38,000 fields: ~29 ms of its `pipe map` on an AMD host).
// `validCatalogue` reads the keys each object has instead, and says only "valid": the build puts it in front of ajv's
// function, which runs as before on a catalogue it does not pass (so every error is ajv's own). It must never pass a
// catalogue that the schema refuses; it may refuse one that is valid (ajv then decides).

import {digest, inFrontOf} from './in-front-of-ajv.js'
import {objectChecks} from './object-checks.js'

/**
 * The test of whether a value is a valid endpoint catalogue (schemas/endpoints.schema.json), given the shared tests
 * (object-checks.js). Self-contained but for those: its source is written into the built validator, which calls it
 * once.
 */
export function catalogueCheck({string, boolean, anything, oneOf, listOf, object}) {
  // `minLength: 1`: a string of at least one code point is one of at least one UTF-16 unit.
  const nonEmpty = (value) => typeof value === 'string' && value.length > 0
  const strings = listOf(string)
  const statusCode = (value) => Number.isInteger(value) && value >= 100 && value <= 599
  const enumValues = listOf((value) => typeof value === 'string' || Number.isFinite(value) || typeof value === 'boolean' || value === null)
  const meta = object({title: nonEmpty, base_url: string, version: string, api_kind: oneOf('rest', 'graphql', 'mixed'), repository: string, description: string, erd: nonEmpty}, ['title'])
  const group = object({id: nonEmpty, label: string, description: string}, ['id'])
  const param = object(
    {name: nonEmpty, in: oneOf('path', 'query', 'header', 'arg', 'body'), type: string, required: boolean, description: string, enum: enumValues, default: anything, example: anything},
    ['name', 'in']
  )
  const source = object({file: nonEmpty, line: (value) => Number.isInteger(value) && value >= 1}, ['file'])
  const header = object({name: nonEmpty, type: string, description: string}, ['name'])
  const responseStatus = (value) => statusCode(value) || (typeof value === 'string' && /^(default|[1-5]XX)$/u.test(value))
  const response = object({status: responseStatus, description: string, type: string, headers: listOf(header), example: anything}, ['status'])
  const endpoint = object(
    {
      id: nonEmpty,
      method: oneOf('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'QUERY', 'MUTATION', 'SUBSCRIPTION', 'EVENT'),
      path: nonEmpty,
      group: string,
      summary: string,
      description: string,
      auth: string,
      status: listOf(statusCode),
      params: listOf(param),
      request: string,
      response: string,
      entities: strings,
      deprecated: boolean,
      tags: strings,
      sources: listOf(source),
      request_description: string,
      request_example: anything,
      responses: listOf(response)
    },
    ['id', 'method', 'path']
  )
  const field = object({name: nonEmpty, type: string, required: boolean, description: string, enum: enumValues, default: anything, example: anything}, ['name'])
  const type = object(
    {name: nonEmpty, kind: oneOf('object', 'input', 'enum', 'interface', 'union', 'scalar'), description: string, fields: listOf(field), values: strings, members: strings},
    ['name']
  )
  const layout = object({
    columns: (value) => Number.isInteger(value) && value >= 1 && value <= 4,
    card_width: (value) => Number.isFinite(value) && value > 0,
    show_types: boolean
  })
  return object(
    {
      $schema: string,
      schema_version: (value) => value === 1,
      diagram_type: (value) => value === 'endpoints',
      meta,
      groups: listOf(group),
      endpoints: listOf(endpoint),
      types: listOf(type),
      layout
    },
    ['schema_version', 'diagram_type', 'meta', 'endpoints']
  )
}

/** See {@link catalogueCheck}. */
export const validCatalogue = catalogueCheck(objectChecks())

/**
 * The first 16 hex digits of the SHA-256 of the catalogue schema that `catalogueCheck` was written from, without the
 * words (`title`, `description`) that say nothing a value must meet: a change to any keyword stops the build until
 * the test is read again.
 */
export const writtenFor = 'b6e85a03767d10a5'

/** `schema`'s keywords without its words, as JSON, hashed (see {@link writtenFor}). */
export function keywordsDigest(schema) {
  return digest(schema, (key, value) => ((key === 'title' || key === 'description') && typeof value === 'string' ? undefined : value))
}

/**
 * The standalone validator `code` of the catalogue schema `schema` with `validCatalogue` in front of its root
 * function (the one the module exports). Throws when the schema is not the one it was written for, or the function
 * is not found once, so that a change of the schema or of ajv is looked at rather than passed through.
 */
export function withCatalogueCheck(code, schema) {
  if (keywordsDigest(schema) !== writtenFor) throw new Error(`catalogue-check.js was written for another catalogue schema (its keywords' digest is now ${keywordsDigest(schema)})`)
  const exported = [...code.matchAll(/module\.exports = (validate\d+);/g)].map((match) => match[1])
  if (exported.length !== 1) throw new Error(`catalogue-check.js: the exported function is found ${exported.length} times in ajv's code`)
  return inFrontOf(code, exported[0], 'validCatalogue', `(${catalogueCheck.toString()})((${objectChecks.toString()})())`)
}
