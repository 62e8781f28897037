import {test} from 'uvu'
import importAsyncapi from '../plugins/import-asyncapi/index.js'
import {presets} from '../presets/index.js'
import {importFixtureTests} from './helpers/import-fixtures.js'

importFixtureTests('import-asyncapi', presets.asyncapi, importAsyncapi)

test.run()
