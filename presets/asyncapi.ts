/** The `asyncapi` preset: import the events of an AsyncAPI 2.x or 3.0 document into a catalogue, check it, render it. */
import type {Preset} from 'unified'
import importAsyncapi from '../plugins/import-asyncapi/index.js'
import parse from '../plugins/parse.js'
import renderHtml from '../plugins/render-html/index.js'
import validateCatalogue from '../plugins/validate-catalogue/index.js'

const asyncapi: Preset = {
  plugins: [
    // JSON or YAML into an `asyncapi` tree.
    [parse],
    // Published operations become EVENT endpoints; adds `<name>.endpoints.json`.
    [importAsyncapi],
    // The imported catalogue must meet its own contract.
    [validateCatalogue],
    // `<name>.endpoints.html`.
    [renderHtml]
  ]
}

export default asyncapi
