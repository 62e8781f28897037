/**
 * The plan of a migration: the SQL that takes a database from one set of definitions (the last snapshot) to another
 * (the project now), both ways, and the steps of it that could lose data.
 *
 * Both sides become MikroORM `DatabaseSchema`s through the same `EntitySchema` mapping, MikroORM's comparator diffs
 * them and its schema generator writes the SQL of the database type. apipe adds what a diff cannot know:
 * - renames: an entity or field with `renamedFrom` is renamed in place (tables, join tables, columns), never dropped
 *   and added; a drop and an add that merely look alike are left a drop and an add (no guessing);
 * - destructive steps (drop table or column, narrowing a type or an enum, NOT NULL without a default) are named, so
 *   that the caller can refuse them.
 */
import type {EntityMetadata, EntityProperty} from '@mikro-orm/core'
import {DatabaseSchema, SchemaComparator, type Column, type DatabaseTable, type SchemaDifference, type TableDifference} from '@mikro-orm/knex'
import type {EntityDefinition} from '../../schemas/types/entity.js'
import type {DatabaseType} from '../config.js'
import {offlineOrm, type Orm} from '../database.js'

/** A step that could lose data, with the table and column it touches. */
export interface DestructiveStep {
  table: string
  column?: string
  /** `drop table`, `drop column`, `change type`, `narrow enum`, `not null`. */
  kind: string
  description: string
}

/** A change of the definitions that no migration statements can be planned for (said to the user as a finding). */
export class UnplannableChange extends Error {}

/** Up and down SQL, statement by statement, and the destructive steps of `up`. */
export interface MigrationPlan {
  up: string[]
  down: string[]
  destructive: DestructiveStep[]
}

type Renames = {tables: Map<string, string>; columns: Map<string, Map<string, string>>}

interface Generator {
  getTargetSchema(): DatabaseSchema
  diffToSQL(diff: SchemaDifference, options: {wrap: boolean; safe: boolean; dropTables: boolean}): Promise<string>
}

/** Plan the migration from the `from` definitions to the `to` definitions on a database type. */
export async function planMigration(type: DatabaseType, from: readonly EntityDefinition[], to: readonly EntityDefinition[]): Promise<MigrationPlan> {
  const [fromOrm, toOrm] = await Promise.all([offlineOrm(type, from), offlineOrm(type, to)])
  try {
    const renames = findRenames(from, to, fromOrm, toOrm)
    const inverse: Renames = {
      tables: invert(renames.tables),
      columns: new Map([...renames.columns].map(([table, columns]) => [invertTable(renames.tables, table), invert(columns)]))
    }
    const up = await statementsBetween(toOrm, schemaOf(fromOrm), schemaOf(toOrm), renames)
    const down = await statementsBetween(toOrm, schemaOf(toOrm), schemaOf(fromOrm), inverse)
    return {up: up.statements, down: down.statements, destructive: destructiveSteps(up.diff)}
  } finally {
    await Promise.all([fromOrm.close(true), toOrm.close(true)])
  }
}

/**
 * The first other database type on which the change from `from` to `to` takes statements, and how many, when it
 * takes none on `type`: SQLite keeps no string `length`, so widening one is nothing there and an ALTER on
 * PostgreSQL and MySQL, which the one migrations folder must still carry.
 */
export async function changedElsewhere(type: DatabaseType, from: readonly EntityDefinition[], to: readonly EntityDefinition[]): Promise<{type: DatabaseType; statements: number} | undefined> {
  const family = (item: DatabaseType) => (item === 'mariadb' ? 'mysql' : item)
  for (const other of (['postgresql', 'mysql', 'sqlite'] as const).filter((item) => item !== family(type))) {
    const {up} = await planMigration(other, from, to)
    if (up.length > 0) return {type: other, statements: up.length}
  }
  return undefined
}

function invert(map: Map<string, string>): Map<string, string> {
  return new Map([...map].map(([key, value]) => [value, key]))
}

function invertTable(tables: Map<string, string>, table: string): string {
  for (const [old, renamed] of tables) if (renamed === table) return old
  return table
}

function schemaOf(orm: Orm): DatabaseSchema {
  const generator = orm.schema as unknown as Generator
  if (Object.keys(orm.getMetadata().getAll()).length === 0) {
    return new DatabaseSchema(orm.em.getPlatform(), orm.em.getPlatform().getDefaultSchemaName() ?? '')
  }
  return generator.getTargetSchema()
}

