/** The `validate` preset: only check a catalogue (what `pipe validate` runs); writes nothing. */
import type {Preset} from 'unified'
import parse from '../plugins/parse.js'
import validateCatalogue from '../plugins/validate-catalogue/index.js'

const validate: Preset = {
  plugins: [
    // JSON or YAML into a `catalogue` tree.
    [parse],
    // The contract: schema, references, clashes, style.
    [validateCatalogue]
  ]
}

export default validate
