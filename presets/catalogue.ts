/** The `catalogue` preset: check an endpoint catalogue and write its page and sentences. */
import type {Preset} from 'unified'
import renderHtml from '../plugins/render-html/index.js'
import sentenceGenerate from '../plugins/sentence-generate.js'
import validate from './validate.js'

const catalogue: Preset = {
  plugins: [
    // parse, validate-catalogue.
    ...(validate.plugins ?? []),
    // The documentation sentences (`file.data.endpoints`), for the page and for documents.
    [sentenceGenerate],
    // `<name>.html` beside `<name>.json`: the self-contained page.
    [renderHtml]
  ]
}

export default catalogue
