/** Grouping of GraphQL operations past the group limit (plugins/import-graphql/groups.ts). */
import {buildSchema, type GraphQLNamedType} from 'graphql'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {groupOperations, maxGroups} from '../plugins/import-graphql/groups.js'

test('past the limit, operations join the largest groups by the first or last word of their entity, the rest go to Other', () => {
  const factors = ['AppSecondFactor', 'SmsSecondFactor', 'BackupSecondFactor']
  // 45 one-word entities with two operations each: with the three factors, 48 entities for 40 groups.
  const fillers = Array.from({length: 45}, (_, index) => `W${String.fromCharCode(97 + Math.floor(index / 26))}${String.fromCharCode(97 + (index % 26))}`)
  const types = [...factors, ...fillers].map((name) => `type ${name} { id: ID }`).join('\n')
  const queries = fillers.map((name) => `${name.toLowerCase()}: ${name}\n${name.toLowerCase()}List: [${name}]`).join('\n')
  const mutations = factors.map((name) => `create${name}: ${name}\nupdate${name}: ${name}`).join('\n')
  const schema = buildSchema(`${types}\ntype Query {\n${queries}\n}\ntype Mutation {\n${mutations}\n}`)
  const roots = new Set<GraphQLNamedType>([schema.getQueryType()!, schema.getMutationType()!])
  const fields = [...roots].flatMap((root) => Object.values((root as ReturnType<typeof schema.getQueryType> & object).getFields()))
  const groups = groupOperations(fields, roots)
  const byName = new Map(fields.map((field, index) => [field.name, groups[index]]))
  assert.equal(byName.get('createSmsSecondFactor'), {id: 'SecondFactors', label: 'SecondFactor'})
  assert.equal(byName.get('updateBackupSecondFactor'), {id: 'SecondFactors', label: 'SecondFactor'})
  assert.equal(byName.get('waa'), {id: 'Waas', label: 'Waa'})
  assert.is(new Set(groups.map((group) => group.id)).size, maxGroups)
  assert.is(groups.filter((group) => group.id === 'Other').length, (45 - (maxGroups - 2)) * 2)
})

test.run()
