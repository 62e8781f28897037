/**
 * Computed fields (an entity's `computed`): a to-many relation's count (`favoritesCount`) and whether the viewer is in
 * it (`favorited`, `following`). Each is SQL over the table that links the two entities, read from MikroORM's
 * metadata (pivot table and join columns, or the other side's foreign key), so the names are the ORM's own:
 * - in answers, one grouped query per computed field for all the rows of the answer (never one per row);
 * - in `sort` and `filter`, a correlated subquery on the listed table (`raw()` with the row's alias).
 */
import {raw, type EntityManager} from '@mikro-orm/core'
import type {EntityModel} from './model.js'

type Row = Record<string, unknown>

/** A computed field as declared: what it does and over which relation. */
export interface ComputedField {
  name: string
  kind: 'count' | 'viewerIn'
  relation: string
}

/** The table linking an entity's rows to a relation's targets: owner column -> target column. */
interface Link {
  table: string
  owner: string
  target: string
}


/** Where MikroORM keeps a to-many relation: its pivot table (either side), or the other side's foreign key. */
function linkOf(em: EntityManager, model: EntityModel, relation: string): Link {
  const metadata = em.getMetadata()
  const property = metadata.find(model.name)!.properties[relation as never] as unknown as {kind: string; owner?: boolean; pivotTable: string; joinColumns: string[]; inverseJoinColumns: string[]; mappedBy: string; type: string}
  const target = metadata.find(property.type)!
  if (property.kind === 'm:n') {
    if (property.owner) return {table: property.pivotTable, owner: property.joinColumns[0], target: property.inverseJoinColumns[0]}
    const owning = target.properties[property.mappedBy as never] as unknown as {pivotTable: string; joinColumns: string[]; inverseJoinColumns: string[]}
    return {table: owning.pivotTable, owner: owning.inverseJoinColumns[0], target: owning.joinColumns[0]}
  }
  const back = target.properties[property.mappedBy as never] as unknown as {fieldNames: string[]}
  return {table: target.tableName, owner: back.fieldNames[0], target: target.properties[target.primaryKeys[0] as never].fieldNames[0]}
}

/**
 * A correlated subquery giving a computed field for the row aliased `alias` (a number: the count, or 0/1 for the
 * viewer's presence), for `sort` and `filter`.
 */
export function computedSql(em: EntityManager, model: EntityModel, field: ComputedField, viewer: unknown): unknown {
  const link = linkOf(em, model, field.relation)
  const quote = (name: string) => em.getPlatform().quoteIdentifier(name)
  const key = quote(em.getMetadata().find(model.name)!.properties[model.primaryKey as never].fieldNames[0])
  const base = `select count(*) from ${quote(link.table)} where ${quote(link.table)}.${quote(link.owner)} = `
  if (field.kind === 'count') return raw((alias: string) => `(${base}${alias}.${key})`)
  return raw((alias: string) => `(${base}${alias}.${key} and ${quote(link.table)}.${quote(link.target)} = ?)`, [viewer ?? null])
}

/** Set every computed field on answer rows (by their primary key) with one query per field. */
export async function fillComputed(em: EntityManager, model: EntityModel, rows: Row[], viewer: unknown, only?: readonly string[]): Promise<void> {
  const fields = [...model.computed.values()].filter((field) => !only || only.includes(field.name))
  const ids = rows.map((row) => row[model.primaryKey]).filter((id) => id !== undefined && id !== null)
  if (fields.length === 0 || ids.length === 0) return
  // Inside the action's transaction when there is one: a query beside it would wait for its connection.
  const knex = (em as unknown as {getKnex(): (table: string) => any}).getKnex()
  const transaction = em.getTransactionContext()
  const from = (table: string) => (transaction ? knex(table).transacting(transaction) : knex(table))
  for (const field of fields) {
    const link = linkOf(em, model, field.relation)
    const found = new Map<string, number>()
    if (field.kind === 'count') {
      const counted = (await from(link.table).select(`${link.owner} as owner`).count('* as n').whereIn(link.owner, ids).groupBy(link.owner)) as Array<{owner: unknown; n: unknown}>
      for (const {owner, n} of counted) found.set(String(owner), Number(n))
    } else if (viewer !== undefined && viewer !== null) {
      const present = (await from(link.table).select(`${link.owner} as owner`).whereIn(link.owner, ids).andWhere(link.target, viewer)) as Array<{owner: unknown}>
      for (const {owner} of present) found.set(String(owner), 1)
    }
    for (const row of rows) {
      const value = found.get(String(row[model.primaryKey])) ?? 0
      row[field.name] = field.kind === 'count' ? value : value > 0
    }
  }
}
