/**
 * Definitions -> tables: every field type and key, composite indexes, timestamps, soft delete and every relation
 * kind, as the CREATE statements of each database type (fixtures/entity-schema/<case>/<type>.sql).
 */
import {readFileSync} from 'node:fs'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {entitySchemas, ownsRelation, primaryKeyOf} from '../runtime/entity-schema.js'
import {planMigration} from '../runtime/migrations/plan.js'
import type {EntityDefinition} from '../schemas/types/entity.js'
import {fixtureCases} from './helpers/fixtures.js'

for (const fixture of fixtureCases('entity-schema')) {
  const definitions = JSON.parse(readFileSync(fixture.input, 'utf8')) as EntityDefinition[]
  for (const type of ['sqlite', 'postgresql', 'mysql'] as const) {
    test(`${fixture.name} on ${type}`, async () => {
      const {up, down, destructive} = await planMigration(type, [], definitions)
      const actual = up.join('\n') + '\n'
      assert.fixture(actual, fixture.expected(`${type}.sql`, actual))
      assert.ok(down.length > 0)
      assert.equal(destructive, [])
    })
  }
}

test('the mapping is pure: the same definitions give equal schemas', () => {
  const definitions: EntityDefinition[] = [{name: 'book', fields: {title: {type: 'string', required: true}}, timestamps: true}]
  const [first] = entitySchemas(definitions)
  const [second] = entitySchemas(structuredClone(definitions))
  assert.equal(Object.keys(first.meta.properties), ['id', 'title', 'createdAt', 'updatedAt'])
  assert.equal(Object.keys(first.meta.properties), Object.keys(second.meta.properties))
  assert.is(first.meta.tableName, 'book')
  assert.is(primaryKeyOf(definitions[0]), 'id')
})

test('which side of a relation holds the key', () => {
  const person: EntityDefinition = {name: 'person', fields: {}, relations: {profile: {kind: 'one-to-one', entity: 'profile', inverse: 'owner'}}}
  const profile: EntityDefinition = {name: 'profile', fields: {}, relations: {owner: {kind: 'one-to-one', entity: 'person', inverse: 'profile'}}}
  assert.ok(ownsRelation(person, 'profile', person.relations!.profile, profile), 'both name each other: the name that sorts first owns')
  assert.not.ok(ownsRelation(profile, 'owner', profile.relations!.owner, person))
  const lonely: EntityDefinition = {name: 'profile', fields: {}, relations: {owner: {kind: 'one-to-one', entity: 'person'}}}
  assert.ok(ownsRelation(lonely, 'owner', lonely.relations!.owner, person), 'without inverse: owner')
})

test.run()

test('the columns the server reads are the ones the ORM names (fieldColumn, relationColumn)', async () => {
  const {offlineOrm} = await import('../runtime/database.js')
  const {fieldColumn, relationColumn} = await import('../runtime/entity-schema.js')
  const definitions: EntityDefinition[] = [
    {name: 'user', fields: {name: {type: 'string'}}},
    {name: 'book', fields: {a0B: {type: 'string'}, pageCount: {type: 'integer'}, isbnCode: {type: 'string'}}, relations: {favoritedBy: {kind: 'many-to-one', entity: 'user'}}, timestamps: true}
  ]
  const orm = await offlineOrm('sqlite', definitions)
  const properties = orm.getMetadata().find('book')!.properties
  for (const name of ['a0B', 'pageCount', 'isbnCode', 'createdAt']) assert.is(fieldColumn(name), properties[name].fieldNames[0], name)
  assert.is(relationColumn('favoritedBy'), properties.favoritedBy.fieldNames[0])
  await orm.close(true)
})
