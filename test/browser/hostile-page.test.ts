/**
 * The page with hostile strings everywhere a catalogue carries text (title, group labels, summaries, descriptions,
 * paths, params, tags, types, sources) and a `javascript:` repository: in Chromium nothing executes, no handler or
 * `javascript:` URL reaches the DOM, nothing is fetched, and a repository that is not http(s) is not linked.
 */
import {mkdtempSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {testWhen} from '../helpers/skip.js'
import {browserMissing, launch} from '../helpers/browser.js'
import {runPipe} from '../helpers/run-pipe.js'

const payloads = [
  '<script>alert("script")</script>',
  '<img src=x onerror=alert("img")>',
  '"><svg onload=alert("svg")>',
  "javascript:alert('url')",
  '{{ 7*7 }}<iframe src="javascript:alert(1)">',
  "'-alert('quote')-'",
  "[markdown](javascript:alert('md')) <a href=\"javascript:alert('a')\">a</a> <a href=\"https://x.example\" onclick=\"alert('click')\">b</a>",
  '| a | b |\n| --- | --- |\n| <img src=x onerror=alert("cell")> | [c](javascript:alert("cell")) |',
  '<details open ontoggle=alert("toggle")><summary>s</summary>d</details> <a href="data:text/html,<script>alert(1)</script>">data</a> [v](vbscript:msgbox(1))',
  '<style>body{display:none}</style><form action="https://x.example"><input name=q></form><object data="x"></object>'
]
const p = (index: number) => payloads[index % payloads.length]

testWhen(test, browserMissing(), 'hostile strings render inert; a javascript: repository is not linked', async () => {
  const spec = {
    schema_version: 1,
    diagram_type: 'endpoints',
    meta: {title: `Shop ${p(0)}`, version: p(1), base_url: "javascript:alert('base')", repository: "javascript:alert('repo')", description: p(2)},
    groups: [{id: 'g', label: p(3), description: p(4)}],
    endpoints: Array.from({length: 6}, (_, index) => ({
      id: `e${index}`,
      method: 'GET',
      path: `/items/${p(index)}/{id}`,
      group: 'g',
      summary: p(index + 1),
      description: p(index + 2),
      auth: p(index + 3),
      tags: [p(index + 4)],
      entities: [p(index + 5)],
      params: [{name: p(index), in: 'query', type: p(index + 1), description: p(index + 2), enum: [p(index + 3)], default: p(index + 4)}],
      request: 'Thing',
      request_description: p(index + 5),
      request_example: {text: p(index + 6)},
      responses: [{status: 200, description: p(index + 7), type: 'Thing', headers: [{name: p(index), type: p(index + 1), description: p(index + 2)}], example: p(index + 3)}],
      response: 'Thing',
      sources: [{file: p(index), line: 3}]
    })).concat([{id: 'long', method: 'GET', path: '/long', group: 'g', summary: 'Long', description: `${'<code>'.repeat(3400)}${p(6)}`} as never]),
    types: [{name: 'Thing', kind: 'object', description: p(0), fields: [{name: p(1), type: p(2), description: p(3), enum: [p(4)], default: p(5)}, ...payloads.map((payload, index) => ({name: `f${index}`, type: 'string', description: payload}))]}]
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apipe-hostile-page-'))
  const input = path.join(dir, 'hostile.endpoints.json')
  writeFileSync(input, JSON.stringify(spec))
  const rendered = await runPipe(['render', input])
  assert.is(rendered.code, 0, rendered.stderr)
  const browser = await launch()
  try {
    const tab = await browser.newPage()
    const dialogs: string[] = []
    const requests: string[] = []
    tab.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    tab.on('request', (request) => requests.push(request.url()))
    const url = pathToFileURL(path.join(dir, 'hostile.endpoints.html')).href
    await tab.goto(url)
    for (let index = 0; index < 6; index++) {
      await tab.click(`a.row#e${index}`)
      await tab.waitForTimeout(50)
      // Open every response and nested field the panel offers.
      await tab.evaluate(() => {
        document.querySelectorAll<HTMLDetailsElement>('#apipe-details details').forEach((node) => (node.open = true))
        document.querySelectorAll<HTMLButtonElement>('#apipe-details button.expand:not([disabled])').forEach((button) => button.click())
      })
      await tab.waitForTimeout(50)
    }
    // Past 20,000 characters a description is shown as the text it is, not read for marks.
    await tab.click('a.row#long')
    assert.is(await tab.$$eval('#apipe-details .rich > *', (nodes) => nodes.map((node) => `${node.tagName}.${node.className}`).join()), 'P.text')
    await tab.fill('input[type=search]', p(1))
    await tab.keyboard.press('Enter')
    await tab.goto(`${url}#${encodeURIComponent(p(0))}`)
    await tab.waitForTimeout(200)
    assert.equal(dialogs, [], 'nothing executed')
    assert.ok(await tab.isVisible('body main'), 'no injected style hides the page')
    const dom = await tab.evaluate(() => ({
      scripts: document.querySelectorAll('script:not([type="application/json"]):not([type="application/octet-stream"])').length,
      handlers: Array.from(document.querySelectorAll('*')).flatMap((node) => Array.from(node.attributes).filter((attribute) => attribute.name.startsWith('on')).map((attribute) => attribute.name)),
      javascriptUrls: Array.from(document.body.querySelectorAll('[href], [src], [action], [data]')).map((node) => node.getAttribute('href') ?? node.getAttribute('src') ?? node.getAttribute('action') ?? node.getAttribute('data') ?? '').filter((value) => /^\s*(javascript|data|vbscript):/i.test(value)),
      injected: document.querySelectorAll('iframe, img, svg, object, embed, form, style:not(head style), details[ontoggle], input:not([type="checkbox"]):not(#apipe-search)').length,
      repositoryLinks: Array.from(document.querySelectorAll('a[href]')).filter((node) => /alert\('repo'\)/.test(node.getAttribute('href') ?? '')).length
    }))
    assert.is(dom.scripts, 1, 'only the page script (beside its JSON data)')
    assert.equal(dom.handlers, [])
    assert.equal(dom.javascriptUrls, [])
    assert.is(dom.injected, 0)
    assert.is(dom.repositoryLinks, 0, 'a repository that is not http(s) is not linked')
    assert.equal(requests.filter((request) => request !== url && !request.startsWith(url.split('#')[0])), [], 'no network request')
    assert.ok((await tab.textContent('body'))!.includes('<script>alert("script")</script>'), 'the payload shows as text')
  } finally {
    await browser.close()
  }
})

test.run()
