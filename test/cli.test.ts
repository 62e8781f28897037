import {readFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'

const fixture = (...parts: string[]) => path.join(root, 'fixtures', ...parts)
const catalogueCase = (name: string) => fixture('validate-catalogue', name, 'input.json')
const expectedLines = (name: string) => readFileSync(fixture('validate-catalogue', name, 'messages.txt'), 'utf8')

test('pipe --help lists every command with one line each', async () => {
  const {code, stdout} = await runPipe(['--help'])
  assert.is(code, 0)
  assert.match(stdout, /pipe validate \[--format #0\] \[--frail\] <spec_file>\n\s+Check an endpoint catalogue against its contract\n/)
  assert.match(stdout, /pipe run .*<files or globs> \.\.\.\n\s+Run a preset of plugins over files and globs\n/)
  assert.match(stdout, /pipe render \[--output,-o #0\] \[--open\] <spec_file>\n\s+Write the self-contained HTML page of a catalogue\n/)
  assert.match(stdout, /pipe sentences \[--section #0\] \[--format #0\] <spec_file>\n\s+Print the documentation sentences of a catalogue\n/)
  assert.not.match(stdout, /\u001b\[/, 'no colour when NO_COLOR is set')
})

test('pipe validate --help explains each flag with an example', async () => {
  const {code, stdout} = await runPipe(['validate', '--help'])
  assert.is(code, 0)
  assert.match(stdout, /--format #0 +Output format: `text` \(default\), `json` or `github`, e.g. `--format json`/)
  assert.match(stdout, /--frail +Exit 1 on warnings too/)
  assert.match(stdout, /\$ pipe validate api.endpoints.json --format github/)
})

test('an unknown command suggests every command; a mistyped second word, the commands of the first', async () => {
  const unknown = await runPipe(['importt', 'x'])
  assert.is(unknown.code, 1)
  assert.match(unknown.stdout, /Command not found; did you mean one of:/)
  for (const command of ['validate', 'import openapi', 'render', 'map', 'init', 'migrate status', 'generate test']) {
    assert.match(unknown.stdout, new RegExp(`\\d\\. pipe ${command} `), `suggests pipe ${command}`)
  }
  const mistyped = await runPipe(['import', 'opnapi', 'a', 'b'])
  assert.is(mistyped.code, 1)
  assert.equal([...mistyped.stdout.matchAll(/\d\. pipe (\w+ \w+)/g)].map((match) => match[1]), ['import openapi', 'import graphql', 'import asyncapi'])
})

test('pipe --version prints the package version', async () => {
  const {version} = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
  const {code, stdout} = await runPipe(['--version'])
  assert.is(code, 0)
  assert.is(stdout, `${version}\n`)
})

test('pipe validate prints the finding lines and the total line, and exits 1 on errors', async () => {
  const result = await runPipe(['validate', catalogueCase('several-findings')])
  assert.equal(result, {code: 1, stdout: expectedLines('several-findings'), stderr: ''})
})

test('pipe validate exits 0 when there are only warnings, and 1 with --frail', async () => {
  const lenient = await runPipe(['validate', catalogueCase('summary')])
  assert.equal(lenient, {code: 0, stdout: expectedLines('summary'), stderr: ''})
  const frail = await runPipe(['validate', catalogueCase('summary'), '--frail'])
  assert.is(frail.code, 1)
})

test('pipe validate exits 0 on a clean catalogue', async () => {
  const result = await runPipe(['validate', catalogueCase('clean')])
  assert.equal(result, {code: 0, stdout: '0 error(s), 0 warning(s)\n', stderr: ''})
})

test('pipe validate --format json gives the findings with line and column', async () => {
  const {code, stdout} = await runPipe(['validate', catalogueCase('dangling-ref-group'), '--format', 'json'])
  assert.is(code, 1)
  const report = JSON.parse(stdout)
  assert.is(report.errors, 1)
  assert.is(report.warnings, 0)
  assert.equal(report.findings, [
    {
      file: path.relative(root, catalogueCase('dangling-ref-group')),
      severity: 'error',
      ruleId: 'dangling-ref',
      path: 'endpoints[1].group',
      line: 27,
      column: 7,
      message: 'Unknown group `pets`; known ids: default, users',
      url: 'https://github.com/apipe/apipe/blob/main/docs/rules.md#dangling-ref',
      source: 'apipe'
    }
  ])
})

test('pipe validate --format json names the first place of an id clash', async () => {
  const {stdout} = await runPipe(['validate', catalogueCase('id-clash-endpoint'), '--format', 'json'])
  const [finding] = JSON.parse(stdout).findings
  assert.equal(finding.related, {path: 'endpoints[0].id', line: 11, column: 7, message: 'Endpoint id `getPet` is first defined here'})
})

test('pipe validate --format github prints annotations for the diff', async () => {
  const relative = path.relative(root, catalogueCase('several-findings'))
  const {code, stdout} = await runPipe(['validate', relative, '--format', 'github'])
  assert.is(code, 1)
  const lines = stdout.trimEnd().split('\n')
  assert.is(lines[0], `::error file=${relative},line=31,col=7,title=apipe dangling-ref::endpoints[2].group Unknown group \`pets\`; known ids: default, users`)
  assert.is(lines[3], `::warning file=${relative},line=15,col=5,title=apipe summary::endpoints[0] Endpoint \`listPets\` has no summary`)
  assert.is(lines.at(-1), '2 error(s), 2 warning(s)')
})

test('pipe validate rejects an unknown --format', async () => {
  const result = await runPipe(['validate', catalogueCase('clean'), '--format', 'xml'])
  assert.equal(result, {code: 2, stdout: '', stderr: 'Unexpected value `xml` for `--format`, expected one of text, json, github\n'})
})

const unreadable: Array<[string, string[], string]> = [
  ['a missing file', ['validate', 'no/such.json'], 'error read no/such.json Cannot find file `no/such.json`\n1 error(s), 0 warning(s)\n'],
  ['a folder', ['validate', 'fixtures'], 'error read fixtures Unexpected folder `fixtures`, expected a file\n1 error(s), 0 warning(s)\n'],
  ['an empty file', ['validate', 'fixtures/validate-catalogue/parse-empty/input.json'], expectedLines('parse-empty')],
  ['broken JSON', ['validate', 'fixtures/validate-catalogue/parse-json/input.json'], expectedLines('parse-json')],
  ['broken YAML', ['validate', 'fixtures/validate-catalogue/parse-yaml/input.yaml'], expectedLines('parse-yaml')]
]
for (const [what, args, stdout] of unreadable) {
  test(`pipe validate answers ${what} with one finding and exit 1, no stack trace`, async () => {
    assert.equal(await runPipe(args), {code: 1, stdout, stderr: ''})
  })
}

test('pipe run reports with vfile-reporter and loads a user plugin with --use', async () => {
  const cwd = fixture('cli', 'custom-plugin')
  const result = await runPipe(['run', '--preset', 'validate', '--use', './require-auth.js', 'api.endpoints.json'], {cwd})
  assert.is(result.code, 0)
  assert.is(result.stdout, '')
  assert.is(
    result.stderr,
    'api.endpoints.json\n' +
      '7:5 warning Endpoint `health` has no `auth`, expected a scheme or `none` require-auth apipe\n\n' +
      '⚠ 1 warning\n'
  )
})

test('pipe run reads plugins and rule severities from .piperc.json', async () => {
  const result = await runPipe(['run', '--preset', 'validate', '.'], {cwd: fixture('cli', 'piperc')})
  assert.is(result.code, 1)
  assert.match(result.stderr, /7:5 error Endpoint `health` has no `auth`, expected a scheme or `none` require-auth apipe/)
})

test('pipe run --frail fails on warnings', async () => {
  const cwd = fixture('cli', 'custom-plugin')
  const result = await runPipe(['run', '--frail', '--preset', 'validate', '--use', './require-auth.js', 'api.endpoints.json'], {cwd})
  assert.is(result.code, 1)
})

test('pipe run --setting changes a rule severity', async () => {
  const result = await runPipe(['run', '--preset', 'validate', '--setting', 'rules.summary="error"', catalogueCase('summary')])
  assert.is(result.code, 1)
  assert.match(result.stderr, /error +Endpoint `listPets` has no summary +summary/)
})

test('pipe run --quiet hides clean files and --silent hides warnings', async () => {
  const quiet = await runPipe(['run', '--quiet', '--preset', 'validate', catalogueCase('clean')])
  assert.equal(quiet, {code: 0, stdout: '', stderr: ''})
  const silent = await runPipe(['run', '--silent', '--preset', 'validate', catalogueCase('summary')])
  assert.is(silent.code, 0)
  assert.is.not(silent.stderr.includes('warning'), true)
})

test('pipe run names an unknown preset and the known ones', async () => {
  const result = await runPipe(['run', '--preset', 'nope', 'x.json'])
  assert.equal(result, {code: 2, stdout: '', stderr: 'Unknown preset `nope`, expected one of asyncapi, backend, catalogue, docs, graphql, openapi, sentences, validate or a module path\n'})
})

test.run()
