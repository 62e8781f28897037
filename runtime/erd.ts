/**
 * The entity-relationship spec of a project (`schemas/erd.schema.json`), computed from its entity definitions with the
 * same naming as the ORM mapping (runtime/entity-schema.ts), so that the diagram shows the columns the database has:
 * the primary key (an `id` integer when none is declared), each field's column, the foreign key of a many-to-one (and
 * of the owning side of a one-to-one), `created_at`/`updated_at` for `timestamps`, `deleted_at` for `softDelete`.
 */
import type {Column, Erd, Relation, Table} from '../schemas/types/erd.js'
import type {EntityDefinition} from '../schemas/types/entity.js'
import {fieldColumn, ownsRelation, primaryKeyOf, relationColumn, tableOf} from './entity-schema.js'
import {typeName} from './generate.js'

/** The ERD of a project's entities, one table per entity in definition order. */
export function erdOf(definitions: readonly EntityDefinition[]): Erd {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]))
  return {schema_version: 1, diagram_type: 'erd', tables: definitions.map((definition) => tableOfEntity(definition, byName))}
}

function tableOfEntity(definition: EntityDefinition, byName: Map<string, EntityDefinition>): Table {
  const key = primaryKeyOf(definition)
  const columns: Column[] = []
  if (!definition.fields[key]) columns.push({name: fieldColumn(key), type: 'integer', primary: true})
  for (const [name, field] of Object.entries(definition.fields)) {
    const column: Column = {name: fieldColumn(name), type: field.type}
    if (field.primary || name === key) column.primary = true
    if (field.unique) column.unique = true
    if (!field.required && !column.primary) column.nullable = true
    columns.push(column)
  }
  const relations: Relation[] = []
  for (const [name, relation] of Object.entries(definition.relations ?? {})) {
    const target = byName.get(relation.entity)
    const to = target ? tableOf(target) : relation.entity
    const entry: Relation = {to, kind: relation.kind, name}
    const holdsKey = relation.kind === 'many-to-one' || (relation.kind === 'one-to-one' && ownsRelation(definition, name, relation, target))
    if (holdsKey) {
      const targetKey = target ? primaryKeyOf(target) : 'id'
      const keyType = target?.fields[targetKey]?.type ?? 'integer'
      const column: Column = {name: relationColumn(name, targetKey), type: keyType, references: to}
      if (relation.kind === 'one-to-one') column.unique = true
      if (!relation.required) column.nullable = true
      columns.push(column)
      entry.column = column.name
    }
    relations.push(entry)
  }
  if (definition.timestamps) columns.push({name: fieldColumn('createdAt'), type: 'datetime'}, {name: fieldColumn('updatedAt'), type: 'datetime'})
  if (definition.softDelete) columns.push({name: fieldColumn('deletedAt'), type: 'datetime', nullable: true})
  const table: Table = {id: tableOf(definition), label: typeName(definition.name), columns}
  if (relations.length > 0) table.relations = relations
  return table
}
