/**
 * Added after an import preset by `pipe diff`: a document imported only to be compared is not checked. The OpenAPI
 * schema check and the search for broken refs (resolve-refs) and the catalogue's contract (validate-catalogue) only
 * give warnings or refuse the importer's own output, and `pipe diff` prints neither; the page is not written. Catalogue inputs keep their
 * validation (the `validate` preset): a hand-written catalogue must be well formed to be compared.
 */
import type {Preset} from 'unified'
import renderHtml from '../plugins/render-html/index.js'
import resolveRefs from '../plugins/resolve-refs.js'
import validateCatalogue from '../plugins/validate-catalogue/index.js'

export const diffInput: Preset = {plugins: [[resolveRefs, {check: false, followAll: false}], [validateCatalogue, false], [renderHtml, false]]}