/** Renamed tables (old -> new) and renamed columns (new table -> old column -> new column). */
function findRenames(from: readonly EntityDefinition[], to: readonly EntityDefinition[], fromOrm: Orm, toOrm: Orm): Renames {
  const renames: Renames = {tables: new Map(), columns: new Map()}
  const fromNames = new Set(from.map((entity) => entity.name))
  const toNames = new Set(to.map((entity) => entity.name))
  const renameColumn = (table: string, old: string | undefined, renamed: string | undefined) => {
    if (!old || !renamed || old === renamed) return
    const columns = renames.columns.get(table) ?? new Map<string, string>()
    columns.set(old, renamed)
    renames.columns.set(table, columns)
  }
  for (const entity of to) {
    const previous = fromNames.has(entity.name) ? entity.name : entity.renamedFrom && fromNames.has(entity.renamedFrom) && !toNames.has(entity.renamedFrom) ? entity.renamedFrom : undefined
    if (!previous) continue
    const oldMeta = fromOrm.getMetadata().find(previous) as EntityMetadata | undefined
    const newMeta = toOrm.getMetadata().find(entity.name) as EntityMetadata | undefined
    if (!oldMeta || !newMeta) continue
    if (oldMeta.tableName !== newMeta.tableName) renames.tables.set(oldMeta.tableName, newMeta.tableName)
    for (const [name, property] of Object.entries(newMeta.properties) as Array<[string, EntityProperty]>) {
      const renamedFrom = entity.fields[name]?.renamedFrom
      const oldName = renamedFrom && oldMeta.properties[renamedFrom] && !oldMeta.properties[name] ? renamedFrom : name
      const oldProperty = oldMeta.properties[oldName] as EntityProperty | undefined
      if (!oldProperty || oldProperty.kind !== property.kind) continue
      if (property.kind === 'm:n' && property.owner && oldProperty.owner) {
        if (oldProperty.pivotTable !== property.pivotTable) renames.tables.set(oldProperty.pivotTable, property.pivotTable)
        property.joinColumns.forEach((column, index) => renameColumn(property.pivotTable, oldProperty.joinColumns[index], column))
        property.inverseJoinColumns.forEach((column, index) => renameColumn(property.pivotTable, oldProperty.inverseJoinColumns[index], column))
      } else if (property.fieldNames?.length === 1 && oldProperty.fieldNames?.length === 1) {
        renameColumn(newMeta.tableName, oldProperty.fieldNames[0], property.fieldNames[0])
      }
    }
  }
  return renames
}

/** The SQL from one schema to another: renames first, then MikroORM's diff of what remains. */
async function statementsBetween(orm: Orm, fromSchema: DatabaseSchema, toSchema: DatabaseSchema, renames: Renames): Promise<{statements: string[]; diff: SchemaDifference}> {
  const platform = orm.em.getPlatform()
  const quote = (name: string) => platform.quoteIdentifier(name)
  const statements: string[] = []
  const isPostgres = platform.constructor.name.startsWith('PostgreSql')
  const isSqlite = platform.constructor.name.includes('Sqlite')
  for (const table of fromSchema.getTables()) {
    const renamed = renames.tables.get(table.name)
    if (!renamed) continue
    statements.push(`alter table ${quote(table.name)} rename to ${quote(renamed)};`)
    // PostgreSQL keeps the old name of the primary key constraint; name it after the table again, as a new table's.
    const primary = table.getIndexes().find((index) => index.primary)
    if (primary && isPostgres) {
      const name = `${renamed}_pkey`
      statements.push(`alter table ${quote(renamed)} rename constraint ${quote(primary.keyName)} to ${quote(name)};`)
      primary.keyName = name
    }
    ;(table as {name: string}).name = renamed
  }
  for (const table of fromSchema.getTables()) {
    for (const foreignKey of Object.values(table.getForeignKeys())) {
      foreignKey.localTableName = renameQualified(foreignKey.localTableName, renames.tables)
      foreignKey.referencedTableName = renameQualified(foreignKey.referencedTableName, renames.tables)
    }
  }
  // SQLite keeps foreign keys inside the table and never refers to them by name: a renamed table's keys are the same
  // keys (MikroORM would otherwise re-add them, and SQLite's ALTER TABLE attaches them to the wrong column).
  if (isSqlite) for (const table of fromSchema.getTables()) adoptForeignKeyNames(table, toSchema.getTable(table.name))
  const diff = new SchemaComparator(platform).compare(fromSchema, toSchema)
  for (const table of Object.values(diff.changedTables)) keepOnlyDeclaredRenames(table, renames.columns.get(table.toTable.name) ?? new Map())
  const generator = orm.schema as unknown as Generator
  // A column made required with a default: its empty values take the default first, which the ALTER (PostgreSQL's
  // `set not null`, MySQL's `modify`) or SQLite's copy into a NOT NULL column would otherwise refuse.
  for (const table of Object.values(diff.changedTables)) {
    for (const {column, fromColumn} of Object.values(table.changedColumns)) {
      if (!fromColumn.nullable || column.nullable || !hasDefault(column)) continue
      statements.push(`update ${quote(table.fromTable.name)} set ${quote(fromColumn.name)} = ${column.default} where ${quote(fromColumn.name)} is null;`)
    }
  }
  // SQLite alters a column, or a foreign key (kept inside its table's definition), only by rebuilding the table: done
  // here, and the generator writes the rest (the diff itself stays whole, for the destructive steps it holds).
  const rebuilt = isSqlite ? Object.entries(diff.changedTables).filter(([, table]) => needsRebuild(table)) : []
  for (const [, table] of rebuilt) statements.push(...(await sqliteRebuild(table, orm, generator)))
  const rest = rebuilt.length === 0 ? diff : {...diff, changedTables: Object.fromEntries(Object.entries(diff.changedTables).filter(([key]) => !rebuilt.some(([done]) => done === key)))}
  statements.push(...splitStatements(await generator.diffToSQL(rest, {wrap: false, safe: false, dropTables: true})))
  return {statements, diff}
}

