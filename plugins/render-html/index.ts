/**
 * render-html: one self-contained HTML page for a catalogue (inline CSS and script, no network request, light and
 * dark), added as an output beside the spec: `x.endpoints.json` -> `x.endpoints.html`, `x.json` or `x.yaml` ->
 * `x.html`. Rows are rendered on the server so the first screen needs no script; the script adds search, details,
 * tables, type jumps, deep links and keys. Warnings of earlier plugins show as finding chips on their endpoints.
 */
import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {VFile} from 'vfile'
import type {ParsedTree} from '../parse.js'
import {addOutput, hasErrors} from '../../pipeline/data.js'
import {ApipeError, show} from '../../pipeline/errors.js'
import {packageRoot} from '../../pipeline/schemas.js'
import type {Catalogue} from '../../schemas/types/endpoints.js'
import {pageModel, pathParts, pieceWords} from './model.js'

/** Options of render-html; each overrides the spec's `layout`. */
export interface Options {
  /** Columns of group cards, 1 to 4 (default: `layout.columns`, else 3). */
  columns?: number
  /** Card width in CSS pixels (default: `layout.card_width`, else 420). */
  cardWidth?: number
  /** Whether to show the types section (default: `layout.show_types`, else true). */
  showTypes?: boolean
}

const require = createRequire(import.meta.url)
const assetDir = path.join(packageRoot, 'plugins', 'render-html')
let assets: {template: import('nunjucks').Template; css: string; js: string} | undefined

/** Render catalogue trees to a page. */
export default function renderHtml(options: Options = {}) {
  if (options.columns !== undefined && !(Number.isInteger(options.columns) && options.columns >= 1 && options.columns <= 4)) {
    throw new ApipeError('APIPE_ERR_OPTION', [show(options.columns), 'columns', '1 to 4'])
  }
  if (options.cardWidth !== undefined && !(typeof options.cardWidth === 'number' && options.cardWidth > 0)) {
    throw new ApipeError('APIPE_ERR_OPTION', [show(options.cardWidth), 'cardWidth', 'a positive number of pixels'])
  }
  return (tree: ParsedTree, file: VFile) => {
    if (tree.type !== 'catalogue' || hasErrors(file)) return
    // After an import, the page is named after the catalogue the import produced (`x.endpoints.json` -> `x.endpoints.html`).
    const catalogue = file.data.outputs?.find((output) => output.path.endsWith('.json'))
    const specPath = catalogue?.path ?? (file.path || 'catalogue.json')
    addOutput(file, new VFile({cwd: file.cwd, path: pagePath(specPath), value: renderPage(withLayout(tree.spec, options), file)}))
  }
}

/** The page of a valid catalogue, as a string. */
export function renderPage(spec: Catalogue, file: VFile = new VFile()): string {
  assets ??= loadAssets()
  return assets.template.render({...pageModel(spec, file), css: assets.css, js: assets.js})
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

const environmentOptions = {autoescape: true, trimBlocks: true, lstripBlocks: true}
const compiledPath = path.join(packageRoot, 'dist', 'plugins', 'render-html', 'page.njk.cjs')

/**
 * The page template compiled by nunjucks, as a CommonJS module that keeps the source it was compiled from; `npm run
 * build` writes it to `dist/plugins/render-html/page.njk.cjs` (scripts/build-templates.js) so that a command does
 * not run nunjucks' lexer, parser and compiler on every page.
 */
export function precompiledTemplate(): string {
  const nunjucks = require('nunjucks') as typeof import('nunjucks')
  const source = readFileSync(path.join(assetDir, 'page.njk'), 'utf8')
  const env = new nunjucks.Environment(null, environmentOptions)
  return nunjucks.precompileString(source, {
    name: 'page.njk',
    env,
    wrapper: (templates) => {
      const [{template}] = templates as unknown as Array<{template: string}>
      return `module.exports = {source: ${JSON.stringify(source)}, template: (function () {\n${template}\n})()}\n`
    }
  })
}

/** The build-time compiled template, when it was compiled from `source`. */
function compiledTemplate(source: string): object | undefined {
  try {
    const compiled = require(compiledPath) as {source: string; template: object}
    return compiled.source === source ? compiled.template : undefined
  } catch {
    return undefined
  }
}

function loadAssets() {
  const nunjucks = require('nunjucks') as typeof import('nunjucks')
  const env = new nunjucks.Environment(null, environmentOptions)
  // Markup repeated thousands of times on a big page is built by filters, which escape every value they print:
  // a loop in the template costs nunjucks a frame and seven loop variables per item.
  // nunjucks' own escaper, the one autoescape uses, without the SafeString the `escape` filter wraps each result in.
  const {escape} = (nunjucks as unknown as {lib: {escape(text: string): string}}).lib
  // A row's path: `{params}` highlighted, and `<wbr>` where a long path may wrap (after a `/` or `.`, before a `{`,
  // and after a `_` in a piece too long for a line).
  env.addFilter('pathMarkup', (path: string) => {
    const markup = pathParts(path).map((part) => {
      const text = pieceWords(part.text).map(escape).join('<wbr>')
      return (part.wrap ? '<wbr>' : '') + (part.param ? `<span class="param">${text}</span>` : text)
    })
    return new nunjucks.runtime.SafeString(markup.join(''))
  })
  const read = (name: string) => readFileSync(path.join(assetDir, name), 'utf8')
  const source = read('page.njk')
  const compiled = compiledTemplate(source)
  // nunjucks takes compiled code as `{type: 'code', obj}` where its types say string.
  const template = compiled
    ? new nunjucks.Template({type: 'code', obj: compiled} as unknown as string, env, 'page.njk')
    : new nunjucks.Template(source, env, 'page.njk', true)
  return {template, css: read('page.css'), js: read('page.reference.js') + read('page.client.js')}
}
