/**
 * Relations written and answered `by` a unique field of their target (`"tagList": {"entity": "tag", "by": "name"}`):
 * a body gives `["dragons", "go"]` where it would give keys, and an answer shows the same. Values no record has are
 * a 422, or new records when the relation says `createMissing`.
 */
import {Collection, type EntityManager, type FilterQuery} from '@mikro-orm/core'
import type {RelationDefinition} from '../../schemas/types/entity.js'
import type {EntityModel} from './model.js'
import {unprocessable} from './problem.js'

type Row = Record<string, unknown>

/** The relations of a model answered by a field of their target; they are always loaded with the record. */
export function byRelations(model: EntityModel): string[] {
  return [...model.relations].filter(([, relation]) => relation.by).map(([name]) => name)
}

/** Replace `by` values in a write body with the records they name, creating missing ones where allowed. */
export async function resolveByRelations(em: EntityManager, model: EntityModel, data: Row): Promise<void> {
  const problems = []
  for (const name of byRelations(model)) {
    const value = data[name]
    if (value === undefined || value === null) continue
    const relation = model.relations.get(name)!
    const wanted = [...new Set((Array.isArray(value) ? value : [value]) as unknown[])]
    const found = (await em.find(relation.entity, {[relation.by!]: {$in: wanted}} as FilterQuery<object>)) as Row[]
    const byValue = new Map(found.map((record) => [record[relation.by!], record]))
    for (const item of wanted) {
      if (byValue.has(item)) continue
      if (relation.createMissing) byValue.set(item, em.create(relation.entity, {[relation.by!]: item}) as Row)
      else problems.push({pointer: `/${name}`, code: 'unknown-reference', detail: `No ${relation.entity} has ${relation.by} \`${String(item)}\``})
    }
    data[name] = Array.isArray(value) ? wanted.map((item) => byValue.get(item)) : byValue.get(value)
  }
  if (problems.length > 0) throw unprocessable(problems)
}

/** A `by` relation as an answer shows it: the target field's values of a loaded list, or of one loaded record. */
export function answeredBy(relation: RelationDefinition, related: unknown): unknown {
  if (related instanceof Collection) return related.isInitialized() ? related.getItems().map((item) => (item as Row)[relation.by!]) : []
  return related && typeof related === 'object' ? (related as Row)[relation.by!] : (related ?? null)
}
