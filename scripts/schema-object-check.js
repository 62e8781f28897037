// A fast way through the OpenAPI 3.0 check for valid Schema objects (used by build-validators.js; held to the official
// schema's verdicts by test/openapi-validators.test.ts).
//
// ajv's code for the Schema object (`#/definitions/Schema`, `additionalProperties: false` beside 33 properties) asks a
// schema for each of its properties in turn (`data.title !== undefined`, `data.multipleOf !== undefined`, …): 33
// lookups on objects of every shape, which V8 cannot cache, for each of GitHub REST's ~60,000 schemas (~55 ms of its
// `pipe map`). `validSchemaObject` reads the keys a schema has instead, and says only "valid": the build puts it in
// front of ajv's function, which runs as before on a schema it does not pass (so every error is ajv's own). It must
// never pass a schema that the official schema refuses; it may refuse one that is valid (ajv then decides).

import {changedDefinitions, definitionFunction, inFrontOf} from './in-front-of-ajv.js'

/**
 * The test of whether a value is a valid OpenAPI 3.0 Schema object, with every schema inside it valid (a Reference
 * object, `{$ref: <string>}`, is valid anywhere a schema may be). Self-contained: its source is written into the
 * built validator, which calls it once.
 */
export function schemaObjectCheck() {
  // Arrays are read by index, as ajv reads them: `every` would skip a hole, which ajv reads as `undefined`.
  const all = (list, test) => {
    for (let index = 0; index < list.length; index++) if (!test(list[index])) return false
    return true
  }
  const integerAtLeastZero = (value) => Number.isInteger(value) && value >= 0
  const plainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value)
  const schemaOrReference = (value) => plainObject(value) && (typeof value.$ref === 'string' || schema(value))
  const schemas = (value) => Array.isArray(value) && all(value, schemaOrReference)
  const strings = (value) => plainObject(value) && Object.values(value).every((item) => typeof item === 'string')
  const withOnly = (value, known) => Object.keys(value).every((key) => known.includes(key) || key.startsWith('x-'))
  const types = ['array', 'boolean', 'integer', 'number', 'object', 'string']
  const check = {
    title: (value) => typeof value === 'string',
    multipleOf: (value) => typeof value === 'number' && value > 0,
    maximum: (value) => typeof value === 'number',
    exclusiveMaximum: (value) => typeof value === 'boolean',
    minimum: (value) => typeof value === 'number',
    exclusiveMinimum: (value) => typeof value === 'boolean',
    maxLength: integerAtLeastZero,
    minLength: integerAtLeastZero,
    pattern: (value) => typeof value === 'string',
    maxItems: integerAtLeastZero,
    minItems: integerAtLeastZero,
    uniqueItems: (value) => typeof value === 'boolean',
    maxProperties: integerAtLeastZero,
    minProperties: integerAtLeastZero,
    required: (value) => Array.isArray(value) && value.length > 0 && all(value, (name) => typeof name === 'string') && new Set(value).size === value.length,
    enum: (value) => Array.isArray(value) && value.length > 0,
    type: (value) => types.includes(value),
    not: schemaOrReference,
    allOf: schemas,
    oneOf: schemas,
    anyOf: schemas,
    items: schemaOrReference,
    properties: (value) => plainObject(value) && Object.values(value).every(schemaOrReference),
    additionalProperties: (value) => typeof value === 'boolean' || schemaOrReference(value),
    description: (value) => typeof value === 'string',
    format: (value) => typeof value === 'string',
    default: () => true,
    nullable: (value) => typeof value === 'boolean',
    discriminator: (value) => plainObject(value) && typeof value.propertyName === 'string' && (value.mapping === undefined || strings(value.mapping)),
    readOnly: (value) => typeof value === 'boolean',
    writeOnly: (value) => typeof value === 'boolean',
    example: () => true,
    externalDocs: (value) => plainObject(value) && typeof value.url === 'string' && (value.description === undefined || typeof value.description === 'string') && withOnly(value, ['url', 'description']),
    deprecated: (value) => typeof value === 'boolean',
    xml: (value) =>
      plainObject(value) &&
      withOnly(value, ['name', 'namespace', 'prefix', 'attribute', 'wrapped']) &&
      ['name', 'namespace', 'prefix'].every((key) => value[key] === undefined || typeof value[key] === 'string') &&
      ['attribute', 'wrapped'].every((key) => value[key] === undefined || typeof value[key] === 'boolean')
  }
  function schema(value) {
    if (!plainObject(value)) return false
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue
      if (Object.hasOwn(check, key)) {
        if (!check[key](value[key])) return false
      } else if (!key.startsWith('x-')) return false
    }
    return true
  }
  return schema
}

/** See {@link schemaObjectCheck}. */
export const validSchemaObject = schemaObjectCheck()

/**
 * The definitions of the official OpenAPI 3.0 schema that `validSchemaObject` was written from, each by the first 16
 * hex digits of the SHA-256 of its JSON: a change to any of them, a keyword's type or range as much as a keyword
 * added, stops the build until the test is read again.
 */
export const writtenFor = {
  Schema: '3ea44a93691733a3',
  Reference: '7e5fed35d0950188',
  Discriminator: '42ae853f84c8e2fb',
  XML: '208ff0d37901b8fb',
  ExternalDocumentation: 'd4a4bc4103271346'
}

/**
 * The standalone validator `code` of the OpenAPI 3.0 schema `schema` with `validSchemaObject` in front of its
 * function for Schema objects. Throws when the schema is not the one it was written for, or the function is not
 * found once, so that an update of the schemas or of ajv is looked at rather than passed through.
 */
export function withSchemaObjectCheck(code, schema) {
  const differs = changedDefinitions(schema, writtenFor)
  if (differs.length > 0) throw new Error(`schema-object-check.js was written for another OpenAPI 3.0 schema: ${differs.join(', ')} changed`)
  const name = definitionFunction(code, '{"type":"object","properties":{"title":{"type":"string"},"multipleOf"', 'schema-object-check.js: the Schema object')
  return inFrontOf(code, name, 'validSchemaObject', `(${schemaObjectCheck.toString()})()`)
}
