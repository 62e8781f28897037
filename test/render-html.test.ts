import {readFileSync} from 'node:fs'
import path from 'node:path'
import {inflateRawSync} from 'node:zlib'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {pipeline} from '../index.js'
import renderHtml, {pagePath, precompiledTemplate} from '../plugins/render-html/index.js'
import {renderPage} from '../plugins/render-html/page.js'
import type {Catalogue, Endpoint} from '../schemas/types/endpoints.js'
import {fixtureCases, root} from './helpers/fixtures.js'

const shopPath = path.join(root, 'fixtures', 'render-html', 'shop', 'input.json')
const shop = JSON.parse(readFileSync(shopPath, 'utf8')) as Catalogue
const catalogue = (endpoints: Endpoint[], extra: Partial<Catalogue> = {}): Catalogue => ({schema_version: 1, diagram_type: 'endpoints', meta: {title: 'T'}, endpoints, ...extra})
const count = (html: string, pattern: RegExp) => (html.match(new RegExp(pattern.source, 'g')) ?? []).length
/** The type cards of a page, as the page script inflates them. */
const typeCards = (html: string) => {
  const packed = /<script type="application\/octet-stream" id="apipe-type-cards">([^<]*)<\/script>/.exec(html)?.[1]
  return packed ? inflateRawSync(Buffer.from(packed, 'base64')).toString('utf8') : ''
}
const row = (html: string, id: string) => new RegExp(`<a class="row[^"]*" id="${id}"[\\s\\S]*?</a>`).exec(html)?.[0] ?? ''

/**
 * Each folder of fixtures/render-html holds a catalogue (`input.json`) and the markup a reader sees of it: every row
 * (`rows.html`: method badge, wrapped path, lock, status, deprecated and finding chips, escaped summary), the header's
 * lead, the group descriptions and the types section (`types.html`). `UPDATE_FIXTURES=1` rewrites them.
 */
for (const fixture of fixtureCases('render-html')) {
  test(`fixture ${fixture.name}: the rows, descriptions and types of its page`, async () => {
    const html = await renderPage(JSON.parse(readFileSync(fixture.input, 'utf8')) as Catalogue)
    const rows = [...html.matchAll(/<a class="row[^"]*" id="[^"]+"[\s\S]*?<\/a>/g)].map((match) => match[0]).join('\n') + '\n'
    assert.fixture(rows, fixture.expected('rows.html', rows))
    const lead = /<div id="apipe-lead"[\s\S]*?<\/div>/.exec(html)?.[0] ?? ''
    const groups = [...html.matchAll(/<p class="group-description">[\s\S]*?<\/p>/g)].map((match) => match[0])
    const types = typeCards(html).replace(/<\/article>\n?/g, '</article>\n')
    const described = [lead, ...groups, types].filter(Boolean).join('\n') + '\n'
    assert.fixture(described, fixture.expected('types.html', described))
  })
}

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

test('the page is one self-contained file: inline style and script, no external resource', async () => {
  const html = await renderPage(shop)
  assert.ok(html.startsWith('<!doctype html>'))
  assert.is(count(html, /<script/), 3, 'the data, the deflated type cards and the inline script')
  assert.is(count(html, /<script[^>]* src=/), 0)
  assert.is(count(html, /<link rel="stylesheet"/), 0)
  assert.is(count(html, /<img/), 0)
  assert.match(html, /<link rel="icon" href="data:,">/)
  assert.match(html, /@media \(prefers-color-scheme: dark\)/)
  assert.match(html, /@media print/)
})

test('the header shows title, version, base URL, API kind and the search hint', async () => {
  const html = await renderPage(shop)
  assert.match(html, /<h1>Shop<\/h1>/)
  assert.match(html, /<span class="chip version">v2\.1\.0<\/span>/)
  assert.match(html, /<span class="chip kind">mixed<\/span>/)
  assert.match(html, /<code class="base-url">https:\/\/api\.shop\.example\/v2<\/code>/)
  assert.match(html, /<code>method:GET<\/code>/)
})

