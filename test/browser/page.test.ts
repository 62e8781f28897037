import {mkdirSync, mkdtempSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {suite} from 'uvu'
import * as assert from 'uvu/assert'
import {testWhen} from '../helpers/skip.js'
import type {Browser, Page} from 'playwright-core'
import {root} from '../helpers/fixtures.js'
import {browserMissing, launch} from '../helpers/browser.js'
import {runPipe} from '../helpers/run-pipe.js'

const page = suite<{browser?: Browser; url: string; tab?: Page; requests: string[]; dialogs: string[]}>('page in Chromium', {url: '', requests: [], dialogs: []})
const missing = browserMissing()
const artifacts = path.join(root, 'test', 'artifacts')

page.before(async (context) => {
  if (missing) return
  const out = mkdtempSync(path.join(os.tmpdir(), 'apipe-page-'))
  const target = path.join(out, 'shop.html')
  const result = await runPipe(['render', path.join(root, 'fixtures', 'render-html', 'shop', 'input.json'), '--output', target])
  assert.is(result.code, 0, result.stderr)
  context.url = pathToFileURL(target).href
  context.browser = await launch()
})

page.after(async (context) => {
  await context.browser?.close()
})

page.before.each(async (context) => {
  if (missing) return
  context.requests = []
  context.dialogs = []
  context.tab = await context.browser!.newPage({viewport: {width: 1280, height: 900}})
  context.tab.on('request', (request) => context.requests.push(request.url()))
  context.tab.on('dialog', (dialog) => {
    context.dialogs.push(dialog.message())
    void dialog.dismiss()
  })
})

page.after.each(async (context) => {
  await context.tab?.close()
})

/** The ids of the rows a user can see. */
const visibleRows = (tab: Page) => tab.$$eval('a.row', (rows) => rows.filter((row) => row.checkVisibility()).map((row) => row.id))

/** The page `pipe render` writes for a catalogue made in the test, as a file URL. */
async function renderedPage(name: string, catalogue: object): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `apipe-${name}-`))
  const spec = path.join(dir, `${name}.endpoints.json`)
  writeFileSync(spec, JSON.stringify({schema_version: 1, diagram_type: 'endpoints', ...catalogue}))
  assert.is((await runPipe(['render', spec])).code, 0)
  return pathToFileURL(path.join(dir, `${name}.endpoints.html`)).href
}

const check = (name: string, run: (context: {tab: Page; url: string; requests: string[]; dialogs: string[]}) => Promise<void>) =>
  testWhen(page, missing, name, async (context) => {
    await run(context as {tab: Page; url: string; requests: string[]; dialogs: string[]})
  })

check('search filters rows by method, path, summary and tags, and shows the count', async ({tab, url}) => {
  await tab.goto(url)
  await tab.fill('#apipe-search', 'customers')
  assert.equal(await visibleRows(tab), ['listCustomers'])
  assert.is(await tab.textContent('#apipe-count'), '1 of 11 endpoints')
  await tab.fill('#apipe-search', 'public')
  assert.equal((await visibleRows(tab)).sort(), ['listOrders', 'orderPlaced'])
  await tab.fill('#apipe-search', 'nothing-matches-this')
  assert.equal(await visibleRows(tab), [])
  assert.ok(await tab.isVisible('#apipe-empty'))
})

check('faceted search filters by method, table, auth, group, tag and deprecated, with free text', async ({tab, url}) => {
  await tab.goto(url)
  const cases: Array<[string, string[]]> = [
    ['method:EVENT', ['orderPlaced']],
    ['table:order_items', ['createOrder', 'getOrder']],
    ['auth:bearer', ['listOrders', 'createOrder', 'getOrder', 'patchOrder']],
    ['auth:none', ['order', 'placeOrder', 'orderChanged', 'orderPlaced', 'health']],
    ['group:graphql', ['order', 'placeOrder', 'orderChanged']],
    ['tag:public method:GET', ['listOrders']],
    ['deprecated:true', ['cancelOrder']],
    ['method:get orders', ['listOrders', 'getOrder']]
  ]
  for (const [query, expected] of cases) {
    await tab.fill('#apipe-search', query)
    assert.equal((await visibleRows(tab)).sort(), [...expected].sort(), query)
  }
})

check('/ focuses the search box and Escape clears it and leaves it, so j moves again', async ({tab, url}) => {
  await tab.goto(url)
  await tab.keyboard.press('/')
  assert.ok(await tab.evaluate(() => document.activeElement?.id === 'apipe-search'))
  await tab.keyboard.type('method:EVENT')
  assert.equal(await visibleRows(tab), ['orderPlaced'])
  await tab.keyboard.press('Escape')
  assert.is(await tab.inputValue('#apipe-search'), '')
  assert.is((await visibleRows(tab)).length, 11)
  assert.not.ok(await tab.evaluate(() => document.activeElement?.id === 'apipe-search'))
  await tab.keyboard.press('j')
  assert.is(await tab.inputValue('#apipe-search'), '', 'j is a key of the page, not typed')
})

