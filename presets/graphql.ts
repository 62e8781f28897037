/** The `graphql` preset: import a GraphQL schema (SDL or introspection JSON) into a catalogue, check it, render it. */
import type {Preset} from 'unified'
import importGraphql from '../plugins/import-graphql/index.js'
import parseGraphql from '../plugins/parse-graphql.js'
import renderHtml from '../plugins/render-html/index.js'
import validateCatalogue from '../plugins/validate-catalogue/index.js'

const graphql: Preset = {
  plugins: [
    // SDL or introspection JSON into a `graphql` tree.
    [parseGraphql],
    // Operations become QUERY, MUTATION and SUBSCRIPTION endpoints; adds `<name>.endpoints.json`.
    [importGraphql],
    // The imported catalogue must meet its own contract.
    [validateCatalogue],
    // `<name>.endpoints.html`.
    [renderHtml]
  ]
}

export default graphql
