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

test.run()
