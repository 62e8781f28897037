import {mkdtempSync, readFileSync, existsSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {pipeline} from '../index.js'
import {formatFindings} from '../pipeline/report.js'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'

const fixture = (...parts: string[]) => path.join(root, 'fixtures', 'render-docs', ...parts)
const twoCatalogues = fixture('two-catalogues')
const shop = path.join(twoCatalogues, 'shop.endpoints.json')

test('pipe run --preset docs renders a two-catalogue Markdown document from .piperc.json settings', async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'apipe-docs-'))
  const result = await runPipe(['run', '--preset', 'docs', 'api.md.njk', '--output', out], {cwd: twoCatalogues})
  assert.is(result.code, 0)
  assert.is(result.stderr, `api.md.njk\n info Wrote \`${path.join(out, 'api.md')}\` write apipe\n`)
  assert.fixture(readFileSync(path.join(out, 'api.md'), 'utf8'), readFileSync(fixture('two-catalogues', 'expected.md'), 'utf8'))
})

test('pipe run --preset docs --setting catalogue=… renders an HTML document with escaped sentences', async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'apipe-docs-'))
  const result = await runPipe(['run', '--preset', 'docs', '--setting', 'catalogue=api.endpoints.json', 'page.html.njk', '--output', out], {cwd: fixture('html')})
  assert.is(result.code, 0)
  assert.fixture(readFileSync(path.join(out, 'page.html'), 'utf8'), readFileSync(fixture('html', 'expected.html'), 'utf8'))
})

const render = async (template: string, catalogue: string = shop) => {
  const [file] = await pipeline('docs', [{path: path.join(twoCatalogues, 'doc.md.njk'), value: template}], {settings: {catalogue}})
  return file
}

test('a template asking for a section that does not exist is a finding at its line and column, and no document', async () => {
  const file = await render('# Doc\n\nSee {{ endpoints.operatons }}.\n')
  assert.is(formatFindings([file], 'text'), 'error template 3:8 Unknown section `operatons`, expected one of operations, types, meta, groups\n1 error(s), 0 warning(s)\n')
  assert.is(file.data.outputs, undefined)
})

test('a template asking for an unknown catalogue names the known ones', async () => {
  const file = await render('line\n{% for s in catalogues.billing.operations %}{{ s }}{% endfor %}\n')
  assert.is(file.messages[0].reason, 'Unknown catalogue `billing`, expected one of shop')
  assert.equal([file.messages[0].line, file.messages[0].column], [2, 13])
})

test('a catalogue with errors gives findings naming the spec line and column, and no document', async () => {
  const file = await render('# Operations\n\n{{ endpoints.operations }}', path.join(root, 'fixtures', 'validate-catalogue', 'dangling-ref-group', 'input.json'))
  // At the template's first read of the catalogue, so that an editor and CI annotations show it there.
  assert.equal(
    file.messages.map((message) => [message.fatal, message.ruleId, message.line, message.column, message.reason.replace(root, '')]),
    [[true, 'dangling-ref', 3, 4, 'Catalogue `fixtures/validate-catalogue/dangling-ref-group/input.json:27:7`: Unknown group `pets`; known ids: default, users']]
  )
  assert.is(file.data.outputs, undefined)
})

test('a rule turned off in the settings is off for the catalogues a document reads too', async () => {
  const catalogue = path.join(root, 'fixtures', 'validate-catalogue', 'dangling-ref-group', 'input.json')
  const [file] = await pipeline('docs', [{path: path.join(twoCatalogues, 'doc.md.njk'), value: '{{ endpoints.meta }}'}], {settings: {catalogue, rules: {'dangling-ref': 'off'}}})
  assert.equal(file.messages.map((message) => message.ruleId), [])
  assert.is(file.data.outputs?.length, 1)
})

test('a template syntax error is a finding with line and column', async () => {
  const file = await render('one\ntwo {% for %}\n')
  assert.is(file.messages[0].ruleId, 'template')
  assert.is(file.messages[0].line, 2, 'nunjucks gives the line; its column points at the end of the bad tag')
  assert.match(file.messages[0].reason, /^Cannot render template: unexpected token: %}/)
})

test('a block never closed and an unknown filter, which nunjucks places nowhere, are found at their tags', async () => {
  const cases: Array<[string, string]> = [
    ['# T\n\n{% for s in endpoints.operations %}\n{{ s }}\n', 'error template 3:1 Cannot render template: unexpected end of file: `{% for %}` here is never closed by `{% endfor %}`'],
    ['{% raw %}{% if %}{% endraw %}{% set y %}z{% endset %}{% set q = 1 %}\n{% if q %}\n  {%- for s in endpoints.operations %}{% endfor %}\n', 'error template 2:1 Cannot render template: parseIf: expected elif, else, or endif, got end of file: `{% if %}` here is never closed by `{% endif %}`'],
    ['ok\n\n{{ endpoints.meta.title | upper | nofilter }}\n', 'error template 3:35 Cannot render template: filter not found: nofilter']
  ]
  for (const [template, finding] of cases) {
    const file = await render(template)
    assert.is(formatFindings([file], 'text'), `${finding}\n1 error(s), 0 warning(s)\n`, template)
    assert.is(file.data.outputs, undefined)
  }
})

test('the docs preset without a catalogue setting says how to set one', async () => {
  const [file] = await pipeline('docs', [{path: path.join(twoCatalogues, 'x.md.njk'), value: 'x'}])
  assert.is(file.messages[0].reason, 'Missing catalogue, expected the `catalogue` setting (e.g. `--setting catalogue=api.endpoints.json`)')
})

test('a template without the .njk extension is refused before anything is written', async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'apipe-docs-'))
  const result = await runPipe(['run', '--preset', 'docs', '--setting', 'catalogue=shop.endpoints.json', 'expected.md', '--output', out], {cwd: twoCatalogues})
  assert.is(result.code, 1)
  assert.match(result.stderr, /1:1 +error +Unexpected template name `expected.md`, expected `<name>.<extension>.njk`/)
  assert.not.ok(existsSync(path.join(out, 'expected')))
})

test.run()
