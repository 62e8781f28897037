/**
 * The page as a reference, on real descriptions from the corpus (../shared/corpus), in Chromium: Markdown renders as
 * such (a GFM table, headings, emphasis, a link whose text wraps), the details panel shows a nested request body's
 * fields with their descriptions, type links jump, paths never break inside a word (1440, 1024 and 390 px, the
 * corpus's longest paths), the group index jumps and follows the search, and no page makes a network request.
 * Screenshots of three corpus pages (desktop, dark, phone) are saved in test/artifacts/.
 */
import {copyFileSync, mkdirSync, mkdtempSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {suite} from 'uvu'
import * as assert from 'uvu/assert'
import type {Browser, Page} from 'playwright-core'
import {testWhen} from '../helpers/skip.js'
import {root} from '../helpers/fixtures.js'
import {browserMissing, launch} from '../helpers/browser.js'
import {corpusDir, corpusMissing} from '../helpers/corpus.js'
import {runPipe} from '../helpers/run-pipe.js'

const missing = browserMissing() ?? corpusMissing()
const artifacts = path.join(root, 'test', 'artifacts')
const reference = suite<{browser?: Browser; pages: Map<string, string>; requests: string[]; errors: string[]}>('reference page on the corpus', {pages: new Map(), requests: [], errors: []})

const sources = {
  postman: 'apis-guru/getpostman.com/1.20.0/openapi.yaml',
  braze: 'apis-guru/braze.com/1.0.0/openapi.yaml',
  box: 'big/box/openapi.json',
  peertube: 'apis-guru/cpy.re/peertube/3.3.0/openapi.yaml'
} as const

reference.before(async (context) => {
  if (missing) return
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apipe-reference-'))
  for (const [name, source] of Object.entries(sources)) {
    const input = path.join(dir, `${name}${path.extname(source)}`)
    copyFileSync(path.join(corpusDir, source), input)
    const result = await runPipe(['run', '--preset', 'openapi', '--silent', input])
    assert.is(result.code, 0, result.stderr)
    context.pages.set(name, pathToFileURL(path.join(dir, `${name}.endpoints.html`)).href)
  }
  const blog = path.join(dir, 'blog')
  assert.is((await runPipe(['map', path.join(root, 'examples', 'blog'), '--output', blog])).code, 0)
  context.pages.set('blog', pathToFileURL(path.join(blog, 'api.endpoints.html')).href)
  const longest = path.join(dir, 'longest.endpoints.html')
  assert.is((await runPipe(['render', path.join(root, 'fixtures', 'render-html', 'longest-paths', 'input.json'), '--output', longest])).code, 0)
  context.pages.set('longest', pathToFileURL(longest).href)
  context.browser = await launch()
})

reference.after(async (context) => {
  await context.browser?.close()
})

/** A tab that records every request and script error; the type cards are inflated before `run` starts. */
async function open(context: {browser?: Browser; requests: string[]; errors: string[]}, url: string, options: {width?: number; height?: number; dark?: boolean} = {}): Promise<Page> {
  const tab = await context.browser!.newPage({viewport: {width: options.width ?? 1440, height: options.height ?? 900}, colorScheme: options.dark ? 'dark' : 'light'})
  tab.on('request', (request) => {
    if (request.url().split('#')[0] !== url.split('#')[0]) context.requests.push(request.url())
  })
  tab.on('pageerror', (error) => context.errors.push(error.message))
  await tab.goto(url)
  await tab.waitForSelector('html[data-types="ready"]', {state: 'attached'})
  return tab
}

const check = (name: string, run: (context: {browser?: Browser; pages: Map<string, string>; requests: string[]; errors: string[]}) => Promise<void>) =>
  testWhen(reference, missing, name, async (context) => {
    await run(context)
  })

check('a GFM table in a description renders as a table (Postman, createMonitor)', async (context) => {
  const tab = await open(context, `${context.pages.get('postman')}#createMonitor`)
  const rich = '#apipe-details .rich'
  assert.equal(await tab.$$eval(`${rich} table th`, (cells) => cells.map((cell) => cell.textContent)), ['Frequency', 'Cron Pattern'])
  assert.equal(await tab.$$eval(`${rich} table tbody tr:first-child td`, (cells) => cells.map((cell) => cell.textContent)), ['Every 5 minutes', '*/5 * * * *'])
  assert.not.ok((await tab.textContent('#apipe-details'))!.includes('|---'), 'no raw table markup')
  await tab.close()
})

check('headings in a description are headings, and the paragraph after one stays a paragraph (Braze, campaignAnalytics)', async (context) => {
  const tab = await open(context, `${context.pages.get('braze')}#campaignAnalytics`)
  const headings = await tab.$$eval('#apipe-details .rich :is(h1, h2, h3, h4, h5, h6)', (nodes) => nodes.map((node) => `${node.tagName} ${node.textContent}`))
  assert.ok(headings.includes('H3 Components Used'), headings.join())
  assert.ok(headings.includes('H4 Multi-Channel Response'), headings.join())
  assert.is(await tab.$eval('#apipe-details .rich h4', (heading) => heading.nextElementSibling?.tagName), 'PRE', 'the code block after the heading is its own block')
  assert.not.ok((await tab.textContent('#apipe-details'))!.includes('###'), 'no raw heading marks')
  await tab.close()
})

check('emphasis in a group description is emphasis (PeerTube, Search)', async (context) => {
  const tab = await open(context, context.pages.get('peertube')!)
  assert.equal(await tab.$$eval('#group-Search .group-description em', (nodes) => nodes.map((node) => node.textContent)), ['videos', 'channels'])
  await tab.close()
})

check('a link whose text wraps to the next line is a link (Box, get_search, include_recent_shared_links)', async (context) => {
  const tab = await open(context, `${context.pages.get('box')}#get_search`)
  const links = await tab.$$eval('#apipe-details table.params a', (nodes) => nodes.map((node) => [node.textContent!.replace(/\s+/g, ' '), node.getAttribute('href')]))
  assert.ok(links.some(([text, href]) => text === 'Search Results with Shared Links' && href === 'https://developer.box.com/reference/resources/search-results-with-shared-links'), JSON.stringify(links))
  assert.not.ok((await tab.textContent('#apipe-details table.params'))!.includes(']('), 'no raw link markup')
  await tab.close()
})

check('the request fields of a nested body appear in the panel with their descriptions, and a nested object opens in place (Box, post_folders)', async (context) => {
  const tab = await open(context, `${context.pages.get('box')}#post_folders`)
  const body = '#apipe-details table.fields.reference'
  const rows = await tab.$$eval(`${body} > tbody > tr:not(.about)`, (trs) => (trs as HTMLTableRowElement[]).map((tr) => [tr.cells[0].textContent!.replace(/^[+−↻]/, ''), tr.cells[2].textContent]))
  assert.equal(rows.slice(0, 2), [['name', 'required'], ['parent', 'required']])
  const about = await tab.$$eval(`${body} > tbody > tr.about`, (trs) => trs.map((tr) => tr.textContent!.trim()))
  assert.ok(about[0].startsWith('The name for the new folder.'), about[0])
  assert.ok(about[1].startsWith('The parent folder to create the new folder within.'), about[1])
  await tab.click(`${body} > tbody > tr:nth-child(3) button.expand`)
  const nested = await tab.$$eval(`${body} tr.nested table.fields tr`, (trs) => trs.map((tr) => tr.textContent!.trim()))
  assert.ok(nested.some((text) => text.startsWith('id') && text.includes('required')), nested.join(' | '))
  assert.ok(nested.includes('The ID of parent folder.'), nested.join(' | '))
  // The curl line names the base URL, the method and a sample of the required body.
  const curl = await tab.textContent('#apipe-details .curl code')
  assert.match(curl!, /^curl -X POST 'https:\/\/api\.box\.com\/2\.0\/folders' .*--data '\{"name":"New Folder","parent":\{"id":"0"\}\}'$/)
  await tab.close()
})

check('the curl line sends a body as its media type wants it: form fields for multipart, a file for binary (PeerTube)', async (context) => {
  const tab = await open(context, `${context.pages.get('peertube')}#addPlaylist`)
  const form = (await tab.textContent('#apipe-details .curl code'))!
  assert.match(form, /^curl -X POST '[^']*\/video-playlists' .*-F 'displayName=[^']*'/)
  assert.not.match(form, /application\/json|--data /)
  // A field of format `binary` is a file to upload, and the fields table says so beside its type.
  await tab.goto(`${context.pages.get('peertube')}#uploadLegacy`)
  assert.match((await tab.textContent('#apipe-details .curl code'))!, / -F 'videofile=@file'/)
  const videofile = await tab.$$eval('#apipe-details table.fields td[data-format]', (cells) => cells.map((cell) => `${cell.previousElementSibling!.textContent} ${getComputedStyle(cell, '::after').content}`))
  assert.ok(videofile.includes('videofile " (binary)"'), videofile.join(' | '))
  await tab.goto(`${context.pages.get('peertube')}#uploadResumable`)
  const binary = (await tab.textContent('#apipe-details .curl code'))!
  assert.match(binary, /-H 'Content-Type: application\/octet-stream' --data-binary @file$/)
  await tab.close()
})

check('a field that may be null says so beside its type and format, outside the type cell\'s text (Box)', async (context) => {
  const tab = await open(context, context.pages.get('box')!)
  const cells = await tab.$$eval('#type-File--Full table.fields tr', (elements) =>
    (elements as HTMLTableRowElement[]).filter((row) => row.className !== 'about').map((row) => `${row.cells[0].textContent} ${row.cells[1].textContent}${getComputedStyle(row.cells[1], '::after').content}`)
  )
  assert.ok(cells.includes('trashed_at string" (date-time) or null"'), cells.join(' | '))
  assert.ok(cells.includes('etag string" or null"'), cells.join(' | '))
  assert.ok(cells.includes('id stringnone'), cells.join(' | '))
  await tab.close()
})

check('a type link jumps to its card, field types in a card link on, and a card lists the endpoints that use it (Box)', async (context) => {
  const tab = await open(context, `${context.pages.get('box')}#post_folders`)
  await tab.click('#apipe-details .type-line a.type-chip')
  await tab.waitForFunction(() => document.getElementById('type-PostFoldersRequest')?.classList.contains('highlight'))
  const inView = (id: string) => tab.$eval(`#${id}`, (node) => {
    const box = node.getBoundingClientRect()
    return box.top >= -1 && box.top < window.innerHeight
  })
  assert.ok(await inView('type-PostFoldersRequest'))
  await tab.click('#type-PostFoldersRequest a[href="#type-PostFoldersRequestParent"]')
  await tab.waitForFunction(() => document.getElementById('type-PostFoldersRequestParent')?.classList.contains('highlight'))
  assert.ok(await inView('type-PostFoldersRequestParent'))
  await tab.click('#type-PostFoldersRequest details.used-by summary')
  assert.equal(await tab.$$eval('#type-PostFoldersRequest details.used-by a', (links) => links.map((link) => link.textContent)), ['POST /folders'])
  await tab.close()
})

check('no path breaks inside a word at 1440, 1024 and 390 px, with or without the details panel (the corpus\'s longest paths)', async (context) => {
  for (const width of [1440, 1024, 390]) {
    const tab = await open(context, context.pages.get('longest')!, {width})
    for (const panel of [false, true]) {
      if (panel) await tab.click('a.row#logicRequestHistory')
      const report = await tab.$$eval('a.row', (rows) => rows.map((row) => {
        const path = row.querySelector('.path')!
        const range = document.createRange()
        // The line of each character, in order: a line may end only after `/`, `.` or `_`, before `{`, or between the
        // words of a long camelCase name (`security|Profile`); never after the hyphen of `security-profiles`.
        const characters: Array<{character: string; top: number}> = []
        const walker = document.createTreeWalker(path, NodeFilter.SHOW_TEXT)
        while (walker.nextNode()) {
          const text = walker.currentNode as Text
          for (let index = 0; index < text.length; index++) {
            range.setStart(text, index)
            range.setEnd(text, index + 1)
            characters.push({character: text.data[index], top: Math.round(range.getBoundingClientRect().top)})
          }
        }
        const line = characters.map((item) => item.character).join('')
        const broken = characters.flatMap((item, index) => {
          if (index === 0 || item.top === characters[index - 1].top) return []
          if ('/._'.includes(characters[index - 1].character) || item.character === '{') return []
          if (/[a-z\d]/.test(characters[index - 1].character) && /[A-Z]/.test(item.character)) return []
          return [`${line.slice(Math.max(0, index - 12), index)}|${line.slice(index, index + 12)}`]
        })
        range.selectNodeContents(path)
        const lines = new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top))).size
        const badge = row.querySelector('.method')!.getClientRects().length
        return {id: row.id, broken, lines, overflow: path.scrollWidth > path.clientWidth + 1, badge}
      }))
      for (const row of report) {
        assert.equal(row.broken, [], `${width} px${panel ? ' with the panel' : ''}: ${row.id} broken inside a piece`)
        assert.is(row.overflow, false, `${width} px${panel ? ' with the panel' : ''}: ${row.id} overflows its row`)
        assert.is(row.badge, 1, `${width} px: the ${row.id} badge is one box`)
      }
      assert.ok(report.find((row) => row.id === 'logicRequestHistory')!.lines > 1, 'the longest path does wrap')
    }
    // A type name wraps only after a `.`, a field name never.
    const names = await tab.$$eval('#apipe-types table.fields th', (cells) => cells.map((cell) => cell.getClientRects().length))
    assert.ok(names.every((count) => count === 1))
    await tab.close()
  }
})

