/**
 * Relations written `by` a unique field with `createMissing` (`"labels": ["red", "blue"]`) under concurrent writes,
 * on every database that answers: two requests that both name a label no record has yet make one label between
 * them, and neither fails (a unique violation on the label is no conflict of the product's, nor a deadlock a 500).
 */
import path from 'node:path'
import type {FastifyInstance} from 'fastify'
import {suite} from 'uvu'
import * as assert from 'uvu/assert'
import {createTestApp} from '../runtime/testing.js'
import {connect, dropTables, temporaryProject, testDatabases, type TestDatabase} from './helpers/databases.js'
import {root} from './helpers/fixtures.js'

const project = path.join(root, 'fixtures/tags-app')
const tables = ['product_labels', 'product_marks', 'product', 'label', 'mark', 'apipe_migrations']

function concurrencySuite(database: TestDatabase) {
  const test = suite(`by-relations under concurrent writes on ${database.label}`)
  let app: FastifyInstance
  test.before(async () => {
    if (database.type !== 'sqlite') {
      const orm = await connect(database, temporaryProject('relations-by'))
      await dropTables(orm, tables)
      await orm.close(true)
    }
    app = await createTestApp({root: project, database: database.type === 'sqlite' ? {type: 'sqlite', url: ':memory:'} : database, fastWrites: false})
  })
  test.after(async () => {
    await app?.close()
  })

  test('concurrent creates that name the same new labels all answer 201, and each label is made once', async () => {
    const names = ['red', 'green', 'blue', 'amber']
    const answers = await Promise.all(
      Array.from({length: 16}, (_, index) => {
        // Each request names the labels in its own order, as independent clients do.
        const labels = names.map((_, offset) => names[(index + offset) % names.length])
        return app.inject({method: 'POST', url: '/products', payload: {name: `product ${index}`, labels}})
      })
    )
    assert.equal(answers.map((answer) => answer.statusCode), Array(16).fill(201), answers.map((answer) => answer.body).join('\n'))
    for (const answer of answers) assert.equal([...answer.json().labels].sort(), [...names].sort())
    const labels = (await app.inject({method: 'GET', url: '/labels?limit=100'})).json()
    assert.equal(labels.data.map((label: {name: string}) => label.name).sort(), [...names].sort())
    // A conflict of the product's own is still the product's 409.
    const taken = await app.inject({method: 'POST', url: '/products', payload: {name: 'product 0', labels: ['violet']}})
    assert.equal([taken.statusCode, taken.json().errors?.[0]?.pointer], [409, '/name'])
  })

  test('a record made for a new value has what the ORM makes at a flush: a uuid key and its timestamps', async () => {
    const created = await app.inject({method: 'POST', url: '/products', payload: {name: 'marked', marks: ['sale', 'new']}})
    assert.is(created.statusCode, 201, created.body)
    assert.equal(created.json().marks, ['sale', 'new'])
    const marks = (await app.inject({method: 'GET', url: '/marks?sort=name'})).json().data
    assert.equal(marks.map((mark: {name: string}) => mark.name), ['new', 'sale'])
    for (const mark of marks) {
      assert.match(mark.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      assert.match(mark.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      assert.is(mark.updatedAt, mark.createdAt)
    }
  })

  test('concurrent updates that add the same new label answer 200', async () => {
    const answers = await Promise.all(Array.from({length: 8}, (_, index) => app.inject({method: 'PATCH', url: `/products/${index + 1}`, payload: {labels: ['red', `new ${index % 2}`, 'teal']}})))
    assert.equal(answers.map((answer) => answer.statusCode), Array(8).fill(200), answers.map((answer) => answer.body).join('\n'))
    const labels = (await app.inject({method: 'GET', url: '/labels?limit=100'})).json()
    assert.equal(labels.data.map((label: {name: string}) => label.name).sort(), ['amber', 'blue', 'green', 'new 0', 'new 1', 'red', 'teal'])
  })

  test.run()
}

for (const database of await testDatabases()) concurrencySuite(database)
