/** `ctx.utils` and the CLI's settings parser: small helpers a user meets directly. */
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {parseSettings} from '../cli/options.js'
import {migrationFileSlug} from '../runtime/migrations/files.js'
import {utils} from '../runtime/utils.js'
import {testDatabase} from '../runtime/testing.js'

test('utils.slug transliterates instead of dropping letters', () => {
  assert.is(utils.slug('Hello, World!'), 'hello-world')
  assert.is(utils.slug('Привет мир'), 'privet-mir')
  assert.is(utils.slug('Łódź'), 'lodz')
  assert.is(utils.slug('Crème brûlée'), 'creme-brulee')
  assert.is(utils.slug('日本語 ブログ'), '日本語-ブログ', 'a script with no transliteration keeps its letters')
})

test('migration file names are transliterated slugs too', () => {
  assert.is(migrationFileSlug('Add ISBN!'), 'add_isbn')
  assert.is(migrationFileSlug('Добавить ISBN'), 'dobavit_isbn')
  assert.is(migrationFileSlug('!!!'), 'migration')
})

test('--setting keys never reach Object.prototype', () => {
  const settings = parseSettings(['__proto__.polluted=1', 'constructor.prototype.polluted=2', 'rules.summary=off'])
  assert.equal(settings, {rules: {summary: 'off'}})
  assert.is(({} as Record<string, unknown>).polluted, undefined)
})

test.run()

test('createTestApp\'s database: APIPE_TEST_DATABASE_URL says its type by its scheme, as database.url does', () => {
  assert.equal(testDatabase({}), {type: 'sqlite', url: ':memory:'})
  assert.equal(testDatabase({APIPE_TEST_DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/app_test'}), {type: 'postgresql', url: 'postgresql://postgres@127.0.0.1:5432/app_test'})
  assert.equal(testDatabase({APIPE_TEST_DATABASE_URL: 'mysql://root@127.0.0.1/app_test', APIPE_TEST_DATABASE_TYPE: 'mariadb'}), {type: 'mariadb', url: 'mysql://root@127.0.0.1/app_test'})
  assert.equal(testDatabase({APIPE_TEST_DATABASE_URL: './data/test.sqlite'}), {type: 'sqlite', url: './data/test.sqlite'})
})
