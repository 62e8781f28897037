/**
 * The catalogue's JSON-Schema check with ajv, compiled once per process and run once per tree; the `missing`,
 * `type` and `schema` rules each report their share of its errors.
 */
import type {ValidateFunction} from 'ajv'
import type {VFile} from 'vfile'
import type {CatalogueTree} from '../../pipeline/data.js'
import {loadValidator} from '../../pipeline/schemas.js'
import {schemaViolations, type SchemaViolation} from '../../pipeline/schema-violations.js'

declare module 'vfile' {
  interface DataMap {
    /** The catalogue's schema violations, checked once for the three rules that report them, with the spec checked. */
    schemaViolations: {spec: object; violations: SchemaViolation[]}
  }
}

let validate: ValidateFunction | undefined

/** The schema violations of a catalogue, checked once per file and spec. */
export function catalogueSchemaViolations(tree: CatalogueTree, file: VFile): SchemaViolation[] {
  const known = file.data.schemaViolations
  if (known?.spec === tree.spec) return known.violations
  const violations = check(tree.spec)
  file.data.schemaViolations = {spec: tree.spec, violations}
  return violations
}

function check(spec: unknown): SchemaViolation[] {
  validate ??= loadValidator('endpoints')
  return schemaViolations(validate, spec)
}