/** Whether SQLite can make a table's change only by rebuilding it: a column altered, a foreign key changed. */
function needsRebuild(table: TableDifference): boolean {
  const rekeyed = Object.keys(table.changedForeignKeys).length > 0 || (Object.keys(table.removedForeignKeys).length > 0 && Object.keys(table.addedForeignKeys).length > 0)
  return rekeyed || Object.keys(table.changedColumns).length > 0
}

/**
 * A SQLite table rebuilt to its new definition, as SQLite documents for a change ALTER TABLE cannot make (knex does
 * it from the database's own copy of the table, which an offline plan has not): the new table under another name,
 * the rows copied in (a renamed column from its old name), the old table dropped, the new one given its name, then
 * its indexes. The runner turns foreign keys off around it and checks them after.
 */
async function sqliteRebuild(table: TableDifference, orm: Orm, generator: Generator): Promise<string[]> {
  const platform = orm.em.getPlatform()
  const quote = (name: string) => platform.quoteIdentifier(name)
  const name = table.toTable.name
  const temporary = `${name}__rebuild`
  const only = new DatabaseSchema(platform, table.toTable.schema ?? '')
  ;(only.getTables() as DatabaseTable[]).push(table.toTable)
  const empty = new DatabaseSchema(platform, table.toTable.schema ?? '')
  const [create, ...indexes] = splitStatements(await generator.diffToSQL(new SchemaComparator(platform).compare(empty, only), {wrap: false, safe: false, dropTables: false}))
  const oldNames = new Map(Object.entries(table.renamedColumns).map(([old, column]) => [column.name, old]))
  const copied = table.toTable.getColumns().flatMap((column) => {
    const old = table.fromTable.getColumn(oldNames.get(column.name) ?? column.name)
    return old && !table.addedColumns[column.name] ? [{to: quote(column.name), from: quote(old.name)}] : []
  })
  return [
    create.replace(`create table ${quote(name)}`, `create table ${quote(temporary)}`),
    `insert into ${quote(temporary)} (${copied.map((column) => column.to).join(', ')}) select ${copied.map((column) => column.from).join(', ')} from ${quote(table.fromTable.name)};`,
    `drop table ${quote(table.fromTable.name)};`,
    `alter table ${quote(temporary)} rename to ${quote(name)};`,
    ...indexes
  ]
}

function adoptForeignKeyNames(from: DatabaseTable, to: DatabaseTable | undefined) {
  if (!to) return
  const keys = from.getForeignKeys()
  for (const [name, key] of Object.entries(keys)) {
    const same = Object.values(to.getForeignKeys()).find((other) => other.referencedTableName === key.referencedTableName && other.columnNames.join() === key.columnNames.join())
    if (!same || same.constraintName === name) continue
    delete keys[name]
    keys[same.constraintName] = {...key, constraintName: same.constraintName}
  }
}

