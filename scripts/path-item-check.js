// A fast way through the OpenAPI 3.0 check for valid Path Item objects, with their operations, parameters, request
// bodies, responses, callbacks, links and servers (used by build-validators.js, beside schema-object-check.js; held
// to the official schema's verdicts by test/openapi-validators.test.ts).
//
// ajv's code for a path item checks every object in it against each keyword of its definition in turn, and each
// parameter against the four locations of `oneOf` (Microsoft Graph's 11,422 operations: ~100 ms of its `pipe map`).
// `validPathItem` reads the keys each object has instead, and says only "valid": the build puts it in front of ajv's
// function for Path Item objects, which runs as before on a path item it does not pass (so every error is ajv's own).
// It must never pass a path item that the official schema refuses; it may refuse one that is valid (ajv then decides).

import {changedDefinitions, definitionFunction, inFrontOf} from './in-front-of-ajv.js'
import {objectChecks} from './object-checks.js'

/**
 * The test of whether a value is a valid OpenAPI 3.0 Path Item object, everything in it valid, given the test of a
 * Schema object (`validSchema`, schema-object-check.js) and the shared tests (object-checks.js). Self-contained but
 * for those: its source is written into the built validator, which calls it once.
 */
export function pathItemCheck(validSchema, {plainObject, string, boolean, anything, oneOf, listOf, object}) {
  const strings = listOf(string)
  const valuesAll = (value, test) => {
    if (!plainObject(value)) return false
    for (const key in value) if (Object.hasOwn(value, key) && !test(value[key])) return false
    return true
  }
  // A Reference object is any object whose `$ref` is a string; every other definition beside it in a `oneOf` refuses
  // such an object (no `$ref` among its keys, or a path item's object there), so the `oneOf` is that test or the other.
  const orReference = (test) => (value) => (plainObject(value) && typeof value.$ref === 'string') || test(value)
  const schemaOrReference = orReference(validSchema)
  const externalDocumentation = object({description: string, url: string}, ['url'])
  const serverVariable = object({enum: strings, default: string, description: string}, ['default'])
  const server = object({url: string, description: string, variables: (value) => valuesAll(value, serverVariable)}, ['url'])
  const servers = listOf(server)
  const example = object({summary: string, description: string, value: anything, externalValue: string})
  const examples = (value) => valuesAll(value, orReference(example))
  // Example and examples are mutually exclusive.
  const oneExampleKind = (value) => value.example === undefined || value.examples === undefined
  const link = (() => {
    const keys = object({operationId: string, operationRef: string, parameters: plainObject, requestBody: anything, description: string, server})
    return (value) => keys(value) && (value.operationId === undefined || value.operationRef === undefined)
  })()
  let header
  const encoding = object({
    contentType: string,
    headers: (value) => valuesAll(value, orReference(header)),
    style: oneOf('form', 'spaceDelimited', 'pipeDelimited', 'deepObject'),
    explode: boolean,
    allowReserved: boolean
  })
  const mediaType = (() => {
    const keys = object({schema: schemaOrReference, example: anything, examples, encoding: (value) => valuesAll(value, encoding)})
    return (value) => keys(value) && oneExampleKind(value)
  })()
  const content = (value) => valuesAll(value, mediaType)
  // A parameter's or a header's `content`: one media type.
  const oneContent = (value) => content(value) && Object.keys(value).length === 1
  // Schema and content are mutually exclusive, and one is required; beside content, no style, explode,
  // allowReserved, example or examples.
  const schemaOrContent = (value) =>
    value.content === undefined
      ? value.schema !== undefined
      : value.schema === undefined && ['style', 'explode', 'allowReserved', 'example', 'examples'].every((key) => value[key] === undefined)
  const serialized = {description: string, required: boolean, deprecated: boolean, allowEmptyValue: boolean, explode: boolean, allowReserved: boolean, schema: schemaOrReference, content: oneContent, example: anything, examples}
  header = (() => {
    const keys = object({...serialized, style: oneOf('simple')})
    return (value) => keys(value) && oneExampleKind(value) && schemaOrContent(value)
  })()
  const styles = {path: ['matrix', 'label', 'simple'], query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'], header: ['simple'], cookie: ['form']}
  const parameter = (() => {
    const keys = object({...serialized, name: string, in: string, style: string}, ['name', 'in'])
    return (value) => {
      if (!keys(value) || !oneExampleKind(value) || !schemaOrContent(value) || !Object.hasOwn(styles, value.in)) return false
      // Exactly one location's rule: its style, and a path parameter required.
      return (value.style === undefined || styles[value.in].includes(value.style)) && (value.in !== 'path' || value.required === true)
    }
  })()
  // `uniqueItems`: ajv compares the items deeply. Items that differ in their reference or their name and location
  // are never equal; a list with two alike is left to ajv.
  const parameterList = listOf(orReference(parameter))
  const parameters = (value) => {
    if (!parameterList(value)) return false
    const seen = new Set()
    for (let index = 0; index < value.length; index++) {
      const item = value[index]
      const key = typeof item.$ref === 'string' ? `$ref ${item.$ref}` : `${item.in} ${item.name}`
      if (seen.has(key)) return false
      seen.add(key)
    }
    return true
  }
  const requestBody = object({description: string, content, required: boolean}, ['content'])
  const response = object(
    {description: string, headers: (value) => valuesAll(value, orReference(header)), content, links: (value) => valuesAll(value, orReference(link))},
    ['description']
  )
  const responseOrReference = orReference(response)
  const statusCode = /^[1-5](?:\d{2}|XX)$/u
  const responses = (value) => {
    if (!plainObject(value) || Object.keys(value).length < 1) return false
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue
      if (key === 'default' || statusCode.test(key)) {
        if (!responseOrReference(value[key])) return false
      } else if (!key.startsWith('x-')) return false
    }
    return true
  }
  const securityRequirement = (value) => valuesAll(value, strings)
  let pathItem
  // A callback: its `x-…` keys anything, every other key a path item.
  const callback = (value) => {
    if (!plainObject(value)) return false
    for (const key in value) if (Object.hasOwn(value, key) && !key.startsWith('x-') && !pathItem(value[key])) return false
    return true
  }
  const operation = object(
    {
      tags: strings,
      summary: string,
      description: string,
      externalDocs: externalDocumentation,
      operationId: string,
      parameters,
      requestBody: orReference(requestBody),
      responses,
      callbacks: (value) => valuesAll(value, orReference(callback)),
      deprecated: boolean,
      security: listOf(securityRequirement),
      servers
    },
    ['responses']
  )
  pathItem = object({
    $ref: string,
    summary: string,
    description: string,
    get: operation,
    put: operation,
    post: operation,
    delete: operation,
    options: operation,
    head: operation,
    patch: operation,
    trace: operation,
    servers,
    parameters
  })
  return pathItem
}

