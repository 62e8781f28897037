import {readdirSync, readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {pipeline} from '../index.js'
import {formatFindings} from '../pipeline/report.js'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'

const project = (name: string) => path.join(root, 'fixtures', 'validate-definitions', name)

/**
 * Each folder of fixtures/validate-definitions is a project; `messages.txt` holds its findings, one per line, as
 * `<file>:<line>:<column> <rule> <reason>`, in report order ("no finding" when it is clean).
 */
for (const name of readdirSync(path.join(root, 'fixtures', 'validate-definitions')).sort()) {
  test(`fixture ${name}: the findings of the backend preset, each in its own file at its line and column`, async () => {
    const cwd = project(name)
    const files = await pipeline('backend', ['pipe.config.json'], {cwd})
    const lines = files.flatMap((file) => file.messages.map((message) => `${file.path}:${message.line}:${message.column} ${message.ruleId} ${message.reason}`))
    const actual = (lines.length > 0 ? lines.join('\n') : 'no finding') + '\n'
    const expected = path.join(cwd, 'messages.txt')
    if (process.env.UPDATE_FIXTURES === '1') writeFileSync(expected, actual)
    assert.fixture(actual, readFileSync(expected, 'utf8'))
  })
}

test('a second place rides along: the first primary key of an entity with two', async () => {
  const files = await pipeline('backend', ['pipe.config.json'], {cwd: project('broken')})
  const primary = files.find((file) => file.path === 'src/entities/book.json')!.messages.find((message) => message.ruleId === 'primary-key')!
  assert.is((primary.cause as {line?: number}).line, 4, 'the first primary key is named as the second place')
})

test('pipe run --preset backend reports the findings under each definition file and exits 1', async () => {
  const result = await runPipe(['run', '--preset', 'backend', 'pipe.config.json'], {cwd: project('broken')})
  assert.is(result.code, 1)
  assert.match(result.stderr, /\n6:15 +error +Unexpected value `strin` for `type`/)
  assert.match(result.stderr, /src\/controller\/book.json\n5:34 +error +Unknown action `publish`/)
  assert.match(result.stderr, /src\/entities\/review.json\n4:29 +error +Unexpected `}`, expected a property name in double quotes +parse/)
  assert.match(result.stderr, /✖ 10 errors\n$/)
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
  assert.is(formatFindings(files, 'text'), 'pipe.config.json: warning pending-migration 1:1 The definitions changed since the last migration (1 statement(s)); run `pipe migrate create`\n0 error(s), 1 warning(s)\n')
  const silenced = await pipeline('backend', ['pipe.config.json'], {cwd: dir, settings: {rules: {'pending-migration': 'off'}}})
  assert.is(formatFindings(silenced, 'text'), '0 error(s), 0 warning(s)\n', 'every finding is a rule that settings can turn off')
})

test.run()
