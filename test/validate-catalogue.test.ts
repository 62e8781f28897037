import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {pipeline} from '../index.js'
import {formatFindings} from '../pipeline/report.js'
import {fixtureCases} from './helpers/fixtures.js'

for (const fixture of fixtureCases('validate-catalogue')) {
  test(`validate-catalogue reports exactly the findings of fixture \`${fixture.name}\``, async () => {
    const [file] = await pipeline('validate', [fixture.input], {settings: fixture.options})
    const actual = formatFindings([file], 'text')
    assert.fixture(actual, fixture.expected('messages.txt', actual))
    for (const message of file.messages) {
      assert.ok(message.ruleId, `ruleId on ${message.reason}`)
      assert.is(message.source, 'apipe')
      assert.match(String(message.url), /^https:\/\/.+#[a-z-]+$/)
      assert.ok(message.line, `line on ${message.reason}`)
      assert.ok(message.column, `column on ${message.reason}`)
    }
  })
}

test.run()
