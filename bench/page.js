// The page benchmark: apipe's page and Swagger UI (swagger-ui-dist, loaded offline) on the same OpenAPI file, in
// headless Chromium, in one run. Reports file size, first screen, per-keystroke search time and the time to open an
// endpoint's details (apipe: its details panel with params, request body fields, responses and curl line; Swagger
// UI: the operation expanded in place), for the same endpoints on both.
// Usage: node bench/page.js [openapi file] (default: ../shared/corpus/big/kubernetes/swagger.json)
import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, statSync, writeFileSync, copyFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {clicks, firstScreen, keystrokes, launch} from './browser-metrics.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const input = process.argv[2] ?? path.join(root, '..', 'shared', 'corpus', 'big', 'kubernetes', 'swagger.json')
const runs = 5
const work = path.join(os.tmpdir(), 'apipe-bench-page')
mkdirSync(work, {recursive: true})

// apipe: import, then render.
const catalogue = path.join(work, 'api.endpoints.json')
execFileSync(process.execPath, [path.join(root, 'bin', 'pipe.js'), 'import', 'openapi', input, catalogue], {stdio: 'ignore'})
execFileSync(process.execPath, [path.join(root, 'bin', 'pipe.js'), 'render', catalogue], {stdio: 'ignore'})
const apipePage = path.join(work, 'api.endpoints.html')

// Swagger UI, offline: its bundle and CSS copied beside a page that inlines the same spec.
const swaggerPrefix = path.join(os.tmpdir(), 'apipe-bench-swagger-ui')
const swaggerDist = path.join(swaggerPrefix, 'node_modules', 'swagger-ui-dist')
if (!existsSync(swaggerDist)) execFileSync('npm', ['install', '--prefix', swaggerPrefix, '--no-save', 'swagger-ui-dist@5.35.0'], {stdio: 'ignore'})
for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) copyFileSync(path.join(swaggerDist, file), path.join(work, file))
const spec = JSON.parse(readFileSync(input, 'utf8'))
const swaggerPage = path.join(work, 'swagger.html')
writeFileSync(
  swaggerPage,
  `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><link rel="stylesheet" href="swagger-ui.css"></head><body><div id="ui"></div>` +
    `<script src="swagger-ui-bundle.js"></script><script>window.ui = SwaggerUIBundle({spec: ${JSON.stringify(spec).replace(/</g, '\\u003c')}, dom_id: '#ui', filter: true, deepLinking: false})</script></body></html>`
)

// Endpoints whose details are opened on both pages: ones with a request body, many params and several responses.
const catalogueSpec = JSON.parse(readFileSync(catalogue, 'utf8'))
const opened = catalogueSpec.endpoints.filter((endpoint) => endpoint.request && endpoint.group).slice(0, 4)
const browser = await launch()
const measure = async (url, listSelector, searchSelector, text, detailSelectors, settle) => {
  const firsts = []
  const keys = []
  const opens = []
  for (let run = 0; run < runs; run++) {
    const {page, ms} = await firstScreen(browser, url, listSelector)
    firsts.push(ms)
    // The details first, on the page as it loaded (every row shown), then the search.
    await page.waitForTimeout(300)
    opens.push(await clicks(page, detailSelectors, {settle}))
    keys.push(await keystrokes(page, searchSelector, text))
    await page.close()
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
  return {first: median(firsts), key: median(keys), open: median(opens)}
}
const apipe = await measure(pathToFileURL(apipePage).href, 'a.row', '#apipe-search', 'pods', opened.map((endpoint) => `a.row[id="${endpoint.id}"]`))
const swaggerSummary = (endpoint) => `[id="operations-${endpoint.tags?.[0] ?? endpoint.group}-${endpoint.id}"] .opblock-summary`
const swagger = await measure(pathToFileURL(swaggerPage).href, '.opblock-tag', '.operation-filter-input', 'pods', opened.map(swaggerSummary), (selector) => selector)
await browser.close()

const size = (file) => `${(statSync(file).size / 1024 / 1024).toFixed(2)} MB`
const swaggerSize = statSync(swaggerPage).size + statSync(path.join(work, 'swagger-ui-bundle.js')).size + statSync(path.join(work, 'swagger-ui.css')).size
const endpoints = JSON.parse(readFileSync(catalogue, 'utf8')).endpoints.length
console.log(`Page benchmark: ${path.basename(path.dirname(input))}/${path.basename(input)} (${endpoints} endpoints), headless Chromium, median over ${runs} loads of the first screen, of the mean time of 12 keystrokes per load ("pods", typed 3 times) and of the mean time to open the details of ${opened.length} endpoints per load (${opened.map((endpoint) => endpoint.id).join(', ')}).`)
console.log(`apipe page: ${statSync(apipePage).size} bytes.`)
console.log('')
console.log('| page | size | first screen | search, per keystroke | open an endpoint\'s details |')
console.log('| --- | --- | --- | --- | --- |')
console.log(`| apipe (\`pipe render\`) | ${size(apipePage)} | ${apipe.first.toFixed(0)} ms | ${apipe.key.toFixed(1)} ms (method, path, summary, tags) | ${apipe.open.toFixed(1)} ms (panel: params, body fields, responses, curl) |`)
console.log(`| Swagger UI 5.35.0 (swagger-ui-dist, offline) | ${(swaggerSize / 1024 / 1024).toFixed(2)} MB | ${swagger.first.toFixed(0)} ms | ${swagger.key.toFixed(1)} ms (tags only) | ${swagger.open.toFixed(1)} ms (operation expanded in place) |`)
