import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {pipeline} from '../index.js'
import {formatFindings} from '../pipeline/report.js'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'

const project = (name: string) => path.join(root, 'fixtures', 'validate-definitions', name)

test('a clean project has no finding', async () => {
  const files = await pipeline('backend', [path.join(project('clean'), 'pipe.config.json')], {cwd: project('clean')})
  assert.is(formatFindings(files, 'text'), '0 error(s), 0 warning(s)\n')
})

test('every definition mistake is a finding in its own file, at its line and column', async () => {
  const cwd = project('broken')
  const files = await pipeline('backend', ['pipe.config.json'], {cwd})
  const lines = files.flatMap((file) => file.messages.map((message) => `${file.path}:${message.line}:${message.column} ${message.ruleId} ${message.reason}`))
  assert.equal(lines, [
    'src/entities/book.json:6:15 definition-schema Unexpected value `strin` for `type`, expected one of `string`, `text`, `email`, `password`, `number`, `integer`, `boolean`, `date`, `datetime`, `uuid`, `json`, `enum`',
    'src/entities/book.json:10:39 unknown-entity Unknown entity `usr`; known entities: book, novel',
    'src/entities/book.json:11:40 unknown-entity Unknown entity `review`; known entities: book, novel',
    'src/entities/book.json:5:32 primary-key Entity `book` has 2 primary keys (id, code), expected one',
    'src/entities/book.json:7:5 enum-values Enum field `state` has no values, expected `enum: ["a", "b"]`',
    'src/entities/book.json:11:5 relation-inverse Relation `reviews` is one-to-many without `inverse`, expected the name of the many-to-one on `review`',
    'src/entities/novel.json:3:3 table-clash Table `book` is already used by src/entities/book.json',
    'src/entities/review.json:4:29 parse Unexpected `}`, expected a property name in double quotes',
    'src/controller/book.json:5:34 unknown-action Unknown action `publish` for `POST /books/{id}/publish`; a JSON controller has list, read, create, update, delete, count (custom actions need a code controller)'
  ])
  const primary = files.find((file) => file.path === 'src/entities/book.json')!.messages.find((message) => message.ruleId === 'primary-key')!
  assert.is((primary.cause as {line?: number}).line, 4, 'the first primary key is named as the second place')
})

test('pipe run --preset backend reports the findings under each definition file and exits 1', async () => {
  const result = await runPipe(['run', '--preset', 'backend', 'pipe.config.json'], {cwd: project('broken')})
  assert.is(result.code, 1)
  assert.match(result.stderr, /\n6:15 +error +Unexpected value `strin` for `type`/)
  assert.match(result.stderr, /src\/controller\/book.json\n5:34 +error +Unknown action `publish`/)
  assert.match(result.stderr, /src\/entities\/review.json\n4:29 +error +Unexpected `}`, expected a property name in double quotes +parse/)
  assert.match(result.stderr, /✖ 9 errors\n$/)
})

test('code definitions (TypeScript classes and controllers) load and get findings at their line and column', async () => {
  const cwd = project('code')
  const files = await pipeline('backend', ['pipe.config.json'], {cwd})
  const lines = files.flatMap((file) => file.messages.map((message) => `${file.path}:${message.line}:${message.column} ${message.ruleId} ${message.reason}`))
  assert.equal(lines, [
    'src/entities/book.ts:6:3 unknown-entity Unknown entity `publisher`; known entities: author, book',
    'src/entities/broken.ts:4:7 load-definition Cannot load entity definition: Cannot build an entity from integer',
    'src/controller/author.ts:7:5 unknown-action Unknown action `retire` for `POST /authors/{id}/retire`; this controller has list, read, create, update, delete, count, promote'
  ])
})

test('pipe.config.json reads ${NAME} and ${NAME:-fallback} from the environment and .env', async () => {
  const {resolveConfig} = await import('../runtime/config.js')
  const {mkdtempSync, writeFileSync} = await import('node:fs')
  const {tmpdir} = await import('node:os')
  const dir = mkdtempSync(path.join(tmpdir(), 'apipe-env-'))
  writeFileSync(path.join(dir, '.env'), 'DATABASE_URL=postgresql://app@127.0.0.1/app\nJWT_SECRET=from-dotenv\n')
  const config = {database: {type: 'postgresql' as const, url: '${DATABASE_URL}'}, jwtSecret: '${JWT_SECRET}', port: '${APP_PORT:-4000}', auth: {entity: '${MISSING_ENTITY}'}}
  const resolved = resolveConfig(config, dir, {JWT_SECRET: 'from-environment'})
  assert.is(resolved.database.url, 'postgresql://app@127.0.0.1/app')
  assert.is(resolved.jwtSecret, 'from-environment', 'the environment wins over .env')
  assert.is(resolved.port, 4000)
  assert.is(resolved.auth?.entity, '')
  assert.equal(resolved.missingVariables, ['MISSING_ENTITY'])
  assert.equal(resolveConfig({}, dir, {PORT: '8080'}).database, {type: 'sqlite', url: './data/app.sqlite'})
  assert.is(resolveConfig({port: 3001}, dir, {PORT: '8080'}).port, 8080, 'PORT wins over the config')
})

test('the backend preset warns when definitions changed since the newest migration', async () => {
  const {cpSync, mkdtempSync, readFileSync, writeFileSync} = await import('node:fs')
  const {tmpdir} = await import('node:os')
  const dir = mkdtempSync(path.join(tmpdir(), 'apipe-pending-'))
  cpSync(project('clean'), dir, {recursive: true})
  const book = path.join(dir, 'src/entities/book.json')
  const definition = JSON.parse(readFileSync(book, 'utf8'))
  definition.fields.subtitle = {type: 'string'}
  writeFileSync(book, JSON.stringify(definition, null, 2))
  const files = await pipeline('backend', ['pipe.config.json'], {cwd: dir})
  assert.is(formatFindings(files, 'text'), 'pipe.config.json\nwarning pending-migration 1:1 The definitions changed since the last migration (1 statement(s)); run `pipe migrate create`\n0 error(s), 1 warning(s)\n')
  const silenced = await pipeline('backend', ['pipe.config.json'], {cwd: dir, settings: {rules: {'pending-migration': 'off'}}})
  assert.is(formatFindings(silenced, 'text'), '0 error(s), 0 warning(s)\n', 'every finding is a rule that settings can turn off')
})

test.run()
