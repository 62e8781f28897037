/**
 * Creates that no hook needs as an entity, on a SQLite file: one prepared `insert … returning` on the ORM's own
 * connection instead of MikroORM's unit of work (change sets, an explicit transaction, a statement prepared per
 * query). The connection is taken from the ORM's pool, which holds one connection for SQLite, so the insert never
 * runs inside another request's transaction; one statement is atomic by itself. The row it returns becomes the answer
 * through the fast reads' row -> JSON part, so it is what the entity path answers (a test compares them), and a
 * database error goes through MikroORM's exception converter, so a unique violation is the same 409.
 *
 * Only models whose create is plain data take it: no password (hashed by an entity hook), no list relation a body
 * sets, no one-to-one, no relation answered `by` a field, no computed field, no field the server fills (`from`,
 * `readOnly`), a generated key; and only routes without `where` or populated `defaults`. The route planner also
 * keeps hooks on the entity path. The entity's `created` event is written to the outbox in the insert's transaction.
 */
import {randomUUID} from 'node:crypto'
import type {Database, Statement} from 'better-sqlite3'
import {outboxInsert, outboxValues, type OutboxEvent} from '../events/outbox.js'
import type {Orm} from '../database.js'
import {fieldColumn} from '../entity-schema.js'
import {answerColumns, foreignKeyColumn, presentRow, type Column, type Models} from './fast-read.js'
import {sqliteAnswers} from './fast-read-sqlite.js'
import type {ApiField, EntityModel} from './model.js'
import type {RouteScope} from './scope.js'

type Row = Record<string, unknown>

/** One value of an insert, from the create body (with its defaults filled in). */
type Input = (data: Row, now: number) => unknown

interface Plan {
  sql: string
  inputs: Input[]
  columns: Column[]
  relations: string[]
}

/** A field's value as MikroORM stores it in SQLite: booleans as 0/1, JSON as text, datetimes as epoch milliseconds. */
function stored(field: ApiField): Input {
  const name = field.name
  switch (field.type) {
    case 'boolean':
      return (data) => (data[name] === null || data[name] === undefined ? null : data[name] ? 1 : 0)
    case 'json': {
      // The entity fills a JSON default on create when the value is null (an `onCreate`, see entity-schema.ts).
      const fallback = field.definition.default === undefined || field.definition.default === null ? null : JSON.stringify(field.definition.default)
      return (data) => (data[name] === null || data[name] === undefined ? fallback : JSON.stringify(data[name]))
    }
    case 'datetime':
      return (data) => (data[name] === null || data[name] === undefined ? null : new Date(data[name] as string).getTime())
    default:
      return (data) => data[name] ?? null
  }
}

const serverStamps = new Set(['createdAt', 'updatedAt', 'deletedAt'])

/** The fast creates of one SQLite database, on the ORM's connection. */
export class FastWriter {
  readonly #orm: Orm
  readonly #models: Models
  readonly #plans = new Map<string, Plan>()
  readonly #statements = new WeakMap<object, Map<string, Statement>>()

  constructor(orm: Orm, models: Models) {
    this.#orm = orm
    this.#models = models
  }

  /** Whether creates of the model on this route can skip the entity (see the module's comment). */
  supports(model: EntityModel, route?: RouteScope): boolean {
    if (route?.where || route?.defaults?.populate || model.computed.size > 0) return false
    for (const [name, relation] of model.relations) {
      if (relation.by || relation.from || relation.kind === 'one-to-one') return false
      if (relation.kind !== 'many-to-one' && model.writableRelations.has(name)) return false
    }
    for (const field of model.fields.values()) {
      if (field.type === 'password' || field.from) return false
      const generatedKey = field.name === model.primaryKey && (field.type === 'integer' || field.type === 'uuid')
      if (field.name === model.primaryKey && !generatedKey) return false
      if (!field.writable && !generatedKey && !serverStamps.has(field.name)) return false
    }
    return true
  }

  /** Whether this body can be written as it is: its relations are keys, not objects. */
  accepts(model: EntityModel, data: Row): boolean {
    for (const name of this.#plan(model).relations) {
      const value = data[name]
      if (value !== null && value !== undefined && typeof value === 'object') return false
    }
    return true
  }

  #plan(model: EntityModel): Plan {
    let plan = this.#plans.get(model.name)
    if (plan) return plan
    const columns: string[] = []
    const inputs: Input[] = []
    const relations: string[] = []
    const keyField = model.fields.get(model.primaryKey)!
    if (keyField.type === 'uuid') {
      columns.push(fieldColumn(model.primaryKey))
      inputs.push(() => randomUUID())
    }
    for (const field of model.fields.values()) {
      if (!field.writable) continue
      columns.push(fieldColumn(field.name))
      inputs.push(stored(field))
    }
    for (const [name, relation] of model.relations) {
      if (relation.kind !== 'many-to-one') continue
      relations.push(name)
      columns.push(foreignKeyColumn(this.#models, model, name))
      inputs.push((data) => data[name] ?? null)
    }
    if (model.definition.timestamps) {
      columns.push(fieldColumn('createdAt'), fieldColumn('updatedAt'))
      inputs.push((_, now) => now, (_, now) => now)
    }
    const answer = answerColumns(model, sqliteAnswers, this.#models)
    const table = model.definition.table ?? model.name
    const sql = `insert into "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) values (${columns.map(() => '?').join(', ')}) returning ${answer.map(({column}) => `"${column}"`).join(', ')}`
    plan = {sql, inputs, columns: answer, relations}
    this.#plans.set(model.name, plan)
    return plan
  }

  /**
   * Insert one record (its body with the defaults filled in) and answer it as the entity path would. `eventsOf`
   * gives the events of the answer (the entity's `created`): they go to the outbox in the insert's transaction.
   */
  async create(model: EntityModel, data: Row, eventsOf?: (answer: Row) => ReadonlyArray<OutboxEvent>): Promise<Row> {
    const plan = this.#plan(model)
    const now = Date.now()
    const values = plan.inputs.map((input) => input(data, now))
    const client = this.#orm.em.getKnex().client
    const connection = await client.acquireConnection()
    try {
      const write = () => {
        const answer = presentRow(plan.columns, this.#statement(connection, plan.sql).get(...values) as Row)
        const events = eventsOf?.(answer) ?? []
        if (events.length > 0) this.#statement(connection, outboxInsert(events.length, (name) => this.#orm.em.getPlatform().quoteIdentifier(name))).run(...outboxValues(events))
        return answer
      }
      // better-sqlite3's transactions are synchronous: nothing else runs on the connection in between.
      return eventsOf ? (connection.transaction(write)() as Row) : write()
    } catch (error) {
      throw this.#orm.em.getPlatform().getExceptionConverter().convertException(error as Error)
    } finally {
      await client.releaseConnection(connection)
    }
  }

  /** A statement is prepared once per connection (the pool may replace its connection). */
  #statement(connection: Database, sql: string): Statement {
    let statements = this.#statements.get(connection)
    if (!statements) {
      statements = new Map()
      this.#statements.set(connection, statements)
    }
    let statement = statements.get(sql)
    if (!statement) {
      statement = connection.prepare(sql)
      statements.set(sql, statement)
    }
    return statement
  }
}
