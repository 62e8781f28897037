import {chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {inflateRawSync} from 'node:zlib'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'

const shop = path.join(root, 'fixtures', 'render-html', 'shop', 'input.json')
const temp = () => mkdtempSync(path.join(os.tmpdir(), 'apipe-render-'))

test('pipe render writes <spec>.html beside x.endpoints.json and prints the warnings', async () => {
  const dir = temp()
  const spec = path.join(dir, 'shop.endpoints.json')
  writeFileSync(spec, readFileSync(shop))
  const result = await runPipe(['render', 'shop.endpoints.json'], {cwd: dir})
  assert.equal(result, {
    code: 0,
    stdout: 'Wrote shop.endpoints.html\n',
    stderr: 'warning summary endpoints[4] Endpoint `patchOrder` has no summary\n0 error(s), 1 warning(s)\n'
  })
  assert.match(readFileSync(path.join(dir, 'shop.endpoints.html'), 'utf8'), /<h1>Shop<\/h1>/)
})

test('pipe render --output writes the page where asked', async () => {
  const target = path.join(temp(), 'site', 'index.html')
  const result = await runPipe(['render', shop, '--output', target])
  assert.is(result.code, 0)
  assert.is(result.stdout, `Wrote ${target}\n`)
  assert.ok(existsSync(target))
})

test('pipe render writes nothing for a catalogue with errors and exits 1', async () => {
  const dir = temp()
  const result = await runPipe(['render', path.join(root, 'fixtures', 'validate-catalogue', 'dangling-ref-group', 'input.json'), '--output', path.join(dir, 'page.html')])
  assert.is(result.code, 1)
  assert.is(result.stdout, '')
  assert.is(result.stderr, 'error dangling-ref endpoints[1].group Unknown group `pets`; known ids: default, users\n1 error(s), 0 warning(s)\n')
  assert.not.ok(existsSync(path.join(dir, 'page.html')))
})

test('a catalogue nested too deeply to render is one crash finding that says so, exit 1, no page', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apipe-render-deep-'))
  // 20,000 levels of arrays, written as text: JSON.stringify itself would run out of stack here.
  const deep = `${'['.repeat(20_000)}"bottom"${']'.repeat(20_000)}`
  writeFileSync(path.join(dir, 'deep.endpoints.json'), `{"schema_version": 1, "diagram_type": "endpoints", "meta": {"title": "Deep", "x-deep": ${deep}}, "endpoints": [{"id": "a", "method": "GET", "path": "/a", "summary": "A"}]}`)
  const result = await runPipe(['render', 'deep.endpoints.json'], {cwd: dir})
  assert.equal(result, {code: 1, stdout: '', stderr: 'error crash deep.endpoints.json Cannot process file: the document is nested too deeply to process (Maximum call stack size exceeded)\n1 error(s), 0 warning(s)\n'})
  assert.not.ok(existsSync(path.join(dir, 'deep.endpoints.html')))
})

test('pipe render --open uses the system opener, and says so when there is none', async () => {
  const bin = temp()
  const log = path.join(bin, 'opened.txt')
  writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$1" > ${log}\n`)
  chmodSync(path.join(bin, 'xdg-open'), 0o755)
  const target = path.join(temp(), 'page.html')
  const opened = await runPipe(['render', shop, '--output', target, '--open'], {env: {PATH: bin}})
  assert.is(opened.stdout, `Wrote ${target}\nOpened it with xdg-open\n`)
  for (let tries = 0; tries < 50 && !existsSync(log); tries++) await new Promise((resolve) => setTimeout(resolve, 20))
  assert.is(readFileSync(log, 'utf8'), `${target}\n`)
  const none = await runPipe(['render', shop, '--output', target, '--open'], {env: {PATH: temp()}})
  assert.is(none.stdout, `Wrote ${target}\nNo opener found (xdg-open, open or start); open ${target} in a browser\n`)
})

test.run()

test('pipe render cleans raw HTML wherever it is written, even only in one field description of one type', async () => {
  // The HTML sanitizer loads only for catalogues with a `<` in them: the search for one must reach every field.
  const dir = temp()
  const spec = {
    schema_version: 1,
    diagram_type: 'endpoints',
    meta: {title: 'Shop', version: '1.0.0', api_kind: 'rest'},
    endpoints: [{id: 'getPet', method: 'GET', path: '/pets/{id}', summary: 'Get a pet', response: 'Pet', params: [{name: 'id', in: 'path', type: 'string', required: true}]}],
    types: [{name: 'Pet', kind: 'object', fields: [{name: 'name', type: 'string', required: true, description: 'The <code>name</code><script>alert(1)</script> <a href="javascript:alert(2)">x</a>'}]}]
  }
  writeFileSync(path.join(dir, 'shop.endpoints.json'), JSON.stringify(spec))
  const result = await runPipe(['render', 'shop.endpoints.json', '--quiet'], {cwd: dir})
  assert.is(result.code, 0)
  const html = readFileSync(path.join(dir, 'shop.endpoints.html'), 'utf8')
  const packed = /<script type="application\/octet-stream" id="apipe-type-cards">([^<]*)<\/script>/.exec(html)?.[1] ?? ''
  const cards = inflateRawSync(Buffer.from(packed, 'base64')).toString('utf8')
  assert.match(cards, /<p>The <code>name<\/code> <a>x<\/a><\/p>/)
  assert.not.match(cards, /script|javascript/)
})