check('a deep link opens that endpoint in the details panel', async ({tab, url}) => {
  await tab.goto(`${url}#getOrder`)
  assert.ok(await tab.isVisible('#apipe-details'))
  assert.is(await tab.textContent('#apipe-details h2 .path'), '/orders/{orderId}')
  assert.equal(await tab.$$eval('#apipe-details table tr td:first-child', (cells) => cells.map((cell) => cell.textContent)), ['orderId'])
  assert.ok(await tab.$eval('a.row#getOrder', (row) => row.classList.contains('selected')))
})

check('clicking a type chip scrolls to the type and highlights it', async ({tab, url}) => {
  await tab.goto(`${url}#createOrder`)
  await tab.click('#apipe-details a.type-chip:text("NewOrder")')
  await tab.waitForFunction(() => document.getElementById('type-NewOrder')?.classList.contains('highlight'))
  const inView = await tab.$eval('#type-NewOrder', (node) => {
    const box = node.getBoundingClientRect()
    return box.top >= 0 && box.top < window.innerHeight
  })
  assert.ok(inView, 'the type is scrolled into view')
  assert.is(await tab.$$eval('.type.highlight', (nodes) => nodes.length), 1)
})

check('selecting an endpoint highlights its tables, and selecting a table highlights its endpoints', async ({tab, url}) => {
  await tab.goto(url)
  await tab.click('a.row#createOrder')
  assert.equal(await tab.$$eval('.table.hit', (tables) => tables.map((table) => table.getAttribute('data-table'))), ['customers', 'order_items', 'orders'])
  await tab.click('.table[data-table="customers"] .table-name')
  assert.equal(await tab.$$eval('a.row.hit', (rows) => rows.map((row) => row.id)), ['createOrder', 'listCustomers'])
})

check('the report link names the endpoint and the catalogue', async ({tab, url}) => {
  await tab.goto(`${url}#createOrder`)
  const href = await tab.getAttribute('#apipe-details a.report', 'href')
  const title = '[Shop 2.1.0] POST /orders (createOrder)'
  const body = 'Endpoint: POST /orders\nId: createOrder\nCatalogue: Shop 2.1.0\n\nWhat is wrong:\n'
  assert.is(href, `https://github.com/example/shop/issues/new?title=${encodeURIComponent(title)}&body=${encodeURIComponent(body)}`)
  assert.is(await tab.getAttribute('#apipe-details a.source', 'href'), 'https://github.com/example/shop/blob/HEAD/src/orders/create.ts#L8')
})

check('a summary is one line of inline Markdown: its <script> and <img onerror> are dropped and nothing executes', async ({tab, url, dialogs}) => {
  await tab.goto(`${url}#health`)
  await tab.waitForTimeout(100)
  assert.equal(dialogs, [])
  assert.is(await tab.$$eval('a.row#health img, a.row#health script, #apipe-details img, #apipe-details script', (nodes) => nodes.length), 0)
  assert.is(await tab.textContent('a.row#health .summary'), 'Health check')
  assert.is(await tab.textContent('#apipe-details .summary-text'), 'Health check')
})

check('a description in CommonMark or HTML renders as rich text, with web, mail and relative links only and no handler', async ({tab, url, dialogs}) => {
  await tab.goto(`${url}#createOrder`)
  const rich = '#apipe-details .rich'
  assert.equal(await tab.$$eval(`${rich} > *`, (nodes) => nodes.map((node) => node.tagName)), ['P', 'UL', 'PRE', 'P'])
  assert.is(await tab.textContent(`${rich} pre code`), '{"items": ["<sku>"]}\n')
  assert.is(await tab.textContent(`${rich} strong`), 'current customer')
  assert.equal(await tab.$$eval(`${rich} :not(pre) > code`, (nodes) => nodes.map((node) => node.textContent)), ['POST /orders', 'EUR'])
  assert.equal(await tab.$$eval(`${rich} li`, (nodes) => nodes.map((node) => node.textContent)), ['Items must be in stock', 'Totals are in EUR'])
  assert.equal(await tab.$$eval(`${rich} a`, (links) => links.map((link) => [link.textContent, link.getAttribute('href'), link.getAttribute('rel')])), [
    ['ordering guide', 'https://docs.shop.example/orders', 'noopener noreferrer'],
    ['links', '/docs/x', 'noopener noreferrer']
  ])
  // Inside an HTML block CommonMark reads no Markdown: the `javascript:` link stays the text it is.
  assert.is(await tab.textContent(`${rich} > p:last-child`), 'Relative links and [scripts](javascript:alert(3)) stay text & tags too.')
  assert.is(await tab.$$eval(`${rich} [onclick]`, (nodes) => nodes.length), 0)
  assert.is(await tab.textContent(`${rich} b`), 'tags')
  assert.equal(dialogs, [])
})

