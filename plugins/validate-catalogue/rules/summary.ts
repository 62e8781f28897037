/**
 * Rule `summary` (warning): every endpoint has a summary, because the page shows it and generated sentences are
 * built from it. An empty or blank summary counts as none.
 */
import type {CatalogueTree} from '../../../pipeline/data.js'
import {defineRule} from '../../../pipeline/rule.js'
import {endpointsOf, text} from '../walk.js'

export const summary = defineRule<CatalogueTree>({id: 'summary', severity: 'warn'}, (tree, _file, report) => {
  for (const [index, endpoint] of endpointsOf(tree.spec)) {
    // A summary of the wrong type is the `type` rule's finding, not this one's.
    if (text(endpoint.summary) || (endpoint.summary !== undefined && typeof endpoint.summary !== 'string')) continue
    const name = text(endpoint.id) ?? `${endpoint.method ?? ''} ${endpoint.path ?? ''}`.trim()
    report(`Endpoint \`${name}\` has no summary`, {path: ['endpoints', index]})
  }
})
