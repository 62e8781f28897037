/**
 * Reads that need no entity: `GET /posts/{id}` and plain pages of `GET /posts` (page, limit, sort; no filter,
 * populate or field selection) when no hook runs, on a file SQLite database. They run prepared statements on a
 * read-only better-sqlite3 connection of their own and turn rows into the same JSON the entity path answers,
 * skipping hydration. SQLite is synchronous in this process, so a read here always sees every committed write.
 */
import Database from 'better-sqlite3'
import {fieldColumn, relationColumn} from '../entity-schema.js'
import type {EntityModel} from './model.js'

type Row = Record<string, unknown>
type Convert = (value: unknown) => unknown

interface Column {
  property: string
  column: string
  convert?: Convert
}


/** SQLite keeps a datetime as epoch milliseconds (or, from a column default, `YYYY-MM-DD HH:MM:SS` in UTC). */
const toDate: Convert = (value) => {
  if (value === null || value === undefined) return null
  if (typeof value === 'number') return new Date(value).toISOString()
  const text = String(value)
  return new Date(/^\d{4}-\d{2}-\d{2} \d/.test(text) ? `${text.replace(' ', 'T')}Z` : text).toISOString()
}
const toBoolean: Convert = (value) => (value === null || value === undefined ? null : Boolean(value))
const toJson: Convert = (value) => (typeof value === 'string' ? JSON.parse(value) : value)

/** The fast reads of one database file. */
export class FastReader {
  readonly #db: Database.Database
  readonly #columns = new Map<string, Column[]>()
  readonly #statements = new Map<string, Database.Statement>()
  readonly #reads = new Map<string, {columns: Column[]; statement: Database.Statement}>()

  constructor(file: string) {
    this.#db = new Database(file, {readonly: true, fileMustExist: true})
  }

  close(): void {
    this.#db.close()
  }

  #columnsOf(model: EntityModel): Column[] {
    let columns = this.#columns.get(model.name)
    if (columns) return columns
    // The order of the entity path's answers: the fields, the many-to-one keys, then the timestamps.
    columns = []
    const add = (field: EntityModel['fields'] extends Map<string, infer F> ? F : never) => {
      const convert = field.type === 'datetime' ? toDate : field.type === 'boolean' ? toBoolean : field.type === 'json' ? toJson : undefined
      columns!.push({property: field.name, column: fieldColumn(field.name), convert})
    }
    const stamps = ['createdAt', 'updatedAt']
    for (const field of model.fields.values()) if (field.visible && !(model.definition.timestamps && stamps.includes(field.name))) add(field)
    for (const [name, relation] of model.relations) {
      if (relation.kind === 'many-to-one') columns.push({property: name, column: relationColumn(name)})
    }
    if (model.definition.timestamps) for (const name of stamps) add(model.fields.get(name)!)
    this.#columns.set(model.name, columns)
    return columns
  }

  #prepare(sql: string): Database.Statement {
    let statement = this.#statements.get(sql)
    if (!statement) {
      statement = this.#db.prepare(sql)
      this.#statements.set(sql, statement)
    }
    return statement
  }

  #present(columns: Column[], row: Row): Row {
    const out: Row = {}
    for (const {property, column, convert} of columns) {
      const value = row[column]
      out[property] = convert ? convert(value) : value
    }
    return out
  }

  /** Whether the fast path can answer for the model: not with a one-to-one or a relation answered `by` a field (the entity path shows those). */
  supports(model: EntityModel): boolean {
    return ![...model.relations.values()].some((relation) => relation.kind === 'one-to-one' || relation.by)
  }

  #from(model: EntityModel): string {
    return `from "${model.definition.table ?? model.name}"${model.softDelete ? ' where "deleted_at" is null' : ''}`
  }

  /** One record by key, or undefined. */
  read(model: EntityModel, id: unknown): Row | undefined {
    let cached = this.#reads.get(model.name)
    if (!cached) {
      const columns = this.#columnsOf(model)
      const from = this.#from(model)
      const sql = `select ${columns.map(({column}) => `"${column}"`).join(', ')} ${from}${from.includes(' where ') ? ' and' : ' where'} "${fieldColumn(model.primaryKey)}" = ?`
      cached = {columns, statement: this.#db.prepare(sql)}
      this.#reads.set(model.name, cached)
    }
    const row = cached.statement.get(id) as Row | undefined
    return row && this.#present(cached.columns, row)
  }

  /** One page, sorted (default: by key), and the total when asked. */
  list(model: EntityModel, page: {limit: number; offset: number; orderBy: Record<string, 'asc' | 'desc'>; count: boolean}): {rows: Row[]; total?: number} {
    const columns = this.#columnsOf(model)
    const select = columns.map(({column}) => `"${column}"`).join(', ')
    const order = Object.keys(page.orderBy).length > 0 ? page.orderBy : {[model.primaryKey]: 'asc' as const}
    const orderBy = Object.entries(order).map(([name, direction]) => `"${fieldColumn(name)}" ${direction}`).join(', ')
    const from = this.#from(model)
    const rows = (this.#prepare(`select ${select} ${from} order by ${orderBy} limit ? offset ?`).all(page.limit, page.offset) as Row[]).map((row) => this.#present(columns, row))
    if (!page.count) return {rows}
    const {total} = this.#prepare(`select count(*) as total ${from}`).get() as {total: number}
    return {rows, total}
  }
}
