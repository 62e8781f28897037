/**
 * render-html: one self-contained HTML page for a catalogue (inline CSS and script, no network request, light and
 * dark), added as an output beside the spec: `x.endpoints.json` -> `x.endpoints.html`, `x.json` or `x.yaml` ->
 * `x.html`. Rows are rendered on the server so the first screen needs no script; the script adds search, details,
 * tables, type jumps, deep links and keys. Warnings of earlier plugins show as finding chips on their endpoints.
 */
import path from 'node:path'
import {VFile} from 'vfile'
import type {ParsedTree} from '../parse.js'
import {addOutput, hasErrors} from '../../pipeline/data.js'
import {ApipeError, show} from '../../pipeline/errors.js'
import type {Catalogue} from '../../schemas/types/endpoints.js'
export {precompiledTemplate} from './template.js'

/** Options of render-html; each overrides the spec's `layout`. */
export interface Options {
  /** Columns of group cards, 1 to 4 (default: `layout.columns`, else 3). */
  columns?: number
  /** Card width in CSS pixels (default: `layout.card_width`, else 420). */
  cardWidth?: number
  /** Whether to show the types section (default: `layout.show_types`, else true). */
  showTypes?: boolean
}


/** Render catalogue trees to a page. */
export default function renderHtml(options: Options = {}) {
  if (options.columns !== undefined && !(Number.isInteger(options.columns) && options.columns >= 1 && options.columns <= 4)) {
    throw new ApipeError('APIPE_ERR_OPTION', [show(options.columns), 'columns', '1 to 4'])
  }
  if (options.cardWidth !== undefined && !(typeof options.cardWidth === 'number' && options.cardWidth > 0)) {
    throw new ApipeError('APIPE_ERR_OPTION', [show(options.cardWidth), 'cardWidth', 'a positive number of pixels'])
  }
  return (tree: ParsedTree, file: VFile): Promise<void> | undefined => {
    if (tree.type !== 'catalogue' || hasErrors(file)) return undefined
    // After an import, the page is named after the catalogue the import produced (`x.endpoints.json` -> `x.endpoints.html`).
    const catalogue = file.data.outputs?.find((output) => output.path.endsWith('.json'))
    const specPath = catalogue?.path ?? (file.path || 'catalogue.json')
    // The page module (with the Markdown stack under it) is loaded only when a page is written: commands that turn
    // the page off (`pipe import`) do not pay for it.
    return import('./page.js').then(async ({renderPage}) => {
      addOutput(file, new VFile({cwd: file.cwd, path: pagePath(specPath), value: await renderPage(withLayout(tree.spec, options), file)}))
    })
  }
}

/** `x.endpoints.json` -> `x.endpoints.html`; `x.json`, `x.yaml` -> `x.html`. */
export function pagePath(specPath: string): string {
  const extension = path.extname(specPath)
  return (extension ? specPath.slice(0, -extension.length) : specPath) + '.html'
}

function withLayout(spec: Catalogue, options: Options): Catalogue {
  if (options.columns === undefined && options.cardWidth === undefined && options.showTypes === undefined) return spec
  const layout = {...spec.layout}
  if (options.columns !== undefined) layout.columns = options.columns
  if (options.cardWidth !== undefined) layout.card_width = options.cardWidth
  if (options.showTypes !== undefined) layout.show_types = options.showTypes
  return {...spec, layout}
}
