import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {VFile} from 'vfile'
import importGraphql, {titleFromPath} from '../plugins/import-graphql/index.js'
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
})

test.run()
