/**
 * The catalogue's JSON-Schema check with ajv, compiled once per process and run once per tree; the `missing`,
 * `type` and `schema` rules each report their share of its errors.
 */
import type {ValidateFunction} from 'ajv'
import type {CatalogueTree} from '../../pipeline/data.js'
import {loadValidator} from '../../pipeline/schemas.js'
import {schemaViolations, type SchemaViolation} from '../../pipeline/schema-violations.js'

let validate: ValidateFunction | undefined
const results = new WeakMap<object, SchemaViolation[]>()

/** The schema violations of a catalogue (memoized per spec object). */
export function catalogueSchemaViolations(tree: CatalogueTree): SchemaViolation[] {
  let problems = results.get(tree.spec)
  if (!problems) {
    problems = check(tree.spec)
    results.set(tree.spec, problems)
  }
  return problems
}

function check(spec: unknown): SchemaViolation[] {
  validate ??= loadValidator('endpoints')
  return schemaViolations(validate, spec)
}