check('a long path wraps after a slash, never inside a word', async ({tab, url}) => {
  await tab.goto(url)
  // Narrow enough that `/orders/{orderId}` cannot stay on one line beside its badge.
  await tab.setViewportSize({width: 150, height: 900})
  const lines = await tab.$eval('a.row#getOrder .path', (path) => {
    const range = document.createRange()
    const tops = new Map<number, string>()
    for (const node of Array.from(path.childNodes)) {
      range.selectNodeContents(node)
      // A piece broken across lines has a box on each: name it by its boxes' tops, so the lines show the break.
      const boxTops = [...new Set(Array.from(range.getClientRects()).filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)))]
      if (boxTops.length === 0) continue
      const top = boxTops.length === 1 ? boxTops[0] : -1
      tops.set(top, (tops.get(top) ?? '') + (boxTops.length === 1 ? node.textContent : `[${node.textContent} broken]`))
    }
    return [...tops.values()]
  })
  assert.equal(lines, ['/orders/', '{orderId}'])
})

/** The text of each line a row's path shows, a word broken across lines marked `[word broken]`. */
const pathLines = (tab: Page, rowId: string) => lineTexts(tab, `a.row#${rowId} .path`)

/** The text of each line of the element `selector` finds, a word broken across lines marked `[word broken]`. */
const lineTexts = (tab: Page, selector: string) =>
  tab.$eval(selector, (path) => {
    const walker = document.createTreeWalker(path, NodeFilter.SHOW_TEXT)
    const range = document.createRange()
    const lines = new Map<number, string>()
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // A text broken at a space is two words, each on its line; a word on two lines is broken.
      let offset = 0
      for (const word of node.textContent!.split(/(?<= )/)) {
        range.setStart(node, offset)
        range.setEnd(node, offset + word.trimEnd().length)
        offset += word.length
        const tops = [...new Set(Array.from(range.getClientRects()).filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)))]
        if (tops.length === 0) continue
        const top = tops.length === 1 ? tops[0] : -1
        lines.set(top, (lines.get(top) ?? '') + (tops.length === 1 ? word : `[${word} broken]`))
      }
    }
    return [...lines.entries()].sort(([a], [b]) => a - b).map(([, text]) => text.trimEnd())
  })

check('a path never wraps after the hyphen of a word; a long GraphQL signature wraps at its spaces and its `(`, inside a long name only when it is wider than a line', async ({tab}) => {
  const signature = 'enterpriseAdministratorInvitation(enterpriseSlug: String!, role: EnterpriseAdministratorRole!, userLogin: String!): EnterpriseAdministratorInvitation'
  await tab.goto(
    await renderedPage('wrapping', {
      meta: {title: 'Wrapping'},
      endpoints: [
        {id: 'reviewers', method: 'GET', path: '/repos/{owner}/{repo}/pulls/{pull_number}/requested-reviewers', summary: 'Reviewers'},
        {id: 'invitation', method: 'QUERY', path: signature, summary: 'Look up an invitation'}
      ]
    })
  )
  // Narrow enough that `{pull_number}/requested-reviewers` cannot stay on one line, and a browser would end one at `-`.
  await tab.setViewportSize({width: 300, height: 900})
  const reviewers = await pathLines(tab, 'reviewers')
  assert.is(reviewers.at(-1), 'requested-reviewers', reviewers.join(' | '))
  // Narrower than the word itself, it wraps at its hyphen rather than run past the card (GitHub's
  // `marketplace-purchase-pending-change-cancelled`).
  await tab.setViewportSize({width: 200, height: 900})
  assert.is(await tab.$eval('a.row#reviewers .path', (path) => path.scrollWidth <= path.clientWidth), true)
  // The line ends after its hyphen: the character before each change of line is a `-`, `/` or `}`.
  const ends = await tab.$eval('a.row#reviewers .path', (path) => {
    const walker = document.createTreeWalker(path, NodeFilter.SHOW_TEXT)
    const range = document.createRange()
    const characters: Array<{character: string; top: number}> = []
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      for (let index = 0; index < node.length; index++) {
        range.setStart(node, index)
        range.setEnd(node, index + 1)
        characters.push({character: node.data[index], top: Math.round(range.getBoundingClientRect().top)})
      }
    }
    return characters.flatMap((item, index) => (index > 0 && item.top !== characters[index - 1].top ? [characters[index - 1].character] : []))
  })
  assert.ok(ends.length > 0 && ends.every((character) => '-/}'.includes(character)), ends.join(' '))
  assert.ok(ends.includes('-'), ends.join(' '))
  await tab.setViewportSize({width: 360, height: 900})
  const invitation = await pathLines(tab, 'invitation')
  assert.is(invitation.join('').replace(/ /g, ''), signature.replace(/ /g, ''), 'nothing clipped or lost')
  assert.ok(!invitation.some((line) => line.includes('broken')), invitation.join(' | '))
  assert.ok(invitation.some((line) => line.startsWith('EnterpriseAdministratorRole!,')), `the long type moves to its own line whole: ${invitation.join(' | ')}`)
  assert.is(await tab.$eval('a.row#invitation .path', (path) => path.scrollWidth <= path.clientWidth), true)
  assert.is(await tab.$$eval('a.row#invitation .param', (params) => params.length), 0, 'a signature has no path parameters')
  // On a line narrower than the name itself, the name wraps between its words, never inside one.
  await tab.setViewportSize({width: 200, height: 900})
  const narrow = await pathLines(tab, 'invitation')
  assert.ok(narrow.includes('Administrator'), narrow.join(' | '))
  assert.ok(!narrow.some((line) => line.includes('broken')), narrow.join(' | '))
})

