import {copyFileSync, mkdirSync, mkdtempSync, statSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {testWhen} from '../helpers/skip.js'
import {root} from '../helpers/fixtures.js'
import {browserMissing, launch} from '../helpers/browser.js'
import {corpusDir, corpusMissing} from '../helpers/corpus.js'
import {runPipe} from '../helpers/run-pipe.js'

const missing = browserMissing() ?? corpusMissing()

for (const [name, source, endpoints] of [
  ['petstore', 'swagger-petstore/v3-master/openapi.yaml', 19],
  ['stripe', 'big/stripe/spec3.json', 417]
] as const) {
  testWhen(test, missing, `the ${name} page from the corpus renders every endpoint with no network request (screenshot saved)`, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), `apipe-${name}-`))
    const input = path.join(dir, `${name}${path.extname(source)}`)
    copyFileSync(path.join(corpusDir, source), input)
    const result = await runPipe(['run', '--preset', 'openapi', '--silent', input])
    assert.is(result.code, 0, result.stderr)
    const page = path.join(dir, `${name}.endpoints.html`)
    assert.ok(statSync(page).size > 0)
    const browser = await launch()
    try {
      const tab = await browser.newPage({viewport: {width: 1440, height: 1000}})
      const requests: string[] = []
      tab.on('request', (request) => requests.push(request.url()))
      const errors: string[] = []
      tab.on('pageerror', (error) => errors.push(error.message))
      const url = pathToFileURL(page).href
      await tab.goto(url)
      assert.is(await tab.$$eval('a.row', (rows) => rows.length), endpoints)
      await tab.click('a.row')
      assert.ok(await tab.isVisible('#apipe-details'))
      mkdirSync(path.join(root, 'test', 'artifacts'), {recursive: true})
      await tab.screenshot({path: path.join(root, 'test', 'artifacts', `${name}.png`)})
      assert.equal(errors, [])
      assert.equal(requests, [url])
    } finally {
      await browser.close()
    }
  })
}

test.run()
