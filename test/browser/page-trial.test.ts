/**
 * What a trial of the page in Chromium on public descriptions found, each as a reader meets it: an empty catalogue,
 * events on one address, facets half typed or named after an import's first tag, Esc and the address, curl lines
 * for API keys and for a catalogue without a base URL, long names inside cards and the panel, closed responses, and
 * links the sanitizer disarmed.
 */
import {mkdtempSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {suite} from 'uvu'
import * as assert from 'uvu/assert'
import type {Browser, Page} from 'playwright-core'
import {testWhen} from '../helpers/skip.js'
import {browserMissing, launch} from '../helpers/browser.js'
import {runPipe} from '../helpers/run-pipe.js'

const trial = suite<{browser?: Browser; tab?: Page; errors: string[]}>('the page as a trial found it', {errors: []})
const missing = browserMissing()

trial.before(async (context) => {
  if (!missing) context.browser = await launch()
})
trial.after(async (context) => {
  await context.browser?.close()
})
trial.before.each(async (context) => {
  if (missing) return
  context.errors = []
  context.tab = await context.browser!.newPage({viewport: {width: 1280, height: 900}})
  context.tab.on('pageerror', (error) => context.errors.push(error.message))
})
trial.after.each(async (context) => {
  assert.equal(context.errors, [], 'no script error')
  await context.tab?.close()
})

/** A file written in a fresh folder, and that folder. */
function written(name: string, text: string): {dir: string; file: string} {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apipe-trial-'))
  writeFileSync(path.join(dir, name), text)
  return {dir, file: path.join(dir, name)}
}

/** The page `pipe render` writes for a catalogue, as a file URL. */
async function rendered(catalogue: object): Promise<string> {
  const {dir, file} = written('trial.endpoints.json', JSON.stringify({schema_version: 1, diagram_type: 'endpoints', ...catalogue}))
  const result = await runPipe(['render', file])
  assert.is(result.code, 0, result.stderr)
  return pathToFileURL(path.join(dir, 'trial.endpoints.html')).href
}

/** The page `pipe map` writes for a description, as a file URL. */
async function mapped(name: string, text: string): Promise<string> {
  const {dir, file} = written(name, text)
  const result = await runPipe(['map', file, '--output', dir])
  assert.is(result.code, 0, result.stderr)
  return pathToFileURL(path.join(dir, 'api.endpoints.html')).href
}

const visibleRows = (tab: Page) => tab.$$eval('a.row', (rows) => rows.filter((row) => row.checkVisibility()).map((row) => row.id))
const curlLine = (tab: Page) => tab.textContent('#apipe-details .curl code')
const check = (name: string, run: (tab: Page) => Promise<void>) => testWhen(trial, missing, name, async (context) => run(context.tab!))

check('a catalogue with no endpoints says so, without a script error', async (tab) => {
  await tab.goto(await rendered({meta: {title: 'Nothing yet'}, endpoints: []}))
  assert.is(await tab.textContent('#apipe-empty'), 'This catalogue lists no endpoints, operations or events.')
  assert.ok(await tab.isVisible('#apipe-empty'))
  assert.is(await tab.textContent('#apipe-count'), '0 endpoints')
  await tab.fill('#apipe-search', 'anything')
  assert.is(await tab.textContent('#apipe-count'), '0 endpoints')
})

const webSocket = `asyncapi: 3.0.0
info: {title: Exchange, version: 1.0.0}
channels:
  root:
    address: /
    messages:
      ping: {payload: {type: object}, description: "Client can ping the server to learn whether the connection is alive.\\n\\nThe server answers with a pong."}
      ticker: {payload: {type: object, properties: {pair: {type: string}}}, description: Ticker information on a currency pair.}
operations:
  ticker: {action: send, channel: {$ref: '#/channels/root'}, messages: [{$ref: '#/channels/root/messages/ticker'}]}
  heartbeat: {action: send, channel: {$ref: '#/channels/root'}, messages: [{$ref: '#/channels/root/messages/ping'}]}
`

check('events on one address show their ids, are found by them, and are summed up by their messages\' first lines', async (tab) => {
  await tab.goto(await mapped('exchange.asyncapi.yaml', webSocket))
  assert.is(await tab.title(), 'Exchange 1.0.0 · events')
  assert.is(await tab.textContent('#apipe-count'), '2 events')
  assert.equal(await tab.$$eval('a.row', (rows) => rows.map((row) => [row.querySelector('.path')!.textContent, row.querySelector('.route-id')?.textContent, row.querySelector('.summary')?.textContent])), [
    ['/', 'ticker', 'Ticker information on a currency pair.'],
    ['/', 'heartbeat', 'Client can ping the server to learn whether the connection is alive.']
  ])
  await tab.fill('#apipe-search', 'heartbeat')
  assert.equal(await visibleRows(tab), ['heartbeat'])
  assert.is(await tab.textContent('#apipe-count'), '1 of 2 events')
  await tab.click('a.row#heartbeat')
  assert.is(await tab.textContent('#apipe-details p.route-id'), 'heartbeat')
  assert.match((await tab.textContent('#apipe-details .rich'))!, /The server answers with a pong\./)
})

const pets = `openapi: 3.0.3
info: {title: Pets, version: 1.0.0}
security: [{key: []}]
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-Api-Key}
    query: {type: apiKey, in: query, name: api_key}
paths:
  /owners/{owner}/pets/{a_really_long_parameter_name_that_goes_on_and_on_without_any_place_to_break}:
    get:
      tags: [pets, public]
      operationId: getPet
      summary: Get a pet
      parameters:
        - {name: owner, in: path, required: true, schema: {type: string}}
        - {name: a_really_long_parameter_name_that_goes_on_and_on_without_any_place_to_break, in: path, required: true, schema: {type: string}}
      responses:
        '200': {description: The pet with all of its details., content: {application/json: {schema: {type: object}}}}
        '404': {description: No pet has that name.}
  /stores:
    get:
      tags: [stores]
      operationId: listStores
      summary: List the stores
      security: [{query: []}]
      responses: {'200': {description: The stores.}}
`

check('the hint\'s examples are this catalogue\'s, and each finds rows; tag: finds an import\'s first tag; a half-typed facet hides nothing', async (tab) => {
  await tab.goto(await mapped('pets.yaml', pets))
  const examples = await tab.$$eval('.hint-facets code', (nodes) => nodes.map((node) => node.textContent!))
  assert.equal(examples, ['method:GET', 'group:pets', 'tag:public', 'auth:key'])
  for (const example of examples) {
    await tab.fill('#apipe-search', example)
    assert.ok((await visibleRows(tab)).length > 0, example)
  }
  await tab.fill('#apipe-search', 'tag:stores')
  assert.equal(await visibleRows(tab), ['listStores'])
  for (const typing of ['method:', 'tag:"', 'auth: stores']) {
    await tab.fill('#apipe-search', typing)
    assert.equal(await visibleRows(tab), typing === 'auth: stores' ? ['listStores'] : ['getPet', 'listStores'], typing)
  }
})

check('curl lines send API keys where the API reads them, keep unknown path params for curl without globbing, and invent no host', async (tab) => {
  const page = await mapped('pets.yaml', pets)
  await tab.goto(`${page}#getPet`)
  assert.is(await curlLine(tab), `curl --globoff "$BASE_URL"'/owners/{owner}/pets/{a_really_long_parameter_name_that_goes_on_and_on_without_any_place_to_break}' -H "X-Api-Key: $API_KEY"`)
  await tab.goto(`${page}#listStores`)
  assert.is(await curlLine(tab), `curl "$BASE_URL"'/stores?api_key='"$API_KEY"`)
})

check('Escape closes the panel and takes the endpoint out of the address', async (tab) => {
  await tab.goto(`${await mapped('pets.yaml', pets)}#listStores`)
  assert.ok(await tab.isVisible('#apipe-details'))
  await tab.keyboard.press('Escape')
  assert.not.ok(await tab.isVisible('#apipe-details'))
  assert.is(await tab.evaluate(() => location.hash), '')
})

check('a long path param stays inside the panel, and a closed response shows its description\'s first words and a marker', async (tab) => {
  await tab.goto(`${await mapped('pets.yaml', pets)}#getPet`)
  assert.is(await tab.$eval('#apipe-details', (panel) => panel.scrollWidth - panel.clientWidth), 0)
  const responses = await tab.$$eval('#apipe-details details.response', (nodes) => nodes.map((node) => {
    const gist = node.querySelector('.response-gist')
    return [node.querySelector('.status')!.textContent, (node as HTMLDetailsElement).open, gist?.textContent, gist ? gist.checkVisibility() : false, getComputedStyle(node.querySelector('summary')!, '::before').content]
  }))
  assert.equal(responses, [
    ['200', true, 'The pet with all of its details.', false, '"▸"'],
    ['404', false, 'No pet has that name.', true, '"▸"']
  ])
  // A response names its type once, on its summary line.
  assert.equal(await tab.$$eval('#apipe-details details.response', (nodes) => nodes.map((node) => node.querySelectorAll('.type-label').length)), [1, 0])
})

check('tag: and group: find a group by its tag as written where its id had to differ; the hint shows that name', async (tab) => {
  await tab.goto(await rendered({
    meta: {title: 'Renamed'},
    groups: [{id: 'users', label: 'users'}, {id: 'activity-2', label: 'activity'}],
    endpoints: [{id: 'listUsers', method: 'GET', path: '/users', group: 'users'}, {id: 'listEvents', method: 'GET', path: '/events', group: 'activity-2'}],
    types: [{name: 'activity', kind: 'object', fields: [{name: 'id', type: 'string'}]}]
  }))
  assert.ok((await tab.$$eval('.hint-facets code', (nodes) => nodes.map((node) => node.textContent))).includes('tag:activity'))
  for (const query of ['tag:activity', 'group:activity', 'group:activity-2']) {
    await tab.fill('#apipe-search', query)
    assert.equal(await visibleRows(tab), ['listEvents'], query)
  }
})

check('a response shows its description, then its headers, then its fields, inside its body', async (tab) => {
  await tab.goto(`${await rendered({
    meta: {title: 'Headers'},
    endpoints: [{id: 'getPart', method: 'GET', path: '/parts', responses: [{status: 200, description: 'The part.', type: 'Part', headers: [{name: 'X-Rate', type: 'integer', description: 'Calls left.'}, {name: 'X-Expires-After', type: 'string', 'x-format': 'date-time'}]}]}],
    types: [{name: 'Part', kind: 'object', fields: [{name: 'id', type: 'string'}]}]
  })}#getPart`)
  await tab.waitForSelector('html[data-types="ready"]')
  const order = await tab.$eval('#apipe-details details.response', (node) => Array.from(node.children, (child) => child.tagName === 'DIV' ? ['body', ...Array.from(child.children, (inner) => inner.className || inner.tagName)] : [child.tagName]))
  assert.equal(order, [['SUMMARY'], ['body', 'rich', 'headers', 'fields reference']])
  // A header's format beside its type, as a param's.
  const types = await tab.$$eval('#apipe-details table.headers tr td:nth-child(2)', (cells) => cells.map((cell) => cell.textContent))
  assert.equal(types, ['integer', 'string (date-time)'])
})

check('a union\'s long member names wrap inside their card', async (tab) => {
  const long = 'CheckRunWithAnExtremelyLongGeneratedNameThatNoCardIsWideEnoughToHoldOnOneLine'
  await tab.goto(await rendered({
    meta: {title: 'Unions'},
    endpoints: [{id: 'get', method: 'GET', path: '/things', response: 'Thing'}],
    types: [{name: 'Thing', kind: 'union', members: [long, `${long}Too`]}, {name: long, kind: 'object', fields: [{name: 'id', type: 'string'}]}, {name: `${long}Too`, kind: 'object', fields: [{name: 'id', type: 'string'}]}]
  }))
  await tab.waitForSelector('html[data-types="ready"]')
  const overflow = await tab.$eval('#type-Thing', (card) => [card.scrollWidth - card.clientWidth, ...Array.from(card.querySelectorAll('.members .chip'), (chip) => chip.getBoundingClientRect().right - card.getBoundingClientRect().right)])
  assert.is(overflow[0], 0)
  assert.ok(overflow.slice(1).every((past) => past <= 0), `chips past the card: ${overflow.slice(1).join(', ')}`)
})

check('a half-typed facet value finds the values it starts; a whole one only itself', async (tab) => {
  await tab.goto(await rendered({
    meta: {title: 'Typing'},
    groups: [{id: 'pets', label: 'pets'}, {id: 'petstore', label: 'petstore'}],
    endpoints: [
      {id: 'listPets', method: 'GET', path: '/pets', group: 'pets'},
      {id: 'addPet', method: 'POST', path: '/pets', group: 'pets'},
      {id: 'putStore', method: 'PUT', path: '/store', group: 'petstore'},
      {id: 'patchStore', method: 'PATCH', path: '/store', group: 'petstore', deprecated: true}
    ]
  }))
  const found = {'method:g': ['listPets'], 'method:p': ['addPet', 'putStore', 'patchStore'], 'method:pu': ['putStore'], 'method:put': ['putStore'], 'method:x': [], 'group:pet': ['listPets', 'addPet', 'putStore', 'patchStore'], 'group:pets': ['listPets', 'addPet'], 'deprecated:tr': ['patchStore'], 'deprecated:false': ['listPets', 'addPet', 'putStore']}
  for (const [query, rows] of Object.entries(found)) {
    await tab.fill('#apipe-search', query)
    assert.equal(await visibleRows(tab), rows, query)
  }
})

check('a card\'s count follows the search, as the group index does', async (tab) => {
  await tab.goto(await rendered({
    meta: {title: 'Counts'},
    groups: [{id: 'pets', label: 'Pets'}, {id: 'stores', label: 'Stores'}],
    endpoints: [
      {id: 'listPets', method: 'GET', path: '/pets', group: 'pets'},
      {id: 'addPet', method: 'POST', path: '/pets', group: 'pets'},
      {id: 'getPet', method: 'GET', path: '/pets/{id}', group: 'pets'},
      {id: 'listStores', method: 'GET', path: '/stores', group: 'stores'}
    ]
  }))
  const counts = () => tab.$$eval('.card', (cards) => cards.filter((card) => !(card as HTMLElement).hidden).map((card) => card.querySelector('h2 > .count')!.textContent))
  assert.equal(await counts(), ['3', '1'])
  await tab.fill('#apipe-search', 'method:GET')
  assert.equal(await counts(), ['2 of 3', '1'])
  await tab.fill('#apipe-search', 'addPet')
  assert.equal(await counts(), ['1 of 3'])
  await tab.fill('#apipe-search', '')
  assert.equal(await counts(), ['3', '1'])
})

check('a closed response keeps "list of" and its type on one line beside its first words', async (tab) => {
  await tab.setViewportSize({width: 700, height: 900})
  await tab.goto(`${await rendered({
    meta: {title: 'Lists'},
    endpoints: [{id: 'listParts', method: 'GET', path: '/parts', responses: [{status: 200, description: 'Short.', type: 'Part[]'}, {status: 206, description: 'A part of the parts, when the list is longer than one answer can hold, with a Link to the next part of it.', type: 'Part[]'}]}],
    types: [{name: 'Part', kind: 'object', fields: [{name: 'id', type: 'string'}]}]
  })}#listParts`)
  await tab.waitForSelector('html[data-types="ready"]')
  const lines = await tab.$$eval('#apipe-details details.response .type-label', (labels) => labels.map((label) => {
    const range = document.createRange()
    range.selectNodeContents(label)
    // On one line when every piece's box shares a band with every other's (a chip's box is taller than the text's).
    const rects = Array.from(range.getClientRects())
    return Math.max(...rects.map((rect) => rect.top)) < Math.min(...rects.map((rect) => rect.bottom))
  }))
  assert.equal(lines, [true, true])
})

check('a link the sanitizer disarmed reads as text, not as a link', async (tab) => {
  await tab.goto(await rendered({
    meta: {title: 'Links', description: 'See <a href="javascript:alert(1)">the guide</a> or <a href="https://example.com/guide">the real guide</a>.'},
    endpoints: [{id: 'get', method: 'GET', path: '/things'}]
  }))
  const colours = await tab.$$eval('#apipe-lead a', (links) => links.map((link) => [link.textContent, link.hasAttribute('href'), getComputedStyle(link).color === getComputedStyle(link.parentElement!).color]))
  assert.equal(colours, [['the guide', false, true], ['the real guide', true, false]])
})

trial.run()