check('on a phone the group cards stand in group order, the pieces of a cut group in turn, not column after column', async ({tab}) => {
  const rows = (group: string, count: number) => Array.from({length: count}, (_, index) => ({id: `${group}${index}`, method: 'GET', path: `/${group}/${index}`, summary: `${group} ${index}`, group}))
  const groups = ['stations', 'trips', 'bookings', 'payments', 'everything']
  await tab.goto(await renderedPage('order', {meta: {title: 'Order'}, groups: groups.map((id) => ({id})), endpoints: [...rows('stations', 12), ...rows('trips', 2), ...rows('bookings', 3), ...rows('payments', 2), ...rows('everything', 130)]}))
  const order = () => tab.$$eval('article.card', (cards) => cards.filter((card) => card.checkVisibility()).sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top).map((card) => `${card.getAttribute('data-group')}${card.querySelector('.rows-range')?.textContent ?? ''}`))
  // Dealt into three columns, the cards' document order (column after column) is not group order.
  const dealt = await tab.$$eval('article.card', (cards) => cards.map((card) => `${card.getAttribute('data-group')}${card.querySelector('.rows-range')?.textContent ?? ''}`))
  assert.not.equal(dealt, ['stations', 'trips', 'bookings', 'payments', 'everything1–44', 'everything45–88', 'everything89–130'], dealt.join(' '))
  await tab.setViewportSize({width: 390, height: 900})
  assert.equal(await order(), ['stations', 'trips', 'bookings', 'payments', 'everything1–44', 'everything45–88', 'everything89–130'])
})

