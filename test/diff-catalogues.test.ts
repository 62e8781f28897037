import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {diffInputs} from '../cli/diff-inputs.js'
import {printChanges} from '../cli/print-changes.js'
import MarkdownIt from 'markdown-it'
import {codeSpan} from '../pipeline/errors.js'
import {formatFindings} from '../pipeline/report.js'
import {changeCodes} from '../plugins/diff-catalogues/rules.js'
import {fixtureCases, root} from './helpers/fixtures.js'

// Each case: `old.*` and `input.*` (the new version), and `changes.txt`, what `pipe diff old input` prints.
for (const fixture of fixtureCases('diff-catalogues')) {
  test(`diff: ${fixture.name}`, async () => {
    const old = readdirSync(fixture.dir).find((file) => file.startsWith('old.'))!
    const result = await diffInputs(path.join(fixture.dir, old), fixture.input)
    const printed = result.changes ? printChanges(result.changes, result.new, 'text') : formatFindings([result.old, result.new], 'text')
    assert.fixture(printed, fixture.expected('changes.txt', printed))
  })
}

test('every change code is documented where its message links: a row in docs/diff.md, a section in docs/rules.md', () => {
  const [diffDoc, rulesDoc] = ['diff.md', 'rules.md'].map((name) => readFileSync(path.join(root, 'docs', name), 'utf8'))
  const undocumented = changeCodes.map(([code]) => code).filter((code) => !diffDoc.includes(`<a id="${code}"></a>\`${code}\``) || !rulesDoc.includes(`\n### ${code}\n`))
  assert.equal(undocumented, [])
})

/** The texts of the code spans of `markdown`, as a CommonMark reader (GitHub's pull-request comments) reads them. */
function codeTexts(markdown: string): string[] {
  const texts: string[] = []
  const walk = (tokens: ReturnType<InstanceType<typeof MarkdownIt>['parse']>) => {
    for (const token of tokens) {
      if (token.type === 'code_inline') texts.push(token.content)
      if (token.children) walk(token.children)
    }
  }
  walk(new MarkdownIt().parse(markdown, {}))
  return texts
}

test('a code span holds any text whole: backticks inside or at its ends, spaces at both ends', () => {
  const values = ['plain', 'a`b', '`d', 'x``y', 'e`', '```', ' padded ', ' ', 'a | b', '']
  for (const value of values.filter(Boolean)) assert.equal(codeTexts(`value ${codeSpan(value)} here`), [value], value)
  assert.is(codeSpan('a`b'), '``a`b``')
  assert.is(codeSpan('`d'), '`` `d ``')
})

test('pipe diff --format markdown: values with backticks stay whole in the table', async () => {
  const dir = path.join(root, 'fixtures', 'diff-catalogues', 'values-with-backticks')
  const result = await diffInputs(path.join(dir, 'old.yaml'), path.join(dir, 'input.yaml'))
  const markdown = printChanges(result.changes!, result.new, 'markdown')
  const table = new MarkdownIt().parse(markdown, {}).filter((token) => token.type === 'tr_open').length
  assert.is(table, 4, 'a header row and three changes')
  const texts = codeTexts(markdown)
  for (const expected of ['GetPetsResponse.kind.`d', '`d', 'GET:/pets.params.sort.x``y', 'x``y']) assert.ok(texts.includes(expected), expected)
})

test.run()
