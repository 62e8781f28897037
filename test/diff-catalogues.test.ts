import {readdirSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {diffInputs} from '../cli/diff-inputs.js'
import {printChanges} from '../cli/print-changes.js'
import {formatFindings} from '../pipeline/report.js'
import {fixtureCases} from './helpers/fixtures.js'

// Each case: `old.*` and `input.*` (the new version), and `changes.txt`, what `pipe diff old input` prints.
for (const fixture of fixtureCases('diff-catalogues')) {
  test(`diff: ${fixture.name}`, async () => {
    const old = readdirSync(fixture.dir).find((file) => file.startsWith('old.'))!
    const result = await diffInputs(path.join(fixture.dir, old), fixture.input)
    const printed = result.changes ? printChanges(result.changes, result.new, 'text') : formatFindings([result.old, result.new], 'text')
    assert.fixture(printed, fixture.expected('changes.txt', printed))
  })
}

test.run()