check('on a phone, the details panel wraps a long path as its row does and breaks no word of the params table', async ({tab}) => {
  const name = 'shield_information_barrier_segment_restriction_id'
  await tab.goto(
    await renderedPage('phone', {
      meta: {title: 'Phone'},
      endpoints: [
        {
          id: 'restriction',
          method: 'GET',
          path: `/shield_information_barrier_segment_restrictions/{${name}}`,
          summary: 'Get a restriction',
          params: [{name, in: 'path', type: 'string', required: true, description: 'The restriction.'}],
          responses: [{status: 200, description: 'The restriction', headers: [{name: 'RateLimit', type: 'string', description: 'Contains a `limit` to convey the expiring limit, `remaining` to convey the remaining quota units.'}]}]
        }
      ],
      // What GitHub's cards ran past a phone's edge with: a long field name, a long word and a long code span.
      types: [
        {
          name: 'OrganizationSecurityLinks',
          kind: 'object',
          description: 'Autogenerated return type of UpdateEnterpriseMembersCanChangeRepositoryVisibilitySetting.',
          fields: [{name: 'secret_scanning_push_protection_enabled_for_new_repositories', type: 'boolean', description: 'Use `projects/<NUM>/locations/global/workloadIdentityPools/<POOL>/providers/<PROVIDER>` here.'}]
        }
      ]
    })
  )
  await tab.setViewportSize({width: 390, height: 900})
  await tab.click('a.row#restriction')
  const header = await lineTexts(tab, '#apipe-details h2 .path')
  assert.equal(header, ['/shield_information_barrier_', 'segment_restrictions/', '{shield_information_barrier_', 'segment_restriction_id}'])
  const beside = await tab.$eval('#apipe-details', (panel) => {
    const path = panel.querySelector('h2 .path')!.getBoundingClientRect()
    return path.right <= panel.querySelector('.close')!.getBoundingClientRect().left + 1
  })
  assert.ok(beside, 'the path stops before the close button')
  // The head and the param's row, each cell marked to be read line by line.
  const cells = await tab.$$eval('#apipe-details table.params tr:nth-child(-n+2) > *', (nodes) => nodes.map((node, index) => node.setAttribute('data-cell', String(index))).length)
  assert.is(cells, 8)
  const read = []
  for (let index = 0; index < cells; index++) read.push((await lineTexts(tab, `[data-cell="${index}"]`)).join(' / '))
  assert.equal(read, ['Name', 'In', 'Type', 'Required', 'shield_information_ / barrier_segment_ / restriction_id', 'path', 'string', 'yes'])
  // A response's headers: no word broken (`Hea/der`, `Rat/eLi/mit` before), the description's Markdown rendered.
  const headerCells = await tab.$$eval('#apipe-details table.headers tr > *:not(:last-child)', (nodes) => nodes.map((node, index) => node.setAttribute('data-header-cell', String(index))).length)
  const headers = []
  for (let index = 0; index < headerCells; index++) headers.push((await lineTexts(tab, `[data-header-cell="${index}"]`)).join(' / '))
  assert.equal(headers, ['Header', 'Type', 'RateLimit', 'string'])
  assert.equal(await tab.$$eval('#apipe-details table.headers td code', (codes) => codes.map((code) => code.textContent)), ['limit', 'remaining'])
  await tab.click('#apipe-details .close')
  const card = await tab.$eval('#type-OrganizationSecurityLinks', (node) => {
    const box = node.getBoundingClientRect()
    return {overflows: node.scrollWidth > node.clientWidth, chipInside: node.querySelector('.chip.kind')!.getBoundingClientRect().right <= box.right}
  })
  assert.equal(card, {overflows: false, chipInside: true})
  const field = await lineTexts(tab, '#type-OrganizationSecurityLinks table.fields th')
  assert.ok(field.length > 1 && field.every((line) => line.endsWith('_') || line === field.at(-1)) && field.join('') === 'secret_scanning_push_protection_enabled_for_new_repositories', field.join(' | '))
})

check('in a card narrower than 400 px the path takes the whole row under its badge and chips; in a wide card the chips stand beside it', async ({tab, url}) => {
  const chipsBelowPath = () => tab.$eval('a.row#listOrders', (row) => row.querySelector('.chips')!.getBoundingClientRect().top >= row.querySelector('.path')!.getBoundingClientRect().bottom - 1)
  const pathBelowChips = () => tab.$eval('a.row#listOrders', (row) => row.querySelector('.path')!.getBoundingClientRect().top >= row.querySelector('.chips')!.getBoundingClientRect().bottom - 1)
  await tab.setViewportSize({width: 1200, height: 900})
  await tab.goto(url)
  // The two columns of 460 px share the whole width: 1,200 less 2 × 24 px of padding and a 16 px gap, halved.
  assert.is(await tab.$eval('.card', (card) => Math.round(card.getBoundingClientRect().width)), 568)
  assert.is(await chipsBelowPath(), false)
  // The details panel takes 480 px of the 1,200: the two columns shrink below 360 px.
  await tab.click('a.row#getOrder')
  assert.ok(await tab.$eval('.card', (card) => card.getBoundingClientRect().width < 400))
  assert.is(await pathBelowChips(), true)
})

check('the API description is rich text; a long one shows its first lines and the rest after More', async ({tab, url}) => {
  await tab.goto(url)
  assert.is(await tab.textContent('#apipe-lead'), 'Orders, customers and the events the shop publishes.')
  assert.is(await tab.$$eval('.lead-toggle', (buttons) => buttons.length), 0, 'a short description needs no button')
  const description = `Welcome to the **Library** API; see [the guide](https://library.example/guide).\n\n${Array.from({length: 12}, (_, index) => `- Rule ${index + 1}`).join('\n')}`
  await tab.goto(await renderedPage('library', {meta: {title: 'Library', description}, endpoints: [{id: 'a', method: 'GET', path: '/a', summary: 'A'}]}))
  assert.equal(await tab.$$eval('#apipe-lead a', (links) => links.map((link) => link.getAttribute('href'))), ['https://library.example/guide'])
  assert.is(await tab.$$eval('#apipe-lead li', (items) => items.length), 12)
  const height = () => tab.$eval('#apipe-lead', (lead) => lead.getBoundingClientRect().height)
  const shut = await height()
  assert.is(await tab.textContent('.lead-toggle'), 'More')
  await tab.click('.lead-toggle')
  assert.ok((await height()) > shut * 3, 'open, the whole description shows')
  assert.equal([await tab.textContent('.lead-toggle'), await tab.getAttribute('.lead-toggle', 'aria-expanded')], ['Less', 'true'])
})

