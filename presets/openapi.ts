/** The `openapi` preset: import an OpenAPI 3.x or Swagger 2.0 document into a catalogue, check it, render it. */
import type {Preset} from 'unified'
import importOpenapi from '../plugins/import-openapi/index.js'
import parse from '../plugins/parse.js'
import renderHtml from '../plugins/render-html/index.js'
import resolveRefs from '../plugins/resolve-refs.js'
import validateCatalogue from '../plugins/validate-catalogue/index.js'

const openapi: Preset = {
  plugins: [
    // JSON or YAML into an `openapi` tree.
    [parse],
    // Other files bundled in; the document checked against the OpenAPI/Swagger schemas (warnings).
    [resolveRefs],
    // Operations, webhooks and callbacks become endpoints; adds `<name>.endpoints.json`.
    [importOpenapi],
    // The imported catalogue must meet its own contract (a big API gets the `size` warning).
    [validateCatalogue],
    // `<name>.endpoints.html`.
    [renderHtml]
  ]
}

export default openapi