test('the page data cannot close its script element, whatever the spec says', async () => {
  const data = /<script type="application\/json" id="apipe-data">([\s\S]*?)<\/script>/.exec(await renderPage(shop))![1]
  assert.not.match(data, /<\/script/i)
  assert.is(JSON.parse(data).endpoints.length, 11)
})

test('the page data writes U+2028, U+2029 and `<` as escapes, and reads back as the catalogue said', async () => {
  const said = 'Ends\u2028here\u2029and </script><!-- there'
  const endpoints = [{id: 'e', method: 'GET' as const, path: '/e', summary: 'E', responses: [{status: 200, description: 'OK', example: {note: said}}], params: [{name: 'q', in: 'query' as const, type: 'string', example: said}]}]
  const data = /id="apipe-data">([\s\S]*?)<\/script>/.exec(await renderPage(catalogue(endpoints)))![1]
  assert.not.match(data, /[<\u2028\u2029]/)
  assert.ok(data.includes('\\u2028here\\u2029and \\u003c/script>\\u003c!--'))
  const parsed = JSON.parse(data)
  assert.is(parsed.responses[0].example.note, said)
  assert.is(parsed.params[0].example, said)
})

test('params and responses with equal examples are stored once, with different ones apart', async () => {
  const shared = {id: 1, tags: ['a']}
  const response = (example: unknown) => [{status: 200, description: 'OK', example}]
  const endpoints = [
    {id: 'a', method: 'GET' as const, path: '/a', summary: 'A', responses: response(shared)},
    {id: 'b', method: 'GET' as const, path: '/b', summary: 'B', responses: response(shared)},
    {id: 'c', method: 'GET' as const, path: '/c', summary: 'C', responses: response({id: 1, tags: ['a']})},
    {id: 'd', method: 'GET' as const, path: '/d', summary: 'D', responses: response({id: 2, tags: ['a']})},
    {id: 'e', method: 'GET' as const, path: '/e', summary: 'E', responses: response('{"id":1,"tags":["a"]}')}
  ]
  const data = JSON.parse(/id="apipe-data">([\s\S]*?)<\/script>/.exec(await renderPage(catalogue(endpoints)))![1])
  assert.equal(data.responses.map((stored: {example: unknown}) => stored.example), [shared, {id: 2, tags: ['a']}, '{"id":1,"tags":["a"]}'])
  assert.equal(data.endpoints.map((endpoint: {responses: number[]}) => endpoint.responses), [[0], [0], [0], [1], [2]])
})