check('each param shows its description under it in the details panel, and a deprecated one says so', async ({tab, url}) => {
  await tab.goto(`${url}#listOrders`)
  const rows = await tab.$$eval('#apipe-details table.params tr', (trs) => trs.map((tr) => Array.from(tr.children).map((cell) => cell.textContent)))
  assert.equal(rows, [['Name', 'In', 'Type', 'Required'], ['page', 'query', 'integer', 'no'], ['status', 'query', 'OrderStatus', 'no'], ['Only orders in this status'], ['state', 'query', 'string', 'no'], ['Deprecated']])
})

check('a GraphQL operation shows its arguments, its input fields and a curl line with the operation and variables', async ({tab, url}) => {
  await tab.goto(`${url}#order`)
  assert.equal(await tab.$$eval('#apipe-details h3', (nodes) => nodes.map((node) => node.textContent)).then((titles) => titles.slice(0, 3)), ['Try it', 'Arguments', 'Returns'])
  assert.is(await tab.textContent('#apipe-details .curl code'), `curl -X POST 'https://api.shop.example/v2' -H 'Content-Type: application/json' --data '{"query":"query($id: ID!) { order(id: $id) { __typename } }","variables":{"id":"1"}}'`)
  await tab.goto(`${url}#placeOrder`)
  assert.match((await tab.textContent('#apipe-details .curl code'))!, /"query":"mutation\(\$input: NewOrder!\) \{ placeOrder\(input: \$input\) \{ __typename \} \}","variables":\{"input":\{"items":\[\{"sku":"string","quantity":0\}\]\}\}/)
  assert.ok((await tab.$$eval('#apipe-details h3', (nodes) => nodes.map((node) => node.textContent))).includes('Input'))
  assert.equal(await tab.$eval('#apipe-details table.fields.reference', (table) => Array.from(table.querySelectorAll(':scope > tbody > tr > th')).map((cell) => cell.textContent!.replace(/^[+−↻]/, ''))), ['items'])
})

check('a sample body gives an object field and a field of any type an empty object, not a string', async ({tab, url}) => {
  await tab.goto(`${url}#patchOrder`)
  assert.match((await tab.textContent('#apipe-details .curl code'))!, / --data '\{"metadata":\{\},"note":\{\}\}'$/)
})

check('a curl line passes the credentials in variables the shell fills in', async ({tab, url}) => {
  await tab.goto(`${url}#listOrders`)
  assert.is(await tab.textContent('#apipe-details .curl code'), `curl 'https://api.shop.example/v2/orders' -H "Authorization: Bearer $API_TOKEN"`)
})

check('an endpoint served elsewhere than the API (x-base-url) gets a curl line to its own server', async ({tab, url}) => {
  await tab.goto(`${url}#health`)
  assert.is(await tab.textContent('#apipe-details .curl code'), "curl 'https://status.shop.example/health'")
})

check('an example written already URL-encoded is not encoded twice in the curl line', async ({tab, url}) => {
  await tab.goto(`${url}#listCustomers`)
  assert.match((await tab.textContent('#apipe-details .curl code'))!, /^curl 'https:\/\/api\.shop\.example\/v2\/customers\?q=big%20spender'/)
})

check('a request body that requests must carry says so in its title', async ({tab, url}) => {
  const titles = async (id: string) => {
    await tab.goto(`${url}#${id}`)
    return tab.$$eval('#apipe-details h3', (nodes) => nodes.map((node) => node.textContent))
  }
  assert.ok((await titles('createOrder')).includes('Request body (required)'))
  assert.ok((await titles('patchOrder')).includes('Request body'))
})

check('an event shows its payload\'s fields and no curl line', async ({tab, url}) => {
  await tab.goto(`${url}#orderPlaced`)
  const titles = await tab.$$eval('#apipe-details h3', (nodes) => nodes.map((node) => node.textContent))
  assert.ok(titles.includes('Payload') && !titles.includes('Try it') && !titles.includes('Responses'), titles.join())
  assert.equal(await tab.$$eval('#apipe-details table.fields.reference > tbody > tr > th', (cells) => cells.map((cell) => cell.textContent!.replace(/^[+−↻]/, ''))), ['id', 'status', 'items', 'customer'])
})

