/** The `catalogue` preset: check an endpoint catalogue and write its page and sentences. */
import type {Preset} from 'unified'
import validate from './validate.js'

const catalogue: Preset = {
  plugins: [
    // parse, validate-catalogue.
    ...(validate.plugins ?? [])
  ]
}

export default catalogue
