/**
 * The fast reads' driver for a SQLite file (see fast-read.ts): prepared better-sqlite3 statements on a read-only
 * connection of its own. SQLite is synchronous in this process, so a read here always sees every committed write
 * (in WAL mode too: a statement reads the last commit when it starts).
 */
import Database from 'better-sqlite3'
import type {Convert, FastReadDriver} from './fast-read.js'

/** SQLite keeps a datetime as epoch milliseconds (or, from a column default, `YYYY-MM-DD HH:MM:SS` in UTC). */
const toDate: Convert = (value) => {
  if (typeof value === 'number') return new Date(value).toISOString()
  const text = String(value)
  return new Date(/^\d{4}-\d{2}-\d{2} \d/.test(text) ? `${text.replace(' ', 'T')}Z` : text).toISOString()
}
const toJson: Convert = (value) => (typeof value === 'string' ? JSON.parse(value) : value)

/** How better-sqlite3 answers the types whose values differ from the entity path's JSON. */
export const sqliteAnswers = {datetime: toDate, boolean: Boolean, json: toJson}

/** The driver of the SQLite file `file`. */
export function sqliteFastReads(file: string): FastReadDriver {
  const db = new Database(file, {readonly: true, fileMustExist: true})
  const statements = new Map<string, Database.Statement>()
  const prepare = (sql: string) => {
    let statement = statements.get(sql)
    if (!statement) {
      statement = db.prepare(sql)
      statements.set(sql, statement)
    }
    return statement
  }
  return {
    placeholder: () => '?',
    convert: sqliteAnswers,
    one: (sql, values) => prepare(sql).get(...values) as Record<string, unknown> | undefined,
    all: (sql, values) => prepare(sql).all(...values) as Array<Record<string, unknown>>,
    close: () => void db.close()
  }
}
