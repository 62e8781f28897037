/**
 * The fast reads' driver for PostgreSQL (see fast-read.ts): node-postgres named statements (each prepared once per
 * connection) on a small pool of its own. A write's answer is sent after its commit, and a committed row is visible
 * to every statement that starts later, so a read after a write sees it on any connection of this pool.
 *
 * Values come back as MikroORM answers them on PostgreSQL: `date` as its `YYYY-MM-DD` text (node-postgres would make
 * it a local-midnight Date), `timestamptz` parsed by postgres-date into a Date as MikroORM's platform does, booleans,
 * `jsonb`, `int` and `double precision` as JavaScript values.
 */
import pg from 'pg'
import {toIsoDate, type FastReadDriver} from './fast-read.js'

/** Options of the PostgreSQL driver. */
export interface PostgresFastReadOptions {
  /** The database URL (MikroORM's `clientUrl`). */
  url: string
  /** Connections of the pool (default: 10, as MikroORM's own pool). */
  max?: number
  /** Told when an idle connection fails (the pool drops it and opens another when needed). */
  onError?: (error: Error) => void
}

const dateOid = 1082

/** The driver of the PostgreSQL database at `url`. */
export function postgresFastReads({url, max = 10, onError}: PostgresFastReadOptions): FastReadDriver {
  const types = new pg.TypeOverrides()
  types.setTypeParser(dateOid, (text: string) => text)
  const pool = new pg.Pool({connectionString: url, max, types})
  // Without a listener an idle connection's error (a server restart) would end the process.
  pool.on('error', (error) => onError?.(error))
  // A statement's name is what node-postgres prepares it under, on each connection once.
  const names = new Map<string, string>()
  const query = async (text: string, values: unknown[]) => {
    let name = names.get(text)
    if (!name) {
      name = `apipe_fast_${names.size + 1}`
      names.set(text, name)
    }
    return (await pool.query({name, text, values})).rows as Array<Record<string, unknown>>
  }
  return {
    placeholder: (index) => `$${index}`,
    convert: {datetime: toIsoDate},
    one: async (sql, values) => (await query(sql, values))[0],
    all: query,
    close: () => pool.end()
  }
}
