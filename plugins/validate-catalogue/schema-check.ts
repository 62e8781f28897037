/**
 * The catalogue's JSON-Schema check with ajv (an ERD spec's, `schemas/erd.schema.json`, for a `diagram_type: "erd"`), compiled once per process and run once per tree; the `missing`,
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

const validators = new Map<'endpoints' | 'erd', ValidateFunction>()

/** Whether `spec` is an entity-relationship spec (`diagram_type: "erd"`, as `pipe map` writes beside a catalogue). */
export function isErd(spec: unknown): boolean {
  return (spec as {diagram_type?: unknown} | null)?.diagram_type === 'erd'
}

/** The schema violations of a catalogue, checked once per file and spec. */
export function catalogueSchemaViolations(tree: CatalogueTree, file: VFile): SchemaViolation[] {
  const known = file.data.schemaViolations
  if (known?.spec === tree.spec) return known.violations
  const violations = check(tree.spec)
  file.data.schemaViolations = {spec: tree.spec, violations}
  return violations
}

function check(spec: unknown): SchemaViolation[] {
  const name = isErd(spec) ? 'erd' : 'endpoints'
  let validate = validators.get(name)
  if (!validate) validators.set(name, (validate = loadValidator(name)))
  return schemaViolations(validate, spec)
}
