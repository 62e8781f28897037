/**
 * The page itself: the view model (model.ts) printed by the nunjucks template, with the page's CSS and script inline.
 * Loaded by render-html only when a page is written.
 */
import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {VFile} from 'vfile'
import {requireBuilt} from '../../pipeline/built.js'
import type {Catalogue} from '../../schemas/types/endpoints.js'
import {prepareDescriptions} from './markdown.js'
import {assetDir, environmentOptions} from './template.js'
import {pageModel, pathParts, type EndpointView} from './model.js'
import {pieceHtml, signaturePieces} from './wrap.js'

/** For nunjucks' compiler, when the template changed since the build. */
const requirePackage = createRequire(import.meta.url)
let assets: {template: import('nunjucks').Template; css: string; js: string} | undefined

/** The page of a valid catalogue, as a string. */
export async function renderPage(spec: Catalogue, file: VFile = new VFile()): Promise<string> {
  await prepareDescriptions(spec)
  assets ??= loadAssets()
  return assets.template.render({...(await pageModel(spec, file)), css: assets.css, js: assets.js})
}

/** The build-time compiled template, when it was compiled from `source`. */
function compiledTemplate(source: string): object | undefined {
  try {
    const compiled = requireBuilt('#page-template') as {source: string; template: object}
    return compiled.source === source ? compiled.template : undefined
  } catch {
    return undefined
  }
}

function loadAssets() {
  const read = (name: string) => readFileSync(path.join(assetDir, name), 'utf8')
  const source = read('page.njk')
  const compiled = compiledTemplate(source)
  // A compiled template needs only nunjucks' runtime: its one-file build, where the package loads two dozen files
  // (and which the CLI's bundle holds, as it holds the template: see pipeline/built.ts).
  const nunjucks = (compiled ? requireBuilt('nunjucks/browser/nunjucks-slim.js') : requirePackage('nunjucks')) as typeof import('nunjucks')
  const env = new nunjucks.Environment(null, environmentOptions)
  // Markup repeated thousands of times on a big page is built by filters, which escape every value they print:
  // a loop in the template costs nunjucks a frame and seven loop variables per item.
  // nunjucks' own escaper, the one autoescape uses, without the SafeString the `escape` filter wraps each result in.
  const {escape} = (nunjucks as unknown as {lib: {escape(text: string): string}}).lib
  // A word with a hyphen in it (`pull-requests/`) stays on one line: a browser would break after the hyphen.
  const word = (text: string) => (text.includes('-') ? `<span class="nb">${escape(text)}</span>` : escape(text))
  // A row's path: `{params}` highlighted, and `<wbr>` where a long path may wrap (after a `/` or `.`, before a `{`,
  // and between the words of a piece too long for a line); a GraphQL signature wraps at its spaces, after its `(`
  // and between the words of a long name.
  const pathMarkup = (row: EndpointView) =>
    row.family === 'graphql'
      ? signaturePieces(row.path)
          .map((piece) => pieceHtml(piece, word))
          .join('<wbr>')
      : pathParts(row.path)
          .map((part) => {
            const text = pieceHtml(part.text, word)
            return (part.wrap ? '<wbr>' : '') + (part.param ? `<span class="param">${text}</span>` : text)
          })
          .join('')
  // A group's rows, each on its line: a template loop over them, and over each row's status chips, took 61 ms of
  // Kubernetes' page (1,192 rows).
  const rowMarkup = (row: EndpointView) => {
    const chips = [
      row.deprecated ? '<span class="chip deprecated-chip">deprecated</span>' : '',
      row.auth ? `<span class="chip lock">${escape(row.auth)}</span>` : '',
      ...row.statuses.map((status) => `<span class="chip status ${escape(status.kind)}">${status.code}</span>`),
      row.moreStatuses ? `<span class="chip status more">+${row.moreStatuses}</span>` : '',
      row.findings.length ? `<span class="chip finding">⚠ ${row.findings.length}</span>` : ''
    ]
    // Rows of one method and path (events on one WebSocket address) are told apart by their ids, on a line of their own.
    const sharedId = row.sharedRouteId ? `<code class="route-id">${escape(row.sharedRouteId)}</code>` : ''
    const summary = row.summaryHtml ? `<span class="summary">${row.summaryHtml}</span>` : ''
    return `\n        <li><a class="row${row.deprecated ? ' deprecated' : ''}" id="${escape(row.id)}" href="#${escape(row.id)}"><span class="method m-${escape(row.method.toLowerCase())} f-${row.family}">${escape(row.method)}</span><span class="path">${pathMarkup(row)}</span><span class="chips">${chips.join('')}</span>${sharedId}${summary}</a></li>`
  }
  env.addFilter('rowsMarkup', (rows: EndpointView[]) => new nunjucks.runtime.SafeString(rows.map(rowMarkup).join('')))
  // The id of a group's card and the fragment of its index link (`group-Pet%20Store`): an HTML id holds no whitespace,
  // so tag names with spaces are percent-encoded there (and `%`, so that two ids never meet); a link's fragment finds
  // the id it spells as written.
  env.addFilter('anchor', (id: string) => id.replace(/[%\t\n\f\r ]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`))
  // nunjucks takes compiled code as `{type: 'code', obj}` where its types say string.
  const template = compiled
    ? new nunjucks.Template({type: 'code', obj: compiled} as unknown as string, env, 'page.njk')
    : new nunjucks.Template(source, env, 'page.njk', true)
  return {template, css: read('page.css'), js: read('page.reference.js') + read('page.client.js')}
}
