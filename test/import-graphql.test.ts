import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {VFile} from 'vfile'
import importGraphql, {titleFromPath} from '../plugins/import-graphql/index.js'
import {describe} from '../plugins/shared/describe.js'
import {presets} from '../presets/index.js'
import {importFixtureTests} from './helpers/import-fixtures.js'

importFixtureTests('import-graphql', presets.graphql, importGraphql)

test('the title is the file name without its generic closing words, else the folder name', () => {
  const title = (path: string) => titleFromPath(new VFile({path}))
  assert.is(title('shopify/storefront.schema.json'), 'storefront')
  assert.is(title('shopify/customer-account.schema.json'), 'customer-account')
  assert.is(title('swapi/schema.graphql'), 'swapi')
  assert.is(title('github/schema.docs.graphql'), 'schema.docs')
  assert.is(title('artsy/_schemaV2.graphql'), 'schemaV2')
  assert.is(title('api/introspection.schema.json'), 'api')
  // An npm package's files sit in `package/`: its package.json names it.
  const tarball = mkdtempSync(path.join(os.tmpdir(), 'apipe-tarball-'))
  mkdirSync(path.join(tarball, 'package', 'dist'), {recursive: true})
  writeFileSync(path.join(tarball, 'package', 'package.json'), JSON.stringify({name: '@octokit/graphql-schema'}))
  assert.is(title(path.join(tarball, 'package', 'schema.graphql')), '@octokit/graphql-schema')
  assert.is(title(path.join(tarball, 'package', 'dist', 'schema.json')), '@octokit/graphql-schema')
  assert.is(title(path.join(tarball, 'shopify', 'dist', 'schema.json')), 'shopify')
})

test('a summary never stops mid-sentence where an SDL description was wrapped (GitHub\'s)', () => {
  const summary = (text: string) => describe(text).summary
  assert.is(summary('Workaround for re-exposing the root query object. (Refer to\nhttps://github.com/facebook/relay/issues/112 for more information.)'), 'Workaround for re-exposing the root query object.')
  assert.is(summary('Make many sponsorships for different sponsorable users or organizations at\nonce. Can only sponsor those who have a public GitHub Sponsors profile.'), 'Make many sponsorships for different sponsorable users or organizations at once.')
  assert.is(summary('Look up a code of conduct\nby its key'), 'Look up a code of conduct by its key')
  // A first line that ends a sentence, or a paragraph of its own, is the summary as before.
  assert.is(summary('The client\'s rate limit information.\nMore on limits.'), 'The client\'s rate limit information.')
  assert.is(summary('Look up a code of conduct by its key\n\nThe key is the slug.'), 'Look up a code of conduct by its key')
  assert.is(summary(`${'word '.repeat(30)}without an end\nand on`), `${'word '.repeat(30)}without an end`.trim())
})

test.run()