/**
 * The definitions of the official OpenAPI 3.0 schema that `pathItemCheck` was written from, each by the first 16 hex
 * digits of the SHA-256 of its JSON: a change to any of them stops the build until the test is read again.
 */
export const writtenFor = {
  PathItem: 'a9fd57302a3b02cd',
  Operation: '788999aa0511c0fc',
  Parameter: '054a5493983cbf03',
  PathParameter: 'e56cdb0cdf0b6ebc',
  QueryParameter: '7c2d5efc2b11716f',
  HeaderParameter: 'ce444e838a9bdc5c',
  CookieParameter: '09db2d94f87e979b',
  ExampleXORExamples: 'e36e06864524acda',
  SchemaXORContent: '7c5da5f649d76911',
  RequestBody: 'bc5bc518bb6a008b',
  MediaType: '182f9bc416977ece',
  Encoding: '63070690b24b2d76',
  Header: '2efd8b3a5ba85f05',
  Example: '15d2d14ffb4963d5',
  Responses: 'ca0c5cf2f0b0f224',
  Response: '147757686467ac2a',
  Link: 'ec5f95a3407f635e',
  Callback: 'cb93c9b5e7f05cf3',
  SecurityRequirement: 'b2bb78587c072891',
  Server: 'fb0b3d7ced42b73d',
  ServerVariable: 'c717a5a7de3f1099',
  ExternalDocumentation: 'd4a4bc4103271346',
  Reference: '7e5fed35d0950188'
}

/**
 * The standalone validator `code` of the OpenAPI 3.0 schema `schema`, with the Schema objects' fast test in it
 * already (`validSchemaObject`, see schema-object-check.js), with `validPathItem` in front of its function for Path
 * Item objects. Throws when the schema is not the one it was written for, or the function is not found once, so that
 * an update of the schemas or of ajv is looked at rather than passed through.
 */
export function withPathItemCheck(code, schema) {
  const differs = changedDefinitions(schema, writtenFor)
  if (differs.length > 0) throw new Error(`path-item-check.js was written for another OpenAPI 3.0 schema: ${differs.join(', ')} changed`)
  if (!code.includes('\nconst validSchemaObject = ')) throw new Error('path-item-check.js: the Schema objects\' test is not in the code')
  const name = definitionFunction(code, '{"type":"object","properties":{"$ref":{"type":"string"},"summary":{"type":"string"},"description":{"type":"string"},"get"', 'path-item-check.js: the Path Item object')
  return inFrontOf(code, name, 'validPathItem', `(${pathItemCheck.toString()})(validSchemaObject, (${objectChecks.toString()})())`)
}