check('the group index jumps to each group and follows the search, with counts (Postman)', async (context) => {
  const tab = await open(context, context.pages.get('postman')!)
  const entries = await tab.$$eval('#apipe-index li', (items) => items.map((item) => [item.getAttribute('data-group'), item.querySelector('.count')!.textContent]))
  const cards = await tab.$$eval('.card[id^="group-"]', (nodes) => nodes.map((node) => node.getAttribute('data-group')))
  assert.equal(entries.map(([id]) => id).sort(), [...cards].sort())
  const last = entries.at(-1)![0]!
  await tab.click(`#apipe-index li[data-group="${last}"] a`)
  const top = await tab.evaluate((id) => document.getElementById(`group-${id}`)!.getBoundingClientRect().top, last)
  assert.ok(top >= 0 && top < 100, `the card of ${last} is at the top (${top})`)
  await tab.fill('#apipe-search', 'monitor')
  const visible = await tab.$$eval('#apipe-index li', (items) => (items as HTMLElement[]).filter((item) => !item.hidden).map((item) => [item.getAttribute('data-group'), item.querySelector('.count')!.textContent]))
  const rows = await tab.$$eval('.card:not([hidden])', (nodes) => {
    const counts: Record<string, number> = {}
    for (const node of nodes) counts[node.getAttribute('data-group')!] = (counts[node.getAttribute('data-group')!] ?? 0) + node.querySelectorAll('.rows > li:not([hidden])').length
    return Object.entries(counts).map(([id, n]) => [id, String(n)])
  })
  assert.equal(visible, rows)
  assert.ok(visible.length > 0 && visible.length < entries.length)
  await tab.close()
})