check('a webhook shows what its receiver must answer, and every scheme an endpoint accepts shows on its lock', async ({tab}) => {
  const page = await renderedPage('hooks', {meta: {title: 'Hooks'}, endpoints: [
    {id: 'disputeCreated', method: 'EVENT', path: 'dispute.created', summary: 'A dispute was opened', response: 'Dispute', responses: [{status: '2XX', description: 'Any **2xx** accepts the event.'}]},
    {id: 'acceptDispute', method: 'POST', path: '/disputes/accept', summary: 'Accept a dispute', auth: 'basic', 'x-auth-alternatives': ['api-key'], status: [200]},
    {id: 'closeDispute', method: 'POST', path: '/disputes/close', summary: 'Close a dispute', auth: 'bearer', 'x-auth-alternatives': ['basic', 'apiKeyQuery', 'apiKeyHeader', 'apiKeyCookie', 'oauth2', 'openIdConnect'], status: [200]}
  ], types: [{name: 'Dispute', kind: 'object', fields: [{name: 'id', type: 'string', required: true}]}]})
  await tab.goto(`${page}#disputeCreated`)
  assert.equal(await tab.$$eval('#apipe-details h3', (nodes) => nodes.map((node) => node.textContent)), ['Payload', 'Responses'])
  assert.is(await tab.textContent('#apipe-details .responses details.response p'), 'Any 2xx accepts the event.')
  await tab.goto(`${page}#acceptDispute`)
  assert.is(await tab.textContent('#apipe-details .chip.lock'), 'auth: basic or api-key')
  // Seven schemes are wider than the panel: the chip wraps inside it instead of running past its edge.
  await tab.goto(`${page}#closeDispute`)
  assert.is(await tab.textContent('#apipe-details .chip.lock'), 'auth: bearer or basic or apiKeyQuery or apiKeyHeader or apiKeyCookie or oauth2 or openIdConnect')
  const overflow = await tab.$eval('#apipe-details', (panel) => Array.from(panel.querySelectorAll('.chip-list, .chip.lock')).map((node) => node.scrollWidth - node.clientWidth).concat(panel.scrollWidth - panel.clientWidth))
  assert.equal(overflow, [0, 0, 0])
})

check('auth: in the search finds every endpoint that accepts the scheme: alone, among schemes needed together, or as an alternative', async ({tab}) => {
  const page = await renderedPage('auth-facet', {meta: {title: 'Stores'}, endpoints: [
    {id: 'listStores', method: 'GET', path: '/stores', summary: 'List stores', auth: 'api_key', status: [200]},
    {id: 'getCart', method: 'GET', path: '/cart', summary: 'The cart', auth: 'api_key + store_key', status: [200]},
    {id: 'getStatus', method: 'GET', path: '/status', summary: 'Status', auth: 'none', 'x-auth-alternatives': ['store_key'], status: [200]},
    {id: 'login', method: 'POST', path: '/login', summary: 'Log in', auth: 'basic', status: [200]}
  ]})
  await tab.goto(page)
  for (const [query, expected] of [
    ['auth:api_key', ['getCart', 'listStores']],
    ['auth:store_key', ['getCart', 'getStatus']],
    ['auth:none', ['getStatus']],
    ['auth:basic', ['login']]
  ] as const) {
    await tab.fill('#apipe-search', query)
    assert.equal((await visibleRows(tab)).sort(), [...expected], query)
  }
})

check('a read-only field (x-read-only) is marked on its card and left out of the sample request body', async ({tab}) => {
  const page = await renderedPage('read-only', {meta: {title: 'Galaxy', base_url: 'https://galaxy.example'}, endpoints: [
    {id: 'createPlanet', method: 'POST', path: '/planets', summary: 'Create a planet', request: 'Planet', response: 'Planet', status: [201]}
  ], types: [{name: 'Planet', kind: 'object', fields: [{name: 'id', type: 'integer', required: true, 'x-read-only': true}, {name: 'name', type: 'string', required: true, example: 'Mars'}]}]})
  await tab.goto(`${page}#createPlanet`)
  assert.match((await tab.textContent('#apipe-details .curl code'))!, / --data '\{"name":"Mars"\}'$/)
  const marks = await tab.$$eval('#apipe-details table.fields tr[data-read-only] > td:nth-child(3)', (cells) => cells.map((cell) => getComputedStyle(cell, '::after').content))
  assert.ok(marks.length > 0 && marks.every((mark) => mark === '" read-only"'), marks.join())
})

check('an event with a correlation id (x-correlation-id) says where a reply finds it', async ({tab}) => {
  const page = await renderedPage('rpc', {meta: {title: 'RPC'}, endpoints: [
    {id: 'sumRequested', method: 'EVENT', path: 'rpc.sum', summary: 'A sum was asked for', response: 'Numbers', 'x-correlation-id': '$message.header#/correlationId'},
    {id: 'sumDone', method: 'EVENT', path: 'rpc.sum.done', summary: 'A sum was made', response: 'Numbers'}
  ], types: [{name: 'Numbers', kind: 'object', fields: [{name: 'values', type: 'number[]', required: true}]}]})
  await tab.goto(`${page}#sumRequested`)
  assert.equal(await tab.$$eval('#apipe-details h3', (nodes) => nodes.map((node) => node.textContent)), ['Payload', 'Correlation id'])
  assert.is(await tab.textContent('#apipe-details p.correlation'), 'A reply finds the id that ties it to this message at $message.header#/correlationId')
  await tab.goto(`${page}#sumDone`)
  assert.equal(await tab.$$eval('#apipe-details h3', (nodes) => nodes.map((node) => node.textContent)), ['Payload'])
})

