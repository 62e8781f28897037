/** `ctx.utils` and the CLI's settings parser: small helpers a user meets directly. */
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {parseSettings} from '../cli/options.js'
import {migrationFileSlug} from '../runtime/migrations/files.js'
import {utils} from '../runtime/utils.js'

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
