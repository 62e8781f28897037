import {test} from 'uvu'
import importOpenapi from '../plugins/import-openapi/index.js'
import {presets} from '../presets/index.js'
import {importFixtureTests} from './helpers/import-fixtures.js'

importFixtureTests('import-openapi', presets.openapi, importOpenapi)

test.run()