check('screenshots of three corpus pages: Box on a desktop with its details, Braze in dark mode, Postman on a phone', async (context) => {
  mkdirSync(artifacts, {recursive: true})
  const desktop = await open(context, `${context.pages.get('box')}#post_folders`, {width: 1440, height: 900})
  await desktop.screenshot({path: path.join(artifacts, 'reference-desktop.png')})
  await desktop.close()
  const dark = await open(context, `${context.pages.get('braze')}#campaignAnalytics`, {width: 1440, height: 900, dark: true})
  await dark.screenshot({path: path.join(artifacts, 'reference-dark.png')})
  await dark.close()
  const phone = await open(context, context.pages.get('postman')!, {width: 390, height: 844})
  await phone.screenshot({path: path.join(artifacts, 'reference-phone.png')})
  assert.ok(await phone.$eval('#apipe-index', (index) => !(index as HTMLDetailsElement).open), 'the group index starts closed on a phone')
  assert.is(await phone.$eval('.hint', (hint) => getComputedStyle(hint).display), 'none', 'no keyboard hint on a phone')
  await phone.close()
})

check('the entity panel shows the columns of a highlighted table from the ERD (the example blog, pipe map)', async (context) => {
  const tab = await open(context, `${context.pages.get('blog')}#article.create`)
  const columns = '.table[data-table="article"] table.columns'
  assert.ok(await tab.isVisible(columns), 'the table named by the selected endpoint shows its columns')
  assert.is(await tab.isVisible('.table[data-table="user"] table.columns'), false, 'a table the endpoint does not name keeps them folded')
  const rows = await tab.$$eval(`${columns} tr`, (trs) => (trs as HTMLTableRowElement[]).map((tr) => Array.from(tr.cells).map((cell) => cell.textContent)))
  assert.equal(rows[0], ['id', 'integer', 'PK'])
  assert.ok(rows.some((row) => row[0] === 'author_id' && row[2]?.startsWith('FK → user')), JSON.stringify(rows))
  await tab.close()
})

check('none of these pages made a network request or threw', async (context) => {
  assert.equal(context.requests, [])
  assert.equal(context.errors, [])
})

reference.run()
