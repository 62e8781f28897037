/**
 * The `map-app` preset (`pipe map <project dir>`): load and check a framework project, map it to its catalogue
 * (`api.endpoints.json`), check the catalogue like any other, and render its page (`api.endpoints.html`).
 */
import type {Preset} from 'unified'
import mapApp from '../plugins/map-app.js'
import parseDefinitions from '../plugins/parse-definitions.js'
import renderHtml from '../plugins/render-html/index.js'
import validateCatalogue from '../plugins/validate-catalogue/index.js'
import validateDefinitions from '../plugins/validate-definitions/index.js'

const mapAppPreset: Preset = {
  plugins: [[parseDefinitions], [validateDefinitions], [mapApp], [validateCatalogue], [renderHtml]]
}

export default mapAppPreset
