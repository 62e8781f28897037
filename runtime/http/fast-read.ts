/**
 * Reads that need no entity: `GET /posts/{id}` and plain pages of `GET /posts` (page, limit, sort; no filter,
 * populate or field selection) when no hook runs. They run prepared statements through a connection of their own and
 * turn rows into the same JSON the entity path answers, skipping hydration. This module is the dialect-neutral part
 * (which columns, in which order, the SQL, rows -> JSON); a small driver per database runs the statements and says how
 * its client answers each column type: fast-read-sqlite.ts (better-sqlite3, synchronous) and fast-read-postgres.ts
 * (node-postgres named statements on a pool).
 */
import {fieldColumn, relationColumn} from '../entity-schema.js'
import {answeredRelations, type ApiField, type EntityModel} from './model.js'

type Row = Record<string, unknown>

/** Turns a value as the database client answers it into the value the entity path's JSON shows. */
export type Convert = (value: unknown) => unknown

/** What one database needs to give the fast reads. */
export interface FastReadDriver {
  /** The text of the `index`-th (1-based) statement parameter: `?` or `$1`. */
  placeholder(index: number): string
  /** Converters for the field types whose client value differs from the entity path's JSON (others pass as they are). */
  convert: Partial<Record<ApiField['type'], Convert>>
  /** The first row of a statement, or undefined. */
  one(sql: string, values: unknown[]): Row | undefined | Promise<Row | undefined>
  /** Every row of a statement. */
  all(sql: string, values: unknown[]): Row[] | Promise<Row[]>
  /** Release the connection or the pool (when the server closes). */
  close(): void | Promise<void>
}

/** One column of an answer: the property it shows as, and how its value is converted. */
export interface Column {
  property: string
  column: string
  convert?: Convert
}

/** Every entity's model by name, for the key column of a relation (`author_id`, `sample_code`). */
export type Models = ReadonlyMap<string, EntityModel>

/** The foreign-key column of a many-to-one relation of `model`, named after the target's key as the ORM names it. */
export function foreignKeyColumn(models: Models, model: EntityModel, name: string): string {
  const target = models.get(model.relations.get(name)!.entity)
  return relationColumn(name, fieldColumn(target?.primaryKey ?? 'id'))
}

/**
 * The columns of a model's answers, in the order of the entity path's: the visible fields, the many-to-one keys, then
 * the timestamps.
 */
export function answerColumns(model: EntityModel, convert: FastReadDriver['convert'], models: Models): Column[] {
  const list: Column[] = []
  const add = (field: ApiField) => list.push({property: field.name, column: fieldColumn(field.name), convert: convert[field.type]})
  const stamps = ['createdAt', 'updatedAt']
  for (const field of model.fields.values()) if (field.visible && !(model.definition.timestamps && stamps.includes(field.name))) add(field)
  for (const [name, relation] of model.relations) {
    if (relation.kind === 'many-to-one') list.push({property: name, column: foreignKeyColumn(models, model, name)})
  }
  if (model.definition.timestamps) for (const name of stamps) add(model.fields.get(name)!)
  return list
}

/** A row as the entity path's JSON shows the record. */
export function presentRow(columns: readonly Column[], row: Row): Row {
  const out: Row = {}
  for (const {property, column, convert} of columns) {
    const value = row[column]
    out[property] = convert && value !== null && value !== undefined ? convert(value) : (value ?? null)
  }
  return out
}

/** A date as the entity path's JSON shows it (a `Date` serialises to its ISO string). */
export const toIsoDate: Convert = (value) => (value instanceof Date ? value.toISOString() : value)

/** The fast reads of one database. */
export class FastReader {
  readonly #driver: FastReadDriver
  readonly #models: Models
  readonly #columns = new Map<string, Column[]>()
  readonly #reads = new Map<string, {columns: Column[]; sql: string}>()

  constructor(driver: FastReadDriver, models: Models) {
    this.#driver = driver
    this.#models = models
  }

  /** Release the driver's connection or pool. */
  async close(): Promise<void> {
    await this.#driver.close()
  }

  #columnsOf(model: EntityModel): Column[] {
    let columns = this.#columns.get(model.name)
    if (!columns) {
      columns = answerColumns(model, this.#driver.convert, this.#models)
      this.#columns.set(model.name, columns)
    }
    return columns
  }

  /**
   * Whether the fast path can answer for the model: not with a one-to-one, a relation answered `by` a field or a
   * writable list (the entity path shows those).
   */
  supports(model: EntityModel): boolean {
    return ![...model.relations.values()].some((relation) => relation.kind === 'one-to-one') && answeredRelations(model).length === 0
  }

  #from(model: EntityModel): string {
    return `from "${model.definition.table ?? model.name}"${model.softDelete ? ' where "deleted_at" is null' : ''}`
  }

  /** One record by key, or undefined. */
  async read(model: EntityModel, id: unknown): Promise<Row | undefined> {
    let cached = this.#reads.get(model.name)
    if (!cached) {
      const columns = this.#columnsOf(model)
      const from = this.#from(model)
      const sql = `select ${columns.map(({column}) => `"${column}"`).join(', ')} ${from}${from.includes(' where ') ? ' and' : ' where'} "${fieldColumn(model.primaryKey)}" = ${this.#driver.placeholder(1)}`
      cached = {columns, sql}
      this.#reads.set(model.name, cached)
    }
    const row = await this.#driver.one(cached.sql, [id])
    return row && presentRow(cached.columns, row)
  }

  /** One page, sorted (default: by key), and the total when asked. */
  async list(model: EntityModel, page: {limit: number; offset: number; orderBy: Record<string, 'asc' | 'desc'>; count: boolean}): Promise<{rows: Row[]; total?: number}> {
    const columns = this.#columnsOf(model)
    const select = columns.map(({column}) => `"${column}"`).join(', ')
    const order = Object.keys(page.orderBy).length > 0 ? page.orderBy : {[model.primaryKey]: 'asc' as const}
    const orderBy = Object.entries(order).map(([name, direction]) => `"${fieldColumn(name)}" ${direction}`).join(', ')
    const from = this.#from(model)
    const {placeholder} = this.#driver
    const pageSql = `select ${select} ${from} order by ${orderBy} limit ${placeholder(1)} offset ${placeholder(2)}`
    if (!page.count) return {rows: (await this.#driver.all(pageSql, [page.limit, page.offset])).map((row) => presentRow(columns, row))}
    // Both statements at once: on a pool they run side by side.
    const [rows, counted] = await Promise.all([this.#driver.all(pageSql, [page.limit, page.offset]), this.#driver.one(`select count(*) as "total" ${from}`, [])])
    // PostgreSQL answers a count as a bigint, which node-postgres gives as text.
    return {rows: rows.map((row) => presentRow(columns, row)), total: Number(counted!.total)}
  }
}
