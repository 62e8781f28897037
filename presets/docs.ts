/**
 * The `docs` preset: render document templates (`docs/*.njk`) that ask for the sentences of catalogues named by the
 * `catalogue` setting. Each catalogue goes through parse, validate-catalogue and sentence-generate first.
 */
import type {Preset} from 'unified'
import parseTemplate from '../plugins/parse-template.js'
import renderDocs from '../plugins/render-docs/index.js'

const docs: Preset = {
  plugins: [
    // The input is a nunjucks template, `<name>.<extension>.njk`.
    [parseTemplate],
    // Validate the catalogues, generate their sentences, render the document.
    [renderDocs]
  ]
}

export default docs
