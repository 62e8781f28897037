/**
 * Rules `missing`, `type` and `schema`: the catalogue against `schemas/endpoints.schema.json` (an ERD spec against
 * `schemas/erd.schema.json`).
 *
 * - `missing` (error): a required field is absent (`endpoints[3].id`).
 * - `type` (error): a value of the wrong type, outside an enum, or not the constant (`method: "get"`).
 * - `schema` (error): any other violation: an unknown field (only `x-*` keys may be added), an empty id, a status
 *   outside 100–599.
 */
import type {CatalogueTree} from '../../../pipeline/data.js'
import {defineRule} from '../../../pipeline/rule.js'
import {catalogueSchemaViolations} from '../schema-check.js'
import type {SchemaViolation} from '../../../pipeline/schema-violations.js'

function schemaRule(id: SchemaViolation['kind']) {
  return defineRule<CatalogueTree>({id, severity: 'error'}, (tree, file, report) => {
    for (const problem of catalogueSchemaViolations(tree, file)) {
      if (problem.kind === id) report(problem.reason, {path: problem.path})
    }
  })
}

export const missing = schemaRule('missing')
export const type = schemaRule('type')
export const schema = schemaRule('schema')
