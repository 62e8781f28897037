import {existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync} from 'node:fs'
import {createRequire} from 'node:module'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {entityName, plural} from '../runtime/generate.js'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'

const require = createRequire(import.meta.url)
const validator = (name: string) => require(path.join(root, 'schemas', 'validators', `${name}.cjs`)) as ((value: unknown) => boolean) & {errors?: unknown}
const project = () => mkdtempSync(path.join(os.tmpdir(), 'apipe-generate-'))

test('entity names are lower case with words joined by _, routes use the plural', () => {
  assert.equal(['Book', 'BookReview', 'book-review', 'HTTPLog'].map(entityName), ['book', 'book_review', 'book_review', 'httplog'])
  assert.equal(['book', 'category', 'box', 'book_review', 'day'].map(plural), ['books', 'categories', 'boxes', 'book_reviews', 'days'])
})

test('pipe generate entity writes a definition with the fields and modifiers asked for, valid against its schema', async () => {
  const cwd = project()
  const result = await runPipe(['generate', 'entity', 'BookReview', '--fields', 'title:string:required,isbn:string:unique,email:email:required:unique,state:enum(draft|live):index,secret:password:hidden'], {cwd})
  assert.equal(result, {code: 0, stdout: 'Wrote src/entities/book_review.json\nNext: `pipe generate controller BookReview --crud` for its routes, `pipe migrate create add-book-review` and `pipe migrate` for its table\n', stderr: ''})
  const definition = JSON.parse(readFileSync(path.join(cwd, 'src', 'entities', 'book_review.json'), 'utf8'))
  assert.equal(definition, {
    // As the files `pipe init` writes: an editor checks and completes it from the installed schema.
    $schema: '../../node_modules/apipe-kit/schemas/entity.schema.json',
    name: 'book_review',
    fields: {
      title: {type: 'string', required: true},
      isbn: {type: 'string', unique: true},
      email: {type: 'email', required: true, unique: true},
      state: {type: 'enum', enum: ['draft', 'live'], index: true},
      secret: {type: 'password', hidden: true}
    },
    timestamps: true
  })
  assert.ok(validator('entity')(definition))
})

test('pipe generate entity refuses to overwrite without --force, and replaces with it', async () => {
  const cwd = project()
  await runPipe(['generate', 'entity', 'Book'], {cwd})
  const again = await runPipe(['generate', 'entity', 'Book', '--fields', 'isbn'], {cwd})
  assert.equal(again, {code: 1, stdout: '', stderr: 'Refusing to overwrite `src/entities/book.json`; pass --force to replace it\n'})
  assert.is(JSON.parse(readFileSync(path.join(cwd, 'src', 'entities', 'book.json'), 'utf8')).fields.title.type, 'string')
  // With its controller there, what is left to do is the migration.
  await runPipe(['generate', 'controller', 'Book', '--crud'], {cwd})
  const forced = await runPipe(['generate', 'entity', 'Book', '--fields', 'isbn', '--force'], {cwd})
  assert.equal(forced, {code: 0, stdout: 'Wrote src/entities/book.json\nNext: `pipe migrate create add-book` and `pipe migrate` for its table\n', stderr: ''})
  assert.equal(JSON.parse(readFileSync(path.join(cwd, 'src', 'entities', 'book.json'), 'utf8')).fields, {isbn: {type: 'string'}})
})

test('the Next line names the controller as it can be typed again', async () => {
  const cwd = project()
  const result = await runPipe(['generate', 'entity', 'bad name!'], {cwd})
  assert.equal(result, {code: 0, stdout: 'Wrote src/entities/bad_name.json\nNext: `pipe generate controller bad_name --crud` for its routes, `pipe migrate create add-bad-name` and `pipe migrate` for its table\n', stderr: ''})
})

test('pipe generate entity names a bad type or modifier and writes nothing', async () => {
  const cwd = project()
  const type = await runPipe(['generate', 'entity', 'User', '--fields', 'role:strng'], {cwd})
  assert.equal(type, {code: 2, stdout: '', stderr: 'Unexpected type `strng` in `role:strng`, expected one of string, text, email, password, number, integer, boolean, date, datetime, uuid, json, enum\n\n$ pipe generate entity [--fields <fields>] [--code] [--force] <Name>\n'})
  const modifier = await runPipe(['generate', 'entity', 'User', '--fields', 'email:email:mandatory'], {cwd})
  assert.is(modifier.stderr, 'Unexpected modifier `mandatory` in `email:email:mandatory`, expected one of required, unique, index, hidden\n\n$ pipe generate entity [--fields <fields>] [--code] [--force] <Name>\n')
  assert.not.ok(existsSync(path.join(cwd, 'src')))
})

test('pipe generate entity --code writes a class that defines the same entity as the JSON', async () => {
  const cwd = project()
  const fields = 'email:email:required:unique,state:enum(draft|live):index,age:integer'
  await runPipe(['generate', 'entity', 'User', '--fields', fields], {cwd})
  const result = await runPipe(['generate', 'entity', 'User', '--fields', fields, '--code'], {cwd})
  assert.equal(result, {code: 0, stdout: 'Wrote src/entities/user.ts\nNext: `pipe generate controller User --crud` for its routes, `pipe migrate create add-user` and `pipe migrate` for its table\n', stderr: ''})
  // Let the generated file import `apipe-kit/runtime` from this checkout.
  mkdirSync(path.join(cwd, 'node_modules'), {recursive: true})
  symlinkSync(root, path.join(cwd, 'node_modules', 'apipe-kit'))
  const fromCode = (await import(pathToFileURL(path.join(cwd, 'src', 'entities', 'user.ts')).href)).default
  const {$schema: _schema, ...fromJson} = JSON.parse(readFileSync(path.join(cwd, 'src', 'entities', 'user.json'), 'utf8'))
  assert.equal(fromCode, fromJson)
})

test('pipe generate controller --crud writes the six auto-CRUD routes on the plural path', async () => {
  const cwd = project()
  // Without its entity the project would no longer load: refused, nothing written.
  const alone = await runPipe(['generate', 'controller', 'Category', '--crud'], {cwd})
  assert.equal(alone, {code: 1, stdout: '', stderr: 'No entity `category` in src/entities for the CRUD routes to act on; write it first: `pipe generate entity category`\n'})
  assert.not.ok(existsSync(path.join(cwd, 'src', 'controller')))
  await runPipe(['generate', 'entity', 'Category'], {cwd})
  const result = await runPipe(['generate', 'controller', 'Category', '--crud'], {cwd})
  assert.equal(result, {code: 0, stdout: 'Wrote src/controller/category.json\n', stderr: ''})
  const definition = JSON.parse(readFileSync(path.join(cwd, 'src', 'controller', 'category.json'), 'utf8'))
  assert.equal(definition, {
    $schema: '../../node_modules/apipe-kit/schemas/controller.schema.json',
    name: 'category',
    entity: 'category',
    routes: {
      'GET /categories': 'list',
      'GET /categories/count': 'count',
      'GET /categories/{id}': 'read',
      'POST /categories': 'create',
      'PATCH /categories/{id}': 'update',
      'PUT /categories/{id}': 'update',
      'DELETE /categories/{id}': 'delete'
    }
  })
  assert.ok(validator('controller')(definition))
})

test.run()