check('the findings counter filters to endpoints with findings', async ({tab, url}) => {
  await tab.goto(url)
  assert.is(await tab.textContent('#apipe-findings'), '⚠ 1 with findings')
  await tab.click('#apipe-findings')
  assert.equal(await visibleRows(tab), ['patchOrder'])
  assert.is(await tab.getAttribute('#apipe-findings', 'aria-pressed'), 'true')
  await tab.click('#apipe-findings')
  assert.is((await visibleRows(tab)).length, 11)
})

check('j and k move the selection through visible rows', async ({tab, url}) => {
  await tab.goto(url)
  await tab.fill('#apipe-search', 'method:GET')
  await tab.click('h1')
  await tab.keyboard.press('j')
  await tab.keyboard.press('j')
  assert.is(await tab.evaluate(() => location.hash), '#getOrder')
  await tab.keyboard.press('k')
  assert.is(await tab.textContent('#apipe-details h2 .path'), '/orders')
})

check('the page makes no network request of any kind', async ({tab, url, requests}) => {
  await tab.goto(`${url}#createOrder`)
  await tab.click('#apipe-details a.type-chip:text("Order")')
  await tab.fill('#apipe-search', 'orders')
  await tab.waitForTimeout(200)
  assert.equal(requests, [url], 'only the page itself is loaded')
})

check('the page starts with its header: nothing above the title', async ({tab, url}) => {
  await tab.goto(url)
  const top = await tab.$eval('h1', (node) => node.getBoundingClientRect().top)
  assert.ok(top < 40, `title at ${top}px`)
})

check('light and dark screenshots of a real page are saved as artifacts', async ({tab, url}) => {
  mkdirSync(artifacts, {recursive: true})
  await tab.goto(`${url}#createOrder`)
  await tab.screenshot({path: path.join(artifacts, 'shop-light.png'), fullPage: true})
  await tab.emulateMedia({colorScheme: 'dark'})
  await tab.screenshot({path: path.join(artifacts, 'shop-dark.png')})
  const background = await tab.evaluate(() => getComputedStyle(document.body).backgroundColor)
  assert.is(background, 'rgb(18, 21, 28)', 'dark background under prefers-color-scheme: dark')
})

check('printed, the page drops search, details and footer, and shows every row', async ({tab, url}) => {
  await tab.goto(`${url}#createOrder`)
  await tab.fill('#apipe-search', 'no such endpoint')
  await tab.emulateMedia({media: 'print'})
  const shown = await tab.evaluate(() => ['.search', '.hint', '#apipe-details', '.foot'].map((selector) => {
    const node = document.querySelector(selector)
    return node ? getComputedStyle(node).display : 'absent'
  }))
  assert.equal(shown.filter((display) => display !== 'none' && display !== 'absent'), [], `displays: ${shown.join(', ')}`)
  const hiddenRows = await tab.$$eval('.rows li', (rows) => rows.filter((row) => row.getBoundingClientRect().height === 0).length)
  assert.is(hiddenRows, 0, 'rows filtered on screen are printed')
  const skipped = await tab.$$eval('.card, .rows li, .dashboard, .types', (nodes) => nodes.filter((node) => getComputedStyle(node).contentVisibility !== 'visible').length)
  assert.is(skipped, 0, 'nothing is skipped as off screen on paper')
  await tab.emulateMedia({media: 'screen'})
})

check("a description's GitHub alerts show as their kind: a titled quote edged in the kind's colour", async ({tab}) => {
  const description = '> [!NOTE]\n> This endpoint is in public preview.\n\nGets a thing.\n\n> [!WARNING]\n> Deleting it is forever.'
  const url = await renderedPage('alerts', {meta: {title: 'Alerts', version: '1'}, groups: [{id: 'things'}], endpoints: [{id: 'getThing', method: 'GET', path: '/things/{id}', group: 'things', summary: 'Get a thing', description}]})
  await tab.goto(`${url}#getThing`)
  const quotes = await tab.$$eval('#apipe-details blockquote', (items) => items.map((item) => [item.getAttribute('data-alert'), item.querySelector('p strong')?.textContent, getComputedStyle(item).borderLeftColor]))
  assert.equal(quotes.map(([kind, title]) => [kind, title]), [['note', 'Note'], ['warning', 'Warning']])
  // Each edge in its kind's colour, not the plain quote's line.
  assert.is.not(quotes[0][2], quotes[1][2])
  assert.not.match(await tab.textContent('#apipe-details') ?? '', '[!NOTE]')
})

page.run()
