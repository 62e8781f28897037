import {test} from 'uvu'
import importGraphql from '../plugins/import-graphql/index.js'
import {presets} from '../presets/index.js'
import {importFixtureTests} from './helpers/import-fixtures.js'

importFixtureTests('import-graphql', presets.graphql, importGraphql)

test.run()
