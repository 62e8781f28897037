import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {diffInputs} from '../cli/diff-inputs.js'
import {printChanges} from '../cli/print-changes.js'
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

test.run()