function renameQualified(name: string, tables: Map<string, string>): string {
  const dot = name.lastIndexOf('.')
  const bare = name.slice(dot + 1)
  const renamed = tables.get(bare)
  return renamed ? name.slice(0, dot + 1) + renamed : name
}

/** Undo the comparator's guessed renames and turn the declared ones (drop + add) into renames. */
function keepOnlyDeclaredRenames(table: TableDifference, declared: Map<string, string>) {
  for (const [old, column] of Object.entries(table.renamedColumns)) {
    if (declared.get(old) === column.name) continue
    delete table.renamedColumns[old]
    table.removedColumns[old] = table.fromTable.getColumn(old)!
    table.addedColumns[column.name] = column
  }
  for (const [old, renamed] of declared) {
    const added = table.addedColumns[renamed]
    if (!table.removedColumns[old] || !added) continue
    delete table.removedColumns[old]
    delete table.addedColumns[renamed]
    table.renamedColumns[old] = added
  }
}

/** One statement per entry; SQLite's foreign-key pragmas are left to the runner (they do nothing in a transaction). */
function splitStatements(sql: string): string[] {
  const statements: string[] = []
  let current = ''
  for (const line of sql.split('\n')) {
    const trimmed = line.trim()
    if (!trimmed) continue
    current = current ? `${current}\n${trimmed}` : trimmed
    if (trimmed.endsWith(';')) {
      if (!/^pragma foreign_keys = (on|off);$/i.test(current)) statements.push(current)
      current = ''
    }
  }
  if (current) statements.push(current)
  return statements
}

function destructiveSteps(diff: SchemaDifference): DestructiveStep[] {
  const steps: DestructiveStep[] = []
  for (const table of Object.values(diff.removedTables)) {
    steps.push({table: table.name, kind: 'drop table', description: `drop table \`${table.name}\` and its rows`})
  }
  for (const changed of Object.values(diff.changedTables)) {
    const table = {...changed, name: changed.toTable.name}
    for (const column of Object.values(table.removedColumns)) {
      steps.push({table: table.name, column: column.name, kind: 'drop column', description: `drop column \`${table.name}.${column.name}\` and its values`})
    }
    for (const column of Object.values(table.addedColumns)) {
      if (!column.nullable && !hasDefault(column) && !column.autoincrement) {
        steps.push({table: table.name, column: column.name, kind: 'not null', description: `add required column \`${table.name}.${column.name}\` without a default (existing rows have no value)`})
      }
    }
    for (const {column, fromColumn, changedProperties} of Object.values(table.changedColumns)) {
      const name = `\`${table.name}.${column.name}\``
      if (changedProperties.has('type') && !widens(fromColumn, column)) {
        steps.push({table: table.name, column: column.name, kind: 'change type', description: `change the type of ${name} from ${fromColumn.type} to ${column.type} (values may not fit)`})
      }
      if (changedProperties.has('enumItems')) {
        const dropped = (fromColumn.enumItems ?? []).filter((item) => !(column.enumItems ?? []).includes(item))
        if (dropped.length > 0) steps.push({table: table.name, column: column.name, kind: 'narrow enum', description: `remove ${dropped.map((item) => `\`${item}\``).join(', ')} from the values of ${name}`})
      }
      if (changedProperties.has('nullable') && !column.nullable && !hasDefault(column)) {
        steps.push({table: table.name, column: column.name, kind: 'not null', description: `make ${name} required without a default (rows without a value fail)`})
      }
    }
  }
  return steps
}

function hasDefault(column: Column): boolean {
  return column.default !== undefined && column.default !== null && column.default !== 'null'
}

/** A type change that keeps every value: a longer string, a string to text, an integer to a wider number. */
function widens(from: Column, to: Column): boolean {
  const base = (type: string) => type.toLowerCase().replace(/\(.*$/, '').trim()
  const fromBase = base(from.type)
  const toBase = base(to.type)
  if (fromBase === toBase) return (to.length ?? Infinity) >= (from.length ?? Infinity)
  if (['varchar', 'character varying', 'char', 'character'].includes(fromBase) && ['text', 'longtext', 'mediumtext'].includes(toBase)) return true
  return ['int', 'integer', 'smallint', 'tinyint'].includes(fromBase) && ['bigint', 'double', 'double precision', 'real', 'numeric', 'decimal'].includes(toBase)
}
