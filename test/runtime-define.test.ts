import {createRequire} from 'node:module'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {defineController, defineEntity, field, relation} from '../runtime/index.js'
import {root} from './helpers/fixtures.js'

const require = createRequire(import.meta.url)
const validator = (name: string) => require(path.join(root, 'schemas', 'validators', `${name}.cjs`)) as ((value: unknown) => boolean) & {errors?: unknown[]}

test('a code entity class becomes the same definition as its JSON, valid against entity.schema.json', () => {
  const book = defineEntity(
    class Book {
      title = field.string({required: true, length: 200})
      isbn = field.string({unique: true})
      status = field.enum(['draft', 'published'], {default: 'draft'})
      secret = field.password()
      author = relation.manyToOne('user', {onDelete: 'cascade'})
      tags = relation.manyToMany('tag')
    },
    {timestamps: true, indexes: [{fields: ['title', 'isbn'], unique: true}]}
  )
  assert.equal(book, {
    name: 'book',
    fields: {
      title: {type: 'string', required: true, length: 200},
      isbn: {type: 'string', unique: true},
      status: {type: 'enum', enum: ['draft', 'published'], default: 'draft'},
      secret: {type: 'password'}
    },
    relations: {author: {kind: 'many-to-one', entity: 'user', onDelete: 'cascade'}, tags: {kind: 'many-to-many', entity: 'tag'}},
    indexes: [{fields: ['title', 'isbn'], unique: true}],
    timestamps: true
  })
  const validate = validator('entity')
  assert.ok(validate(book), JSON.stringify(validate.errors))
})

test('a code entity says all a JSON one can: events and computed fields are kept', () => {
  const club = defineEntity(
    class Club {
      name = field.string({required: true, unique: true})
      members = relation.manyToMany('user')
    },
    {timestamps: true, events: ['created', 'updated'], computed: {memberCount: {count: 'members'}}, 'x-owner': 'team-a'}
  )
  assert.equal(club, {
    name: 'club',
    fields: {name: {type: 'string', required: true, unique: true}},
    relations: {members: {kind: 'many-to-many', entity: 'user'}},
    timestamps: true,
    events: ['created', 'updated'],
    computed: {memberCount: {count: 'members'}},
    'x-owner': 'team-a'
  })
  const validate = validator('entity')
  assert.ok(validate(club), JSON.stringify(validate.errors))
})

test('a value that is neither a field nor a relation is refused with the property named', () => {
  assert.throws(
    () => defineEntity(class Broken {
      title = 'string'
    }),
    /Unexpected value for `broken.title`, expected a `field.\*\(\)` or `relation.\*\(\)`/
  )
})

test('a code controller keeps its routes as a definition and its actions apart', () => {
  const publish = () => ({published: true})
  const controller = defineController('book', {routes: {'GET /books': 'list', 'POST /books/{id}/publish': {action: 'publish', roles: ['editor']}}, actions: {publish}})
  assert.equal(controller.definition, {name: 'book', routes: {'GET /books': 'list', 'POST /books/{id}/publish': {action: 'publish', roles: ['editor']}}})
  assert.is(controller.actions.publish, publish)
  const validate = validator('controller')
  assert.ok(validate(controller.definition), JSON.stringify(validate.errors))
})

test('project.schema.json accepts a pipe.config.json with environment values and rejects unknown keys', () => {
  const validate = validator('project')
  assert.ok(validate({port: 3000, database: {type: 'postgresql', url: '${DATABASE_URL}'}, jwtSecret: '${JWT_SECRET}', auth: {entity: 'user', expiresIn: '1h'}, cors: true, rateLimit: {max: 100, window: '1 minute'}}))
  assert.not.ok(validate({prot: 3000}))
})

test.run()
