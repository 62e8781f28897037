/** The `sentences` preset: check a catalogue and compute its documentation sentences (what `pipe sentences` prints). */
import type {Preset} from 'unified'
import sentenceGenerate from '../plugins/sentence-generate.js'
import validate from './validate.js'

const sentences: Preset = {
  plugins: [
    // parse, validate-catalogue: sentences come only from a catalogue without errors.
    ...(validate.plugins ?? []),
    // `file.data.endpoints`: the operations and types sections.
    [sentenceGenerate]
  ]
}

export default sentences
