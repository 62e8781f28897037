/** The `catalogue` preset: check an endpoint catalogue and write its page and sentences. */
import type {Preset} from 'unified'
import sentenceGenerate from '../plugins/sentence-generate.js'
import validate from './validate.js'

const catalogue: Preset = {
  plugins: [
    // parse, validate-catalogue.
    ...(validate.plugins ?? []),
    // The documentation sentences (`file.data.endpoints`), for the page and for documents.
    [sentenceGenerate]
  ]
}

export default catalogue
