import {mkdtempSync, mkdirSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {testWhen} from '../helpers/skip.js'
import {root} from '../helpers/fixtures.js'
import {browserMissing, launch} from '../helpers/browser.js'
import {runPipe} from '../helpers/run-pipe.js'

const missing = browserMissing()

testWhen(test, missing, 'a merged REST + GraphQL + events catalogue renders all three kinds, searchable by facet', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apipe-merged-'))
  const merged = path.join(dir, 'shop.endpoints.json')
  const inputs = ['rest', 'graphql', 'events'].map((name) => path.join(root, 'fixtures', 'merge', `${name}.endpoints.json`))
  assert.is((await runPipe(['merge', ...inputs, merged])).code, 0)
  assert.is((await runPipe(['render', merged])).code, 0)
  const browser = await launch()
  try {
    const page = await browser.newPage({viewport: {width: 1280, height: 900}})
    const requests: string[] = []
    page.on('request', (request) => requests.push(request.url()))
    const url = pathToFileURL(path.join(dir, 'shop.endpoints.html')).href
    await page.goto(url)
    const badges = await page.$$eval('a.row .method', (nodes) => nodes.map((node) => `${node.textContent}:${node.className}`))
    assert.equal(badges, [
      'GET:method m-get f-rest',
      'POST:method m-post f-rest',
      'QUERY:method m-query f-graphql',
      'MUTATION:method m-mutation f-graphql',
      'EVENT:method m-event f-event'
    ])
    const colours = await page.$$eval('a.row .method', (nodes) => new Set(nodes.map((node) => getComputedStyle(node).backgroundColor)).size)
    assert.is(colours, 5, 'each method kind has its own colour')
    assert.is(await page.textContent('a.row#addPet .path'), 'addPet(input: NewPet!): Pet!')
    await page.fill('#apipe-search', 'method:QUERY')
    assert.equal(await page.$$eval('a.row', (rows) => rows.filter((row) => row.checkVisibility()).map((row) => row.id)), ['pet'])
    await page.fill('#apipe-search', 'method:EVENT')
    assert.equal(await page.$$eval('a.row', (rows) => rows.filter((row) => row.checkVisibility()).map((row) => row.id)), ['petAdded'])
    mkdirSync(path.join(root, 'test', 'artifacts'), {recursive: true})
    await page.fill('#apipe-search', '')
    await page.screenshot({path: path.join(root, 'test', 'artifacts', 'merged.png'), fullPage: true})
    assert.equal(requests, [url])
  } finally {
    await browser.close()
  }
})

test.run()
