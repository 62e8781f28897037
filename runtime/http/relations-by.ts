/**
 * Relations written and answered `by` a unique field of their target (`"tagList": {"entity": "tag", "by": "name"}`):
 * a body gives `["dragons", "go"]` where it would give keys, and an answer shows the same. Values no record has are
 * a 422, or new records when the relation says `createMissing`, made in the write's transaction.
 */
import {Collection, LockMode, type EntityManager, type FilterQuery} from '@mikro-orm/core'
import {BaseSqlitePlatform, type SqlEntityManager} from '@mikro-orm/knex'
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
    const missing = wanted.filter((item) => !byValue.has(item))
    if (missing.length > 0 && relation.createMissing) {
      // Made at once, each one unless a record has it already: two requests that both name a new value (a tag) make
      // one record between them, where two inserts in their own flushes would meet on the unique field (a 409 of
      // the wrong record, or a deadlock on MariaDB). Sorted, so that concurrent writes lock the values in one order.
      // A statement of its own writes no value the ORM makes at a flush: those (a uuid key, timestamps to the
      // millisecond, defaults) are made here as the flush would make them.
      const made = em.getMetadata().get(relation.entity).props.filter((prop) => prop.onCreate)
      const rows = [...missing].sort().map((item) => {
        const row: Row = {[relation.by!]: item}
        for (const prop of made) row[prop.name] ??= prop.onCreate!(row, em)
        return row
      })
      await (em as unknown as SqlEntityManager).createQueryBuilder(relation.entity).insert(rows).onConflict(relation.by!).ignore().execute()
      // A locking read sees what a concurrent write committed after this transaction's first read, which MariaDB's
      // repeatable reads would not (a row the insert skipped for another's would not be found); SQLite has no such lock
      // (nor the concurrency: it writes one transaction at a time).
      const lockMode = em.getPlatform() instanceof BaseSqlitePlatform ? undefined : LockMode.PESSIMISTIC_READ
      const stored = (await em.find(relation.entity, {[relation.by!]: {$in: missing}} as FilterQuery<object>, {lockMode})) as Row[]
      for (const record of stored) byValue.set(record[relation.by!], record)
    }
    for (const item of missing) {
      if (!byValue.has(item)) problems.push({pointer: `/${name}`, code: 'unknown-reference', detail: `No ${relation.entity} has ${relation.by} \`${String(item)}\``})
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
