/**
 * The `backend` preset: load a framework project from its `pipe.config.json` and check its definitions. (Migrations
 * and the catalogue of the app join when the runtime is built.)
 */
import type {Preset} from 'unified'
import parseDefinitions from '../plugins/parse-definitions.js'
import validateDefinitions from '../plugins/validate-definitions/index.js'

const backend: Preset = {
  plugins: [
    // pipe.config.json and the entity and controller definitions it points to.
    [parseDefinitions],
    // Unknown types and entities, two primary keys, enums without values, table clashes, unknown actions.
    [validateDefinitions]
  ]
}

export default backend