test('the page data lists the endpoints in the order of their rows, which the script pairs them by (statuses tell them apart)', async () => {
  const html = await renderPage(shop)
  const data = JSON.parse(/id="apipe-data">([\s\S]*?)<\/script>/.exec(html)![1])
  const rows = [...html.matchAll(/<a class="row[^"]*" id="([^"]+)"/g)].map((match) => match[1])
  const statuses = (id: string) => [...(shop.endpoints.find((endpoint) => endpoint.id === id)!.status ?? [])].sort((a, b) => a - b)
  assert.equal(data.endpoints.map((endpoint: {status?: number[]}) => endpoint.status ?? []), rows.map(statuses))
  assert.is.not(rows.join(), shop.endpoints.map((endpoint) => endpoint.id).join(), 'two columns reorder the shop')
})

test('params shared by endpoints are stored once in the page data', async () => {
  const param = {name: 'pretty', in: 'query' as const, type: 'boolean'}
  const endpoints = Array.from({length: 3}, (_, index) => ({id: `e${index}`, method: 'GET' as const, path: `/e${index}`, summary: 'E', params: [param]}))
  const data = JSON.parse(/id="apipe-data">([\s\S]*?)<\/script>/.exec(await renderPage(catalogue(endpoints)))![1])
  assert.equal(data.params, [param])
  assert.equal(data.endpoints.map((endpoint: {params: number[]}) => endpoint.params), [[0], [0], [0]])
})

test('group cards are dealt into the layout columns, each to the shortest column so far', async () => {
  const columns = [...(await renderPage(shop)).matchAll(/<div class="column">([\s\S]*?)<\/div>\s*(?=<div class="column">|<\/section>)/g)]
  assert.equal(columns.map((column) => [...column[1].matchAll(/data-group="([^"]+)"/g)].map((match) => match[1])), [['orders', 'events'], ['customers', 'graphql', 'default']])
})

test('a group far longer than a column\'s share is cut into consecutive cards, marked continued with their rows; a huge one into pieces of 60', async () => {
  const untagged = Array.from({length: 120}, (_, index) => ({id: `e${index}`, method: 'GET' as const, path: `/e${index}`, summary: 'E'}))
  const html = await renderPage(catalogue([...untagged, {id: 'pet', method: 'GET', path: '/pet', summary: 'P', group: 'pets'}], {groups: [{id: 'pets', description: 'Pets'}], layout: {columns: 3}}))
  const cards = [...html.matchAll(/<article class="card" data-group="([^"]+)"(?: id="[^"]+")? style="order: \d+">\s*<h2>([^<]*)<span class="count">([^<]*)<\/span>(?: <span class="count rows-range">([^<]*)<\/span>)?<\/h2>([\s\S]*?)<\/article>/g)]
  // Page order is column by column: the three cards of `default` in consecutive columns, the first under `pets`.
  assert.equal(cards.map((card) => [card[1], card[3], card[4], count(card[5], /<a class="row/)]), [
    ['pets', '1', undefined, 1],
    ['default', '120', '1–40', 40],
    ['default', 'continued', '41–80', 40],
    ['default', 'continued', '81–120', 40]
  ])
  const ids = [...html.matchAll(/<a class="row[^"]*" id="([^"]+)"/g)].map((match) => match[1])
  assert.equal(ids.filter((id) => id !== 'pet'), untagged.map((endpoint) => endpoint.id), 'the cards keep the group\'s order')
  // A group under 40 endpoints, or under about twice a column's share, stays one card.
  assert.is(count(await renderPage(catalogue(untagged.slice(0, 39), {layout: {columns: 3}})), /<article class="card"/), 1)
  // A very large group is cut into pieces of at most 60 rows, more than the columns, all in the group's order.
  const stripe = Array.from({length: 417}, (_, index) => ({id: `s${index}`, method: 'GET' as const, path: `/s${index}`, summary: 'S'}))
  const big = await renderPage(catalogue(stripe, {layout: {columns: 3}}))
  assert.equal([...big.matchAll(/<span class="count rows-range">([^<]*)<\/span>/g)].map((match) => match[1]).sort((a, b) => parseInt(a) - parseInt(b)), ['1–60', '61–120', '121–180', '181–240', '241–300', '301–360', '361–417'])
})

test('a row is one link: a link in its summary keeps its text, not its tag (a browser would close the row at it)', async () => {
  const html = await renderPage(catalogue([
    {id: 'a', method: 'GET', path: '/a', summary: 'See [the docs](https://example.com/docs) now'},
    {id: 'b', method: 'GET', path: '/b', summary: 'Auto https://example.com/x tail'}
  ]))
  const rows = [...html.matchAll(/<li><a class="row"[^>]*>(.*?)<\/li>/g)].map((match) => match[1])
  assert.is(rows.length, 2)
  for (const row of rows) assert.is(row.match(/<a[ >]/g), null, row)
  assert.match(rows[0], /<span class="summary">See the docs now<\/span><\/a>$/)
  assert.match(rows[1], /<span class="summary">Auto https:\/\/example\.com\/x tail<\/span><\/a>$/)
})

test('the version chip puts a v before a version that starts with a digit only: `1.2` is v1.2, `v1` stays v1', async () => {
  const chip = async (version: string) => /<span class="chip version">([^<]*)<\/span>/.exec(await renderPage({...catalogue([{id: 'a', method: 'GET', path: '/a'}]), meta: {title: 'T', version}}))?.[1]
  assert.equal([await chip('1.2'), await chip('v1'), await chip('V2.0'), await chip('vendor-7')], ['v1.2', 'v1', 'V2.0', 'vendor-7'])
})

test('layout: columns and card width reach the masonry; 1 and 4 columns', async () => {
  assert.match(await renderPage(shop), /style="--columns: 2; --card-width: 460px"/)
  const one = await renderPage(catalogue([{id: 'a', method: 'GET', path: '/a', summary: 'A'}], {layout: {columns: 1}}))
  assert.match(one, /--columns: 1; --card-width: 420px/)
  const four = await renderPage(catalogue([{id: 'a', method: 'GET', path: '/a', summary: 'A'}], {layout: {columns: 4, card_width: 300}}))
  assert.match(four, /--columns: 4; --card-width: 300px/)
})

test('show_types: false hides the types section, which stays in the page for the details panel', async () => {
  assert.match(await renderPage(shop), /<section id="apipe-types" class="types" aria-label="Types">/)
  assert.match(await renderPage({...shop, layout: {show_types: false}}), /<section id="apipe-types" class="types" aria-label="Types" hidden>/)
})

test('a type card shows the first block of its description, its fields with descriptions, enum values and defaults, and links to field types', async () => {
  const html = await renderPage(catalogue([{id: 'a', method: 'GET', path: '/a', summary: 'A', response: 'T'}], {
    types: [
      {name: 'T', description: 'First *one*.\n\nSecond block.', fields: [{name: 'u', type: 'U[]', required: true, description: 'The **u**.'}, {name: 'n', type: 'string', enum: ['a', 'b'], default: 'a'}]},
      {name: 'U'}
    ]
  }))
  const cards = typeCards(html)
  assert.match(cards, /<h3><span class="type-name">T<\/span> <span class="chip kind">object<\/span><\/h3><p>First <em>one<\/em>\.<\/p><table class="fields">/)
  assert.match(cards, /<tr><th>u<td><a href="#type-U">U<\/a>\[\]<td>required<tr class="about"><td colspan="3"><p>The <strong>u<\/strong>\.<\/p>/)
  assert.match(cards, /<tr data-sample="&quot;a&quot;"><th>n<td>string<td><tr class="about"><td colspan="3"><p class="enum">One of <code>a<\/code> <code>b<\/code><\/p><p class="default">Default <code>a<\/code><\/p>/)
  assert.match(cards, /<details class="used-by" data-type="T"><summary>Used by 1 endpoint<\/summary><\/details>/)
  assert.not.match(cards, /Second block/)
})

test('the group index lists every group with its count and links to its first card', async () => {
  const html = await renderPage(shop)
  const entries = [...html.matchAll(/<li data-group="([^"]+)"><a href="#group-\1">([^<]+)<\/a> <span class="count">(\d+)<\/span><\/li>/g)].map((match) => [match[1], Number(match[3])])
  assert.equal(entries.map(([id]) => id).sort(), ['customers', 'default', 'events', 'graphql', 'orders'])
  for (const [id, n] of entries) assert.match(html, new RegExp(`<article class="card" data-group="${id}" id="group-${id}" style="order: \\d+">[\\s\\S]*?<span class="count">${n}</span>`))
})

test('a group id with spaces or `%` is percent-encoded in its card id and index link, so no id holds whitespace', async () => {
  const endpoints: Endpoint[] = ['Pet Store', '50% off', 'Pet%20Store'].flatMap((group, index) => [0, 1].map((n) => ({id: `e${index}${n}`, method: 'GET' as const, path: `/p${index}/${n}`, group})))
  const html = await renderPage(catalogue(endpoints, {groups: [{id: 'Pet Store', label: 'Pet Store'}, {id: '50% off', label: 'Sale'}, {id: 'Pet%20Store', label: 'Odd'}]}))
  assert.equal([...html.matchAll(/<a href="#(group-[^"]+)">/g)].map((match) => match[1]), ['group-Pet%20Store', 'group-50%25%20off', 'group-Pet%2520Store'])
  assert.equal([...html.matchAll(/<article class="card" data-group="[^"]+" id="([^"]+)" style="order: \d+">/g)].map((match) => match[1]), ['group-Pet%20Store', 'group-50%25%20off', 'group-Pet%2520Store'])
  assert.equal([...html.matchAll(/ id="([^"]*)"/g)].map((match) => match[1]).filter((id) => /\s/.test(id)), [])
})

test('the tables dashboard lists, per table, the endpoints that name it', async () => {
  const html = await renderPage(shop)
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
