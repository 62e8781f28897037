import {readFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {pipeline} from '../index.js'
import renderHtml, {pagePath, precompiledTemplate, renderPage} from '../plugins/render-html/index.js'
import type {Catalogue, Endpoint} from '../schemas/types/endpoints.js'
import {root} from './helpers/fixtures.js'

const shopPath = path.join(root, 'fixtures', 'render-html', 'shop', 'input.json')
const shop = JSON.parse(readFileSync(shopPath, 'utf8')) as Catalogue
const catalogue = (endpoints: Endpoint[], extra: Partial<Catalogue> = {}): Catalogue => ({schema_version: 1, diagram_type: 'endpoints', meta: {title: 'T'}, endpoints, ...extra})
const count = (html: string, pattern: RegExp) => (html.match(new RegExp(pattern.source, 'g')) ?? []).length
const row = (html: string, id: string) => new RegExp(`<a class="row[^"]*" id="${id}"[\\s\\S]*?</a>`).exec(html)?.[0] ?? ''

test('the catalogue preset adds the page beside the spec, named after it', async () => {
  const [file] = await pipeline('catalogue', [shopPath])
  assert.equal(file.data.outputs?.map((output) => output.path), [path.join(root, 'fixtures', 'render-html', 'shop', 'input.html')])
  assert.is(pagePath('specs/x.endpoints.json'), 'specs/x.endpoints.html')
  assert.is(pagePath('x.yaml'), 'x.html')
})

test('no page is produced for a catalogue with errors', async () => {
  const [file] = await pipeline('catalogue', [path.join(root, 'fixtures', 'validate-catalogue', 'several-findings', 'input.json')])
  assert.is(file.data.outputs, undefined)
})

test('the page is one self-contained file: inline style and script, no external resource', () => {
  const html = renderPage(shop)
  assert.ok(html.startsWith('<!doctype html>'))
  assert.is(count(html, /<script/), 2, 'the data and the inline script')
  assert.is(count(html, /<script[^>]* src=/), 0)
  assert.is(count(html, /<link rel="stylesheet"/), 0)
  assert.is(count(html, /<img/), 0)
  assert.match(html, /<link rel="icon" href="data:,">/)
  assert.match(html, /@media \(prefers-color-scheme: dark\)/)
  assert.match(html, /@media print/)
})

test('the header shows title, version, base URL, API kind and the search hint', () => {
  const html = renderPage(shop)
  assert.match(html, /<h1>Shop<\/h1>/)
  assert.match(html, /<span class="chip version">v2\.1\.0<\/span>/)
  assert.match(html, /<span class="chip kind">mixed<\/span>/)
  assert.match(html, /<code class="base-url">https:\/\/api\.shop\.example\/v2<\/code>/)
  assert.match(html, /<code>method:GET<\/code>/)
})

test('REST, GraphQL and EVENT rows get their method badge family', () => {
  const html = renderPage(shop)
  assert.match(row(html, 'listOrders'), /<span class="method m-get f-rest">GET<\/span>/)
  assert.match(row(html, 'order'), /<span class="method m-query f-graphql">QUERY<\/span>/)
  assert.match(row(html, 'placeOrder'), /<span class="method m-mutation f-graphql">MUTATION<\/span>/)
  assert.match(row(html, 'orderPlaced'), /<span class="method m-event f-event">EVENT<\/span>/)
  assert.is(count(html, /<a class="row/), 11)
})

test('path params are highlighted, auth is a lock chip, and `none` draws nothing', () => {
  const html = renderPage(shop)
  assert.match(row(html, 'getOrder'), /<span class="path">\/orders<wbr>\/<span class="param">\{orderId\}<\/span><\/span>/)
  assert.match(row(html, 'listOrders'), /<span class="chip lock">bearer<\/span>/)
  assert.not.match(row(html, 'health'), /chip lock/)
  assert.not.match(row(html, 'order'), /chip lock/)
})

test('a path may wrap before each slash after the first and after a dot, not inside a word', () => {
  const html = renderPage(catalogue([
    {id: 'a', method: 'GET', path: '/v1/accounts/{id}/bank_accounts'},
    {id: 'b', method: 'EVENT', path: 'orders.<placed>'},
    {id: 'c', method: 'GET', path: '/apis/apps.k8s.io/{a.b}/x'}
  ]))
  assert.match(row(html, 'a'), /<span class="path">\/v1<wbr>\/accounts<wbr>\/<span class="param">\{id\}<\/span><wbr>\/bank_accounts<\/span>/)
  assert.match(row(html, 'b'), /<span class="path">orders\.<wbr>&lt;placed&gt;<\/span>/)
  assert.match(row(html, 'c'), /<span class="path">\/apis<wbr>\/apps\.<wbr>k8s\.<wbr>io<wbr>\/<span class="param">\{a\.b\}<\/span><wbr>\/x<\/span>/)
})

test('up to four status chips, coloured by class, then a +N chip', () => {
  const created = row(renderPage(shop), 'createOrder')
  assert.equal([...created.matchAll(/<span class="chip status (s\dxx)">(\d+)<\/span>/g)].map((match) => `${match[2]}:${match[1]}`), ['201:s2xx', '400:s4xx', '401:s4xx', '409:s4xx'])
  assert.match(created, /<span class="chip status more">\+2<\/span>/)
})

test('deprecated rows are struck through and chipped', () => {
  const cancelled = row(renderPage(shop), 'cancelOrder')
  assert.match(cancelled, /^<a class="row deprecated"/)
  assert.match(cancelled, /<span class="chip deprecated-chip">deprecated<\/span>/)
})

test('text from the spec is escaped', () => {
  const health = row(renderPage(shop), 'health')
  assert.match(health, /Health check &lt;script&gt;alert\(1\)&lt;\/script&gt; &lt;img src=x onerror=alert\(2\)&gt;/)
  const data = /<script type="application\/json" id="apipe-data">([\s\S]*?)<\/script>/.exec(renderPage(shop))![1]
  assert.not.match(data, /<\/script/i)
  assert.is(JSON.parse(data).endpoints.length, 11)
})

test('the page data lists the endpoints in the order of their rows, which the script pairs them by (statuses tell them apart)', () => {
  const html = renderPage(shop)
  const data = JSON.parse(/id="apipe-data">([\s\S]*?)<\/script>/.exec(html)![1])
  const rows = [...html.matchAll(/<a class="row[^"]*" id="([^"]+)"/g)].map((match) => match[1])
  const statuses = (id: string) => [...(shop.endpoints.find((endpoint) => endpoint.id === id)!.status ?? [])].sort((a, b) => a - b)
  assert.equal(data.endpoints.map((endpoint: {status?: number[]}) => endpoint.status ?? []), rows.map(statuses))
  assert.is.not(rows.join(), shop.endpoints.map((endpoint) => endpoint.id).join(), 'two columns reorder the shop')
})

test('params shared by endpoints are stored once in the page data', () => {
  const param = {name: 'pretty', in: 'query' as const, type: 'boolean'}
  const endpoints = Array.from({length: 3}, (_, index) => ({id: `e${index}`, method: 'GET' as const, path: `/e${index}`, summary: 'E', params: [param]}))
  const data = JSON.parse(/id="apipe-data">([\s\S]*?)<\/script>/.exec(renderPage(catalogue(endpoints)))![1])
  assert.equal(data.params, [param])
  assert.equal(data.endpoints.map((endpoint: {params: number[]}) => endpoint.params), [[0], [0], [0]])
})

test('group cards are dealt into the layout columns, each to the shortest column so far', () => {
  const columns = [...renderPage(shop).matchAll(/<div class="column">([\s\S]*?)<\/div>\s*(?=<div class="column">|<\/section>)/g)]
  assert.equal(columns.map((column) => [...column[1].matchAll(/data-group="([^"]+)"/g)].map((match) => match[1])), [['orders', 'events'], ['customers', 'graphql', 'default']])
})

test('a group far longer than a column\'s share is cut into consecutive cards, one a column, marked continued', () => {
  const untagged = Array.from({length: 120}, (_, index) => ({id: `e${index}`, method: 'GET' as const, path: `/e${index}`, summary: 'E'}))
  const html = renderPage(catalogue([...untagged, {id: 'pet', method: 'GET', path: '/pet', summary: 'P', group: 'pets'}], {groups: [{id: 'pets', description: 'Pets'}], layout: {columns: 3}}))
  const cards = [...html.matchAll(/<article class="card" data-group="([^"]+)">\s*<h2>([^<]*)<span class="count">([^<]*)<\/span><\/h2>([\s\S]*?)<\/article>/g)]
  // Page order is column by column: the three cards of `default` in consecutive columns, the first under `pets`.
  assert.equal(cards.map((card) => [card[1], card[3], count(card[4], /<a class="row/)]), [['pets', '1', 1], ['default', '120', 40], ['default', 'continued', 40], ['default', 'continued', 40]])
  const ids = [...html.matchAll(/<a class="row[^"]*" id="([^"]+)"/g)].map((match) => match[1])
  assert.equal(ids.filter((id) => id !== 'pet'), untagged.map((endpoint) => endpoint.id), 'the cards keep the group\'s order')
  // A group under 40 endpoints, or under about twice a column's share, stays one card.
  assert.is(count(renderPage(catalogue(untagged.slice(0, 39), {layout: {columns: 3}})), /<article class="card"/), 1)
})

test('layout: columns and card width reach the masonry; 1 and 4 columns', () => {
  assert.match(renderPage(shop), /style="--columns: 2; --card-width: 460px"/)
  const one = renderPage(catalogue([{id: 'a', method: 'GET', path: '/a', summary: 'A'}], {layout: {columns: 1}}))
  assert.match(one, /--columns: 1; --card-width: 420px/)
  const four = renderPage(catalogue([{id: 'a', method: 'GET', path: '/a', summary: 'A'}], {layout: {columns: 4, card_width: 300}}))
  assert.match(four, /--columns: 4; --card-width: 300px/)
})

test('show_types: false hides the types section', () => {
  assert.match(renderPage(shop), /<section id="apipe-types"/)
  assert.not.match(renderPage({...shop, layout: {show_types: false}}), /<section id="apipe-types"/)
})

test('a type shows the first sentence of its description, at most 200 characters', () => {
  const long = `${'Very long words '.repeat(20)}end. Second sentence.`
  const html = renderPage(catalogue([{id: 'a', method: 'GET', path: '/a', summary: 'A'}], {types: [{name: 'T', description: 'First one. Second one.'}, {name: 'U', description: long}]}))
  assert.match(html, /<p>First one\.<\/p>/)
  assert.match(html, new RegExp(`<p>${long.slice(0, 199).trimEnd()}…</p>`))
})

test('descriptions in the header, cards and types are shown as plain text: tags dropped, links and marks reduced to their words', () => {
  const html = renderPage(catalogue([{id: 'a', method: 'GET', path: '/a', summary: 'A', group: 'g'}], {
    meta: {title: 'T', description: '<p>The <code>Charges</code> API &amp; more.</p>'},
    groups: [{id: 'g', description: 'See **the [guide](/docs/guide_(v2))** for `g`.'}],
    types: [{name: 'Account', description: '<p>An [account](/api/accounts). You can <b>retrieve</b> it.</p>'}]
  }))
  assert.match(html, /<div id="apipe-lead" class="lead">The Charges API &amp; more\.<\/div>/)
  assert.match(html, /<p class="group-description">See the guide for g\.<\/p>/)
  assert.match(html, /<p>An account\.<\/p>/)
})

test('types show kind and fields, values or members', () => {
  const html = renderPage(shop)
  assert.match(html, /<article class="type" id="type-OrderStatus">\s*<h3>OrderStatus <span class="chip kind">enum<\/span><\/h3>/)
  assert.match(html, /<code>new<\/code> <code>paid<\/code>/)
  assert.match(html, /<a class="chip type-chip" href="#type-Order">Order<\/a>/)
  assert.match(html, /<tr><th>quantity<td>integer<td>required<\/table>/)
})

test('the tables dashboard lists, per table, the endpoints that name it', () => {
  const html = renderPage(shop)
  const tables = [...html.matchAll(/<div class="table" data-table="([^"]+)">[\s\S]*?<\/div>/g)]
  assert.equal(tables.map((match) => match[1]), ['customers', 'order_items', 'orders'])
  assert.is(count(tables[0][0], /<li>/), 2)
})

test('warnings become finding chips on their endpoints and a header counter', async () => {
  const [file] = await pipeline('catalogue', [shopPath])
  const html = String(file.data.outputs![0])
  assert.match(row(html, 'patchOrder'), /<span class="chip finding">⚠ 1<\/span>/)
  const data = JSON.parse(/id="apipe-data">([\s\S]*?)<\/script>/.exec(html)![1])
  assert.equal(data.endpoints[4].findings, ['summary: Endpoint `patchOrder` has no summary'])
  assert.match(html, /<button id="apipe-findings"[^>]*>⚠ 1 with findings<\/button>/)
})

test('the page template compiled by the build is the one page.njk compiles to now', () => {
  const built = readFileSync(path.join(root, 'dist', 'plugins', 'render-html', 'page.njk.cjs'), 'utf8')
  assert.ok(built === precompiledTemplate(), 'dist/plugins/render-html/page.njk.cjs is stale: run npm run build')
})

test('render-html checks its options once, with an APIPE_ERR code', () => {
  assert.throws(() => renderHtml({columns: 5}), /Unexpected value `5` for `columns`, expected 1 to 4/)
  assert.throws(() => renderHtml({cardWidth: -1}), /Unexpected value `-1` for `cardWidth`/)
})

test.run()
