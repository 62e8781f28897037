import {execFileSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {root} from './helpers/fixtures.js'

// docs/rules.md is what a configuration's rule ids are checked against (pipeline/rule-settings.ts), so a rule
// missing there would be refused in `.piperc` although it runs. In a process of its own: the tests in this one
// define rules of their own, as plugins do.
test('every rule the plugins define has its section in docs/rules.md', () => {
  const modules = ['validate-catalogue/index.js', 'diff-catalogues/index.js', 'import-openapi/index.js', 'import-graphql/index.js', 'import-asyncapi/index.js', 'resolve-refs.js', 'emit-migrations.js', 'validate-definitions/index.js']
  const script = `${modules.map((module) => `await import('./plugins/${module}')`).join(';')}; const {definedRuleIds} = await import('./pipeline/rule.js'); console.log(JSON.stringify([...definedRuleIds]))`
  const defined = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {cwd: root, encoding: 'utf8'})) as string[]
  const documented = new Set(readFileSync(path.join(root, 'docs', 'rules.md'), 'utf8').match(/^### [a-z0-9-]+$/gm)!.map((heading) => heading.slice(4)))
  assert.ok(defined.length > 80, `only ${defined.length} rules defined`)
  assert.equal(defined.filter((id) => !documented.has(id)), [])
})

test.run()
