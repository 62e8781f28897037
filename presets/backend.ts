/**
 * The `backend` preset: load a framework project from its `pipe.config.json`, check its definitions, and compare
 * them with the newest migration (a missing migration is a `pending-migration` warning; `pipe migrate create` sets
 * emit-migrations' `create` option to write it). The catalogue of the app joins when the runtime is built.
 */
import type {Preset} from 'unified'
import emitMigrations, {type Options as MigrationOptions} from '../plugins/emit-migrations.js'
import parseDefinitions from '../plugins/parse-definitions.js'
import validateDefinitions from '../plugins/validate-definitions/index.js'

/** The preset with emit-migrations' options (`{create: 'add isbn'}` writes the migration). */
export function backendPreset(migrations: MigrationOptions = {}): Preset {
  return {
    plugins: [
      // pipe.config.json and the entity and controller definitions it points to (JSON and code).
      [parseDefinitions],
      // Unknown types and entities, two primary keys, enums without values, table clashes, unknown actions.
      [validateDefinitions],
      // The diff with the newest migration's snapshot.
      [emitMigrations, migrations]
    ]
  }
}

const backend: Preset = backendPreset()

export default backend
