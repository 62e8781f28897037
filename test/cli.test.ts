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
  assert.match(stdout, /pipe validate \[--format <format>\] \[--frail\] \[--quiet,-q\] <files, folders, globs or -> \.\.\.\n\s+Check endpoint catalogues against their contract\n/)
  assert.match(stdout, /pipe run .*<files or globs> \.\.\.\n\s+Run a preset of plugins over files and globs\n/)
  assert.match(stdout, /pipe render \[--output,-o <output>\] \[--open\] \[--quiet,-q\] <spec_file>\n\s+Write the self-contained HTML page of a catalogue\n/)
  assert.match(stdout, /pipe sentences \[--section <section>\] \[--format <format>\] \[--quiet,-q\] <spec_file>\n\s+Print the documentation sentences of a catalogue\n/)
  assert.not.match(stdout, /\u001b\[/, 'no colour when NO_COLOR is set')
  assert.not.match(stdout, /#\d/, 'option values have names')
  assert.ok(stdout.indexOf('\nCatalogue\n') < stdout.indexOf('pipe validate') && stdout.indexOf('pipe validate') < stdout.indexOf('\nFramework\n'), 'catalogue commands apart')
  assert.ok(stdout.indexOf('\nFramework\n') < stdout.indexOf('pipe migrate status'), 'framework commands after')
})

test('pipe validate --help explains each flag with an example', async () => {
  const {code, stdout} = await runPipe(['validate', '--help'])
  assert.is(code, 0)
  assert.match(stdout, /--format <format> +Output format: `text` \(default\), `json`, `github` or `sarif`, e.g. `--format json`/)
  assert.match(stdout, /--frail +Exit 1 on warnings too/)
  assert.match(stdout, /\$ pipe validate api.endpoints.json --format github/)
})

test('a mistyped command suggests the closest commands only, on stderr, exit 2', async () => {
  assert.equal(await runPipe(['validat', 'x.json']), {code: 2, stdout: '', stderr: 'Unknown command `pipe validat`; did you mean:\n\n  pipe validate\n\nRun `pipe --help` for every command.\n'})
  const mistyped = await runPipe(['import', 'opnapi', 'a', 'b'])
  assert.equal(mistyped, {code: 2, stdout: '', stderr: 'Unknown command `pipe import opnapi`; did you mean:\n\n  pipe import openapi\n\nRun `pipe --help` for every command.\n'})
  assert.equal(await runPipe(['zzzq']), {code: 2, stdout: '', stderr: 'Unknown command `pipe zzzq`; run `pipe --help` for every command.\n'})
  // A group's first word alone: its commands, on stdout with exit 0 when help was asked for, else a usage error.
  const generate = await runPipe(['generate', '--help'])
  assert.is(generate.code, 0)
  assert.match(generate.stdout, /^`pipe generate` has these commands:\n\n  \$ pipe generate entity <Name>\n    Write an entity definition/)
  assert.match(generate.stdout, /\n  \$ pipe generate types\n/)
  const bare = await runPipe(['import'])
  assert.equal([bare.code, bare.stdout], [2, ''])
  assert.match(bare.stderr, /^`pipe import` needs one of its commands:\n\n  \$ pipe import openapi <input_file> <output_spec_file>\n/)
  assert.match((await runPipe(['migrate', '--help'])).stdout, /Apply pending migrations/, '`pipe migrate` is a command of its own')
})

test('usage errors exit 2 with the reason and the usage on stderr', async () => {
  const flag = await runPipe(['render', '--nope', 'a.json'])
  assert.equal(flag, {code: 2, stdout: '', stderr: 'Unsupported option name `--nope`.\n\n$ pipe render [--output,-o <output>] [--open] [--quiet,-q] <spec_file>\n'})
  // An unknown short flag between arguments: the usage once, not once per way clipanion tried to read it.
  const late = await runPipe(['validate', 'a.json', 'b.json', '--bogus'])
  assert.equal(late, {code: 2, stdout: '', stderr: 'Unsupported option name `--bogus`.\n\n$ pipe validate [--format <format>] [--frail] [--quiet,-q] <files, folders, globs or -> ...\n'}, 'after two arguments too')
  const short = await runPipe(['merge', 'a.json', 'b.json', '-o', 'out.json'])
  assert.equal(short, {code: 2, stdout: '', stderr: 'Unsupported option name `-o`.\n\n$ pipe merge [--quiet,-q] <catalogue> ... <output_spec_file>\n'})
  const extra = await runPipe(['render', 'a.json', 'b.json'])
  assert.equal(extra, {code: 2, stdout: '', stderr: 'Extraneous positional argument `b.json`.\n\n$ pipe render [--output,-o <output>] [--open] [--quiet,-q] <spec_file>\n'})
  const missing = await runPipe(['diff', 'a.json'])
  assert.is(missing.code, 2)
  assert.is(missing.stdout, '')
  assert.match(missing.stderr, /^Not enough positional arguments\.\n\n\$ pipe diff /)
  const framework = await runPipe(['migrate', 'status', 'extra'])
  assert.is(framework.code, 2)
  assert.match(framework.stderr, /^Extraneous positional argument `extra`/)
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
  assert.equal(result, {code: 2, stdout: '', stderr: 'Unexpected value `xml` for `--format`, expected one of text, json, github, sarif\n\n$ pipe validate [--format <format>] [--frail] [--quiet,-q] <files, folders, globs or -> ...\n'})
})

const unreadable: Array<[string, string[], string]> = [
  ['a missing file', ['validate', 'no/such.json'], 'error read no/such.json Cannot find file `no/such.json`\n1 error(s), 0 warning(s)\n'],
  ['a folder without catalogues', ['validate', 'bin'], 'error read bin Unexpected folder `bin` without .json, .yaml or .yml files\n1 error(s), 0 warning(s)\n'],
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
  assert.match(result.stderr, /7:5 error Endpoint `health` has no `auth`, expected a scheme or `none` +require-auth +apipe/)
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
  assert.equal(result, {code: 2, stdout: '', stderr: 'Unknown preset `nope`, expected one of asyncapi, backend, catalogue, docs, graphql, openapi, sentences, validate or a module path\n\n$ pipe run [--preset <preset>] [--use <use>] [--setting <setting>] [--output,-o <output>] [--frail] [--quiet,-q] [--silent,-S] [--color] [--format <format>] <files or globs> ...\n'})
})

test.run()
