import {execFileSync, spawn} from 'node:child_process'
import {chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {Ajv} from 'ajv'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {Writable} from 'node:stream'
import {VFile} from 'vfile'
import {VFileMessage} from 'vfile-message'
import {main} from '../cli/main.js'
import {commentLimit, printChanges} from '../cli/print-changes.js'
import {progress} from '../cli/progress.js'
import {root} from './helpers/fixtures.js'
import {pipeBin, runPipe} from './helpers/run-pipe.js'

const fixture = (...parts: string[]) => path.join('fixtures', ...parts)
const summary = fixture('validate-catalogue', 'summary', 'input.json')
const clean = fixture('validate-catalogue', 'clean', 'input.json')
const dangling = fixture('validate-catalogue', 'dangling-ref-group', 'input.json')
const diffCase = (name: string) => [fixture('diff-catalogues', name, 'old.json'), fixture('diff-catalogues', name, 'input.json')]

test('pipe validate takes several files: each line starts with its file, one total line, exit 1 on an error', async () => {
  const result = await runPipe(['validate', summary, clean, dangling])
  assert.equal(result, {
    code: 1,
    stdout:
      `${summary}: warning summary endpoints[0] Endpoint \`listPets\` has no summary\n` +
      `${summary}: warning summary endpoints[1] Endpoint \`blank\` has no summary\n` +
      `${dangling}: error dangling-ref endpoints[1].group Unknown group \`pets\`; known ids: default, users\n` +
      '1 error(s), 2 warning(s)\n',
    stderr: ''
  })
})

test('pipe validate expands folders and quoted globs, and reads - from stdin', async () => {
  const globbed = await runPipe(['validate', 'fixtures/validate-catalogue/dangling-ref-*/input.json', '--quiet'])
  assert.is(globbed.code, 1)
  assert.match(globbed.stdout, /^fixtures\/validate-catalogue\/dangling-ref-group\/input\.json: error dangling-ref /)
  assert.match(globbed.stdout, /\nfixtures\/validate-catalogue\/dangling-ref-type\/input\.json: error dangling-ref /)
  const folder = await runPipe(['validate', fixture('validate-catalogue', 'summary')])
  assert.equal(folder, {code: 0, stdout: readFileSync(fixture('validate-catalogue', 'summary', 'messages.txt'), 'utf8'), stderr: ''})
  const none = await runPipe(['validate', 'no-such-*.json'])
  assert.equal(none, {code: 1, stdout: 'error read no-such-*.json No files match `no-such-*.json`\n1 error(s), 0 warning(s)\n', stderr: ''})
  const stdin = await runPipe(['validate', '-'], {input: readFileSync(path.join(root, summary), 'utf8')})
  assert.equal(stdin, {code: 0, stdout: readFileSync(fixture('validate-catalogue', 'summary', 'messages.txt'), 'utf8'), stderr: ''})
  // Named twice, standard input is one input, as a file named twice is.
  const twice = await runPipe(['validate', '-', '-'], {input: readFileSync(path.join(root, summary), 'utf8')})
  assert.equal(twice, stdin)
})

test('a glob or a folder search matches files only: a folder whose name matches (`pipe map --output out.json`) is not searched', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apipe-glob-'))
  try {
    const clean = readFileSync(fixture('validate-catalogue', 'clean', 'input.json'), 'utf8')
    writeFileSync(path.join(dir, 'top.json'), clean)
    mkdirSync(path.join(dir, 'out.json'))
    writeFileSync(path.join(dir, 'out.json', 'api.endpoints.json'), clean)
    writeFileSync(path.join(dir, 'out.json', 'api.endpoints.html'), '<!doctype html>')
    mkdirSync(path.join(dir, 'more', 'b.yaml'), {recursive: true})
    writeFileSync(path.join(dir, 'more', 'b.yaml', 'page.html'), '<html>')
    writeFileSync(path.join(dir, 'more', 'c.json'), clean)
    for (const args of [['*.json'], ['**/*.json'], ['.'], ['out.json', 'more']]) {
      const run = await runPipe(['validate', ...args], {cwd: dir})
      assert.equal(run, {code: 0, stdout: '0 error(s), 0 warning(s)\n', stderr: ''}, args.join(' '))
    }
    // A pattern that asks for every file gets every file, pages too.
    const all = await runPipe(['validate', '**/*'], {cwd: dir})
    assert.is(all.code, 1)
    assert.match(all.stdout, /^more\/b\.yaml\/page\.html: error parse /m)
    assert.match(all.stdout, /^out\.json\/api\.endpoints\.html: error parse /m)
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
})

/**
 * The structure SARIF 2.1.0 requires of a log and of what we emit (OASIS spec §3.13 sarifLog, §3.14 run, §3.18 tool,
 * §3.19 toolComponent, §3.27 result, §3.11 message, §3.28 location, §3.29 physicalLocation, §3.30 region), written
 * from the specification, with what apipe promises beside it (a rule's `helpUri`, a logical location); the log is
 * also checked against the official JSON Schema (OASIS 2.1.0 rtm.5, as @microsoft/jest-sarif ships it).
 */
const sarifStructure = {
  type: 'object',
  required: ['version', 'runs'],
  properties: {
    version: {const: '2.1.0'},
    $schema: {type: 'string', format: 'uri'},
    runs: {
      type: 'array',
      items: {
        type: 'object',
        required: ['tool'],
        properties: {
          tool: {type: 'object', required: ['driver'], properties: {driver: {type: 'object', required: ['name'], properties: {name: {type: 'string'}, rules: {type: 'array', items: {type: 'object', required: ['id']}}}}}},
          columnKind: {enum: ['utf16CodeUnits', 'unicodeCodePoints']},
          results: {
            type: 'array',
            items: {
              type: 'object',
              required: ['message'],
              properties: {
                ruleId: {type: 'string'},
                ruleIndex: {type: 'integer', minimum: -1},
                level: {enum: ['none', 'note', 'warning', 'error']},
                message: {type: 'object', anyOf: [{required: ['text']}, {required: ['id']}]},
                locations: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      physicalLocation: {
                        type: 'object',
                        anyOf: [{required: ['address']}, {required: ['artifactLocation']}],
                        properties: {
                          artifactLocation: {type: 'object', properties: {uri: {type: 'string', format: 'uri-reference'}}},
                          region: {type: 'object', properties: {startLine: {type: 'integer', minimum: 1}, startColumn: {type: 'integer', minimum: 1}}}
                        }
                      },
                      logicalLocations: {type: 'array', items: {type: 'object'}}
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}

test('pipe validate --format sarif prints a SARIF 2.1.0 log with every finding, its rule, file, line and column', async () => {
  const {code, stdout, stderr} = await runPipe(['validate', summary, dangling, '--format', 'sarif'])
  assert.is(code, 1)
  assert.is(stderr, '')
  const log = JSON.parse(stdout)
  const {default: addFormats} = await import('ajv-formats')
  const ajv = new Ajv({allErrors: true, strict: false})
  ;(addFormats as unknown as (ajv: Ajv) => void)(ajv)
  const valid = ajv.validate(sarifStructure, log)
  assert.ok(valid, JSON.stringify(ajv.errors))
  // The official schema is draft-04, which ajv reads through ajv-draft-04.
  const {default: AjvDraft4} = await import('ajv-draft-04')
  // Its `language` pattern (`…]?$`) is not valid with the `u` flag, which ajv sets by default.
  const draft4 = new (AjvDraft4 as unknown as typeof Ajv)({allErrors: true, strict: false, unicodeRegExp: false})
  ;(addFormats as unknown as (ajv: Ajv) => void)(draft4)
  const official = JSON.parse(readFileSync(path.join(root, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8')) as object
  const conforms: boolean = draft4.validate(official, log)
  assert.ok(conforms, JSON.stringify(draft4.errors))
  const [run] = log.runs
  assert.equal(run.tool.driver.rules.map((rule: {id: string}) => rule.id), ['summary', 'dangling-ref'])
  assert.equal(
    run.results.map((result: {ruleId: string; level: string; locations: Array<{physicalLocation: {artifactLocation: {uri: string}; region: {startLine: number}}}>}) => [result.ruleId, result.level, result.locations[0].physicalLocation.artifactLocation.uri]),
    [
      ['summary', 'warning', summary],
      ['summary', 'warning', summary],
      ['dangling-ref', 'error', dangling]
    ]
  )
  assert.is(run.results[2].locations[0].logicalLocations[0].fullyQualifiedName, 'endpoints[1].group')
  assert.ok(run.results[2].locations[0].physicalLocation.region.startLine > 1)
})

test('pipe run --format prints the validate formats on stdout', async () => {
  const result = await runPipe(['run', '--preset', 'validate', '--format', 'text', summary, clean])
  assert.equal(result, {
    code: 0,
    stdout: `${summary}: warning summary endpoints[0] Endpoint \`listPets\` has no summary\n${summary}: warning summary endpoints[1] Endpoint \`blank\` has no summary\n0 error(s), 2 warning(s)\n`,
    stderr: ''
  })
  const sarif = await runPipe(['run', '--preset', 'validate', '--format', 'sarif', dangling])
  assert.is(sarif.code, 1)
  assert.is(JSON.parse(sarif.stdout).runs[0].results[0].ruleId, 'dangling-ref')
})

test('SARIF and GitHub annotations hold findings only: no "Wrote" note, and every apipe rule with its documentation', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apipe-sarif-notes-'))
  try {
    const document = readFileSync(path.join(root, 'fixtures/import-asyncapi/v2/input.yaml'), 'utf8').replace(/^asyncapi: .*$/m, "asyncapi: '2.9.0'")
    writeFileSync(path.join(dir, 'events.yaml'), document)
    const sarif = await runPipe(['run', '--preset', 'asyncapi', '--format', 'sarif', 'events.yaml'], {cwd: dir})
    assert.is(sarif.code, 0, sarif.stderr)
    const run = JSON.parse(sarif.stdout).runs[0]
    assert.equal(run.results.map((result: {ruleId: string; level: string}) => [result.ruleId, result.level]), [['asyncapi', 'note'], ['asyncapi', 'note'], ['summary', 'warning']])
    const docs = 'https://github.com/apipe/apipe/blob/main/docs/rules.md'
    assert.equal(run.tool.driver.rules, [{id: 'asyncapi', helpUri: `${docs}#asyncapi`}, {id: 'summary', helpUri: `${docs}#summary`}])
    assert.ok(existsSync(path.join(dir, 'events.endpoints.json')), 'the outputs are written all the same')
    const github = await runPipe(['run', '--preset', 'asyncapi', '--format', 'github', 'events.yaml'], {cwd: dir})
    assert.not.match(github.stdout, 'Wrote')
    assert.match(github.stdout, /^::notice file=events\.yaml,title=apipe asyncapi::AsyncAPI `2\.9\.0` is not a version/m)
    const text = await runPipe(['run', '--preset', 'asyncapi', '--format', 'text', 'events.yaml'], {cwd: dir})
    assert.match(text.stdout, 'info write events.yaml Wrote `events.endpoints.json`')
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
})

test('pipe run searches a folder as pipe validate does: no package.json, dotfiles or dot-folders, and .pipeignore holds', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apipe-run-folder-'))
  try {
    mkdirSync(path.join(dir, 'specs', '.drafts'), {recursive: true})
    mkdirSync(path.join(dir, 'empty'))
    cpSync(path.join(root, clean), path.join(dir, 'specs', 'a.endpoints.json'))
    cpSync(path.join(root, summary), path.join(dir, 'specs', 'b.endpoints.json'))
    cpSync(path.join(root, dangling), path.join(dir, 'specs', '.drafts', 'c.endpoints.json'))
    writeFileSync(path.join(dir, 'specs', 'package.json'), '{"name": "specs"}\n')
    writeFileSync(path.join(dir, 'specs', '.piperc.json'), '{"settings": {"rules": {"summary": "off"}}}\n')
    const quiet = await runPipe(['run', '--preset', 'validate', '--format', 'text', 'specs'], {cwd: dir})
    assert.equal(quiet, {code: 0, stdout: '0 error(s), 0 warning(s)\n', stderr: ''})
    writeFileSync(path.join(dir, 'specs', '.piperc.json'), '{}\n')
    writeFileSync(path.join(dir, '.pipeignore'), 'specs/a.endpoints.json\n')
    const ignored = await runPipe(['run', '--preset', 'validate', '--format', 'text', 'specs'], {cwd: dir})
    // One file is left, so its lines have no file prefix: the same lines as `pipe validate` of it.
    assert.equal(ignored, {code: 0, stdout: readFileSync(path.join(root, fixture('validate-catalogue', 'summary', 'messages.txt')), 'utf8'), stderr: ''})
    for (const [arg, reason] of [['empty', 'Unexpected folder `empty` without .json, .yaml or .yml files'], ['nothing/*.json', 'No files match `nothing/*.json`']]) {
      const none = await runPipe(['run', '--preset', 'validate', arg], {cwd: dir})
      assert.is(none.code, 1, arg)
      assert.match(none.stderr, `${arg}\n error ${reason} read apipe`)
    }
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
})

test('.piperc applies to render, map and import: a rule turned off stays off', async () => {
  const cwd = path.join(root, fixture('cli', 'piperc-everywhere'))
  const out = mkdtempSync(path.join(os.tmpdir(), 'apipe-piperc-'))
  try {
    const render = await runPipe(['render', 'api.endpoints.json', '--output', path.join(out, 'page.html')], {cwd})
    assert.equal(render, {code: 0, stdout: `Wrote ${path.join(out, 'page.html')}\n`, stderr: ''})
    const map = await runPipe(['map', 'a/openapi.yaml', '--output', out, '--quiet'], {cwd})
    assert.equal(map, {code: 0, stdout: '', stderr: ''})
    const imported = await runPipe(['import', 'openapi', 'a/openapi.yaml', path.join(out, 'a.json')], {cwd})
    assert.equal(imported, {code: 0, stdout: `Wrote ${path.join(out, 'a.json')} (1 endpoint, 0 types)\n`, stderr: ''})
    // Without the configuration, the same catalogue warns.
    cpSync(path.join(cwd, 'api.endpoints.json'), path.join(out, 'api.endpoints.json'))
    const bare = await runPipe(['render', path.join(out, 'api.endpoints.json')], {cwd: out})
    assert.match(bare.stderr, /^warning summary endpoints\[0\] /)
  } finally {
    rmSync(out, {recursive: true, force: true})
  }
})

test('pipe validate takes what pipe map writes: the catalogue and its ERD, each against its own contract', async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'apipe-map-validate-'))
  try {
    assert.is((await runPipe(['map', path.join(root, 'examples', 'blog'), '--output', out, '--quiet'])).code, 0)
    assert.equal(await runPipe(['validate', out]), {code: 0, stdout: '0 error(s), 0 warning(s)\n', stderr: ''})
    writeFileSync(path.join(out, 'broken.erd.json'), JSON.stringify({schema_version: 1, diagram_type: 'erd', tables: [{id: 'a', columns: [{name: 'x'}], extra: 1}]}))
    const broken = await runPipe(['validate', path.join(out, 'broken.erd.json')])
    assert.equal(broken, {code: 1, stdout: 'error missing tables[0].columns[0].type Missing required field `type`\nerror schema tables[0].extra Unexpected field `extra`, expected a known field or an `x-` extension key\n2 error(s), 0 warning(s)\n', stderr: ''})
  } finally {
    rmSync(out, {recursive: true, force: true})
  }
})

test('a .piperc that cannot be read or used is one crash finding saying why, in every command', async () => {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'apipe-bad-piperc-'))
  try {
    cpSync(path.join(root, fixture('cli', 'piperc-everywhere'), 'api.endpoints.json'), path.join(cwd, 'api.endpoints.json'))
    const cases: Array<[string, string]> = [
      ['{bad', `Cannot parse file \`.piperc.json\`: Expected property name or '}' in JSON at position 1 in ${path.join(cwd, '.piperc.json')}`],
      [JSON.stringify({settings: {rules: {summary: 'of'}}}), 'Unexpected severity `of` for rule `summary`, expected `off`, `warn` or `error`'],
      // Ignored without a word, these would leave a rule on that the team believes off.
      [JSON.stringify({rules: {summary: 'off'}}), 'Unexpected field `rules` in `.piperc.json`, expected `plugins` or `settings` (rule severities go in `settings.rules`)'],
      [JSON.stringify({settings: {rules: {sumary: 'off'}}}), 'Unknown rule `sumary` in `settings.rules` of `.piperc.json`, expected a rule id such as `summary`'],
      [JSON.stringify({settings: {rules: {'no-trailing-slash': 'error'}}}), 'Unknown rule `no-trailing-slash` in `settings.rules` of `.piperc.json`, expected a rule id of docs/rules.md or of a plugin in `plugins`']
    ]
    for (const [rc, reason] of cases) {
      writeFileSync(path.join(cwd, '.piperc.json'), rc)
      for (const args of [['validate'], ['sentences'], ['render'], ['map', '--output', path.join(cwd, 'out')]]) {
        const result = await runPipe([...args, 'api.endpoints.json'], {cwd})
        // `pipe validate` prints its findings, its output, on stdout; the commands that write files on stderr.
        const findings = `error crash api.endpoints.json Cannot process file: ${reason}\n1 error(s), 0 warning(s)\n`
        assert.equal(result, {code: 1, ...(args[0] === 'validate' ? {stdout: findings, stderr: ''} : {stdout: '', stderr: findings})}, `${args[0]} with ${rc}`)
      }
    }
  } finally {
    rmSync(cwd, {recursive: true, force: true})
  }
})

test('one .piperc for every command: the rules of pipe diff and of other plugins are known to pipe validate', async () => {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'apipe-shared-piperc-'))
  try {
    cpSync(path.join(root, fixture('cli', 'piperc-everywhere'), 'api.endpoints.json'), path.join(cwd, 'api.endpoints.json'))
    writeFileSync(path.join(cwd, '.piperc.json'), JSON.stringify({settings: {rules: {summary: 'off', 'endpoint-removed': 'warn', 'destructive-migration': 'off'}}}))
    assert.equal(await runPipe(['validate', 'api.endpoints.json'], {cwd}), {code: 0, stdout: '0 error(s), 0 warning(s)\n', stderr: ''})
    const run = await runPipe(['run', '--preset', 'validate', '--setting', 'rules.sumary=off', 'api.endpoints.json'], {cwd})
    assert.is(run.code, 1)
    assert.match(run.stderr, /Unknown rule `sumary` in `settings.rules`, expected a rule id such as `summary`/)
    rmSync(path.join(cwd, '.piperc.json'))
    writeFileSync(path.join(cwd, 'package.json'), JSON.stringify({name: 'api', pipe: {rules: {summary: 'off'}}}))
    const field = await runPipe(['validate', 'api.endpoints.json'], {cwd})
    assert.equal(field, {code: 1, stdout: 'error crash api.endpoints.json Cannot process file: Unexpected field `rules` in the `pipe` field of `package.json`, expected `plugins` or `settings` (rule severities go in `settings.rules`)\n1 error(s), 0 warning(s)\n', stderr: ''})
  } finally {
    rmSync(cwd, {recursive: true, force: true})
  }
})

test('pipe run --output keeps the inputs\' folders: two openapi.yaml never overwrite each other', async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'apipe-output-'))
  try {
    const cwd = path.join(root, fixture('cli', 'piperc-everywhere'))
    const result = await runPipe(['run', '--quiet', '--preset', 'openapi', '--output', out, 'a/openapi.yaml', 'b/openapi.yaml'], {cwd})
    assert.is(result.code, 0)
    for (const folder of ['a', 'b']) {
      assert.ok(existsSync(path.join(out, folder, 'openapi.endpoints.json')), `${folder}/openapi.endpoints.json`)
      assert.ok(existsSync(path.join(out, folder, 'openapi.endpoints.html')), `${folder}/openapi.endpoints.html`)
    }
    assert.match(readFileSync(path.join(out, 'b', 'openapi.endpoints.json'), 'utf8'), /listOthers/)
  } finally {
    rmSync(out, {recursive: true, force: true})
  }
})

test('a plugin that throws is a crash finding with a reason in every command, never a stack trace', async () => {
  const cwd = path.join(root, fixture('cli', 'crash'))
  const line = 'error crash api.endpoints.json Cannot process file: Error\n1 error(s), 0 warning(s)\n'
  assert.equal(await runPipe(['validate', 'api.endpoints.json'], {cwd}), {code: 1, stdout: line, stderr: ''})
  assert.equal(await runPipe(['render', 'api.endpoints.json'], {cwd}), {code: 1, stdout: '', stderr: line})
  const run = await runPipe(['run', '--preset', 'validate', 'api.endpoints.json'], {cwd})
  assert.is(run.code, 1)
  assert.is(run.stderr, 'api.endpoints.json\n error Cannot process file: Error crash apipe\n\n✖ 1 error\n')
})

test('pipe diff exits 1 on a breaking change, and --fail-on sets when', async () => {
  const breaking = await runPipe(['diff', ...diffCase('endpoint-removed-added')])
  assert.equal(breaking, {code: 1, stdout: readFileSync(path.join(root, fixture('diff-catalogues', 'endpoint-removed-added', 'changes.txt')), 'utf8'), stderr: ''})
  assert.is((await runPipe(['diff', ...diffCase('endpoint-removed-added'), '--fail-on', 'none'])).code, 0)
  assert.equal(await runPipe(['diff', ...diffCase('no-change')]), {code: 0, stdout: '0 breaking, 0 non-breaking change(s)\n', stderr: ''})
  const nonBreaking = await runPipe(['diff', ...diffCase('path-param-renamed'), '--fail-on', 'any'])
  assert.is(nonBreaking.code, 0, 'no change at all')
  const added = diffCase('major-bumped').reverse()
  assert.is((await runPipe(['diff', ...added])).code, 0, 'an endpoint added is not breaking')
  assert.is((await runPipe(['diff', ...added, '--fail-on', 'any'])).code, 1)
  assert.equal(await runPipe(['diff', ...added, '--fail-on', 'all']), {code: 2, stdout: '', stderr: 'Unexpected value `all` for `--fail-on`, expected one of breaking, any, none\n\n$ pipe diff [--format <format>] [--fail-on <fail-on>] [--quiet,-q] <old> <new>\n'})
})

test('pipe diff --quiet prints what fails the run: breaking changes, every change with --fail-on any, none with --fail-on none', async () => {
  const files = diffCase('auth-added-removed')
  const breaking = await runPipe(['diff', ...files, '--quiet'])
  assert.equal([breaking.code, breaking.stdout.split('\n').map((line) => line.split(' ').slice(0, 2).join(' '))], [1, ['breaking auth-added', 'breaking version-not-bumped', '2 breaking,', '']])
  const any = await runPipe(['diff', ...files, '--quiet', '--fail-on', 'any'])
  assert.equal([any.code, any.stdout.split('\n').length], [1, 5], any.stdout)
  assert.match(any.stdout, /^non-breaking auth-removed /m)
  assert.equal(await runPipe(['diff', ...files, '-q', '--fail-on', 'none']), {code: 0, stdout: '2 breaking, 1 non-breaking change(s)\n', stderr: ''})
})

test('pipe diff of a REST document and a GraphQL schema says, on stderr, that they share no endpoint', async () => {
  const result = await runPipe(['diff', 'fixtures/import-openapi/v3-rules/input.yaml', 'fixtures/import-graphql/sdl/input.graphql'])
  assert.is(result.code, 1)
  assert.is(result.stderr, 'pipe diff: the old input is a `rest` API and the new one a `graphql` API: they share no endpoint, so each of their endpoints is a change\n')
  assert.match(result.stdout, /^breaking endpoint-removed /)
  assert.not.ok((await runPipe(['diff', ...diffCase('auth-added-removed')])).stderr)
})

test('pipe diff --format json, github and markdown', async () => {
  const json = JSON.parse((await runPipe(['diff', ...diffCase('auth-added-removed'), '--format', 'json'])).stdout)
  assert.equal(json.changes[0], {kind: 'breaking', code: 'auth-added', location: 'GET:/pets.auth', message: '`GET /pets` now needs `api-key` authentication (was `none`)', url: 'https://github.com/apipe/apipe/blob/main/docs/rules.md#auth-added'})
  assert.equal([json.breaking, json.nonBreaking], [2, 1])
  const github = await runPipe(['diff', ...diffCase('auth-added-removed'), '--format', 'github'])
  // Each on the line of the new file that holds the change.
  assert.match(github.stdout, /^::error file=fixtures\/diff-catalogues\/auth-added-removed\/input\.json,line=22,col=7,title=breaking change%3A auth-added::GET:\/pets\.auth `GET \/pets` now needs/)
  assert.match(github.stdout, /\n::notice file=fixtures\/diff-catalogues\/auth-added-removed\/input\.json,line=63,col=7,title=non-breaking change%3A auth-removed::/)
  // An annotation is an error when its change fails the run: with `--fail-on none` none does, with `any` every one.
  const passing = await runPipe(['diff', ...diffCase('auth-added-removed'), '--format', 'github', '--fail-on', 'none'])
  assert.equal([passing.code, passing.stdout.match(/^::\w+/gm)], [0, ['::warning', '::notice', '::warning']])
  const strict = await runPipe(['diff', ...diffCase('auth-added-removed'), '--format', 'github', '--fail-on', 'any'])
  assert.equal([strict.code, strict.stdout.match(/^::\w+/gm)], [1, ['::error', '::error', '::error']])
  const markdown = await runPipe(['diff', ...diffCase('auth-added-removed'), '--format', 'markdown'])
  assert.match(markdown.stdout, /^### API changes: 2 breaking, 1 non-breaking change\(s\)\n\n\| change \| code \| location \| what \|\n/)
})

test('pipe diff --format github puts a field change of an OpenAPI schema on its property, and the version on info.version', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apipe-diff-lines-'))
  try {
    const document = (version: string, properties: string) => `openapi: 3.0.3\ninfo:\n  title: Pets\n  version: ${version}\npaths:\n  /pets:\n    get:\n      operationId: listPets\n      responses:\n        '200':\n          description: The pets.\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Pet'}\ncomponents:\n  schemas:\n    Pet:\n      type: object\n      required: [id]\n      properties:\n${properties}`
    writeFileSync(path.join(dir, 'old.yaml'), document('1.0.0', '        id: {type: string}\n        tag: {type: string}\n'))
    writeFileSync(path.join(dir, 'new.yaml'), document('1.1.0', '        id: {type: string}\n        color: {type: string}\n'))
    const github = await runPipe(['diff', 'old.yaml', 'new.yaml', '--format', 'github'], {cwd: dir})
    assert.equal(github.stdout.split('\n').map((line) => /^::(\w+) file=new\.yaml(,line=\d+,col=\d+)?,title=[^:]*%3A ([\w-]+)::/.exec(line)?.slice(1).join(' ')), [
      'error ,line=17,col=5 response-field-removed',
      'notice ,line=22,col=9 response-field-added',
      'error ,line=4,col=3 version-not-bumped',
      undefined,
      undefined
    ])
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
})

test('pipe diff --format github puts a param change on the param, in the operation or its path item', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apipe-diff-params-'))
  try {
    const document = (tenant: string, sort: string, extra: string) => `openapi: 3.0.3\ninfo: {title: Items, version: 1.0.0}\npaths:\n  /items:\n    parameters:\n      - {name: tenant, in: header${tenant}, schema: {type: string}}\n    get:\n      operationId: listItems\n      parameters:\n        - {name: limit, in: query, schema: {type: integer}}\n        - {name: sort, in: query, schema: {type: string, enum: [${sort}]}}\n${extra}      responses:\n        '200': {description: ok}\n`
    writeFileSync(path.join(dir, 'old.yaml'), document('', 'asc, desc', ''))
    writeFileSync(path.join(dir, 'new.yaml'), document(', required: true', 'asc', '        - {name: category, in: query, required: true, schema: {type: string}}\n'))
    const github = await runPipe(['diff', 'old.yaml', 'new.yaml', '--format', 'github'], {cwd: dir})
    assert.equal(github.stdout.split('\n').slice(0, 3).map((line) => /,line=(\d+),col=\d+,title=[^:]*%3A ([\w-]+)::/.exec(line)?.slice(1).join(' ')), ['12 param-required-added', '6 param-became-required', '11 request-enum-value-removed'])
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
})

test('pipe diff --format github puts a field change of an inline request body on its property', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apipe-diff-inline-'))
  try {
    const document = (extra: string) => `openapi: 3.0.3\ninfo: {title: Pets, version: 1.0.0}\npaths:\n  /pets:\n    post:\n      operationId: createPet\n      requestBody:\n        content:\n          application/json:\n            schema:\n              type: object\n              properties:\n                name: {type: string}\n${extra}      responses:\n        '201': {description: Created}\n`
    writeFileSync(path.join(dir, 'old.yaml'), document(''))
    writeFileSync(path.join(dir, 'new.yaml'), document('                tag: {type: string}\n'))
    const github = await runPipe(['diff', 'old.yaml', 'new.yaml', '--format', 'github'], {cwd: dir})
    assert.match(github.stdout, /^::notice file=new\.yaml,line=14,col=17,title=non-breaking change%3A request-field-added::CreatePetRequest\.tag /)
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
})

test('pipe diff --format markdown puts breaking changes first and stays within a GitHub comment, saying what it left out', () => {
  const change = (index: number, breaking: boolean) => {
    const message = new VFileMessage(`Added field \`field${index}\` ${'of a rather long type name '.repeat(3)}`, {ruleId: breaking ? 'response-field-removed' : 'response-field-added'})
    message.fatal = breaking
    message.jsonPath = `Type${index}.field${index}`
    return message
  }
  const few = [change(1, false), change(2, true), change(3, false)]
  assert.is(printChanges(few, new VFile(), 'markdown').split('\n').slice(4, 7).map((row) => row.split(' | ')[0]).join(','), '| breaking,| non-breaking,| non-breaking')
  // 1,000 changes, 30 of them breaking, interleaved: ~190 KB as one table.
  const many = Array.from({length: 1000}, (_, index) => change(index, index % 33 === 0))
  const comment = printChanges(many, new VFile(), 'markdown')
  assert.ok(comment.length <= commentLimit, `${comment.length} characters`)
  const rows = comment.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| change') && !line.startsWith('| ---'))
  assert.is(rows.slice(0, 31).filter((row) => row.startsWith('| breaking')).length, 31)
  assert.ok(rows.length > 200 && rows.length < 1000, `${rows.length} rows`)
  assert.ok(comment.startsWith('### API changes: 31 breaking, 969 non-breaking change(s)\n'))
  assert.ok(comment.endsWith(`\n\n…and ${1000 - rows.length} more change(s), left out to keep this comment within GitHub's 65,536 characters; \`pipe diff\` lists them all.\n`), comment.slice(-200))
})

test('pipe diff reads the old version from git and takes rule severities from .piperc', async () => {
  const repo = mkdtempSync(path.join(os.tmpdir(), 'apipe-git-'))
  try {
    const [old, next] = diffCase('enum-value-added').map((file) => readFileSync(path.join(root, file), 'utf8'))
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {cwd: repo, stdio: 'pipe'})
    git('init', '-q', '-b', 'main')
    writeFileSync(path.join(repo, 'api.endpoints.json'), old)
    git('add', '.')
    git('commit', '-qm', 'v1')
    writeFileSync(path.join(repo, 'api.endpoints.json'), next)
    const fromGit = await runPipe(['diff', 'main:api.endpoints.json', 'api.endpoints.json'], {cwd: repo})
    assert.is(fromGit.code, 1)
    assert.match(fromGit.stdout, /^breaking response-enum-value-added Status\.reserved /)
    writeFileSync(path.join(repo, '.piperc.json'), JSON.stringify({settings: {rules: {'response-enum-value-added': 'warn', 'version-not-bumped': 'off'}}}))
    const relaxed = await runPipe(['diff', 'main:api.endpoints.json', 'api.endpoints.json'], {cwd: repo})
    assert.equal(relaxed, {code: 0, stdout: 'non-breaking response-enum-value-added Status.reserved Added value `reserved` to enum `Status` of field `status` of `Pet`\nnon-breaking request-enum-value-added Kind.bird Added value `bird` to enum `Kind` of field `kind` of `NewPet`\n0 breaking, 2 non-breaking change(s)\n', stderr: ''})
    const missing = await runPipe(['diff', 'nope:api.endpoints.json', 'api.endpoints.json'], {cwd: repo})
    assert.is(missing.code, 1)
    assert.match(missing.stderr, /^nope:api\.endpoints\.json: error read nope:api\.endpoints\.json Cannot read `nope:api\.endpoints\.json` from git: /)
  } finally {
    rmSync(repo, {recursive: true, force: true})
  }
})

test('pipe diff reads the files a split description refers to from the same git revision', async () => {
  const repo = mkdtempSync(path.join(os.tmpdir(), 'apipe-git-split-'))
  try {
    const write = (name: string, text: string) => {
      mkdirSync(path.dirname(path.join(repo, name)), {recursive: true})
      writeFileSync(path.join(repo, name), text)
    }
    write('api/openapi.yaml', 'openapi: 3.0.3\ninfo: {title: Pets, version: 1.0.0}\npaths:\n  /pets/{petId}:\n    get:\n      $ref: paths/get-pet.yaml\n')
    write('api/paths/get-pet.yaml', "operationId: getPet\nparameters:\n  - {name: petId, in: path, required: true, schema: {type: string}}\nresponses:\n  '200':\n    description: A pet\n    content:\n      application/json:\n        schema: {$ref: '../schemas/Pet.yaml'}\n")
    write('api/schemas/Pet.yaml', 'type: object\nproperties:\n  id: {type: string}\n  nickname: {type: string}\n')
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {cwd: repo, stdio: 'pipe'})
    git('init', '-q', '-b', 'main')
    git('add', '.')
    git('commit', '-qm', 'v1')
    // Only the schema file changes: the old side must read it from `main`, not from the working tree.
    write('api/schemas/Pet.yaml', 'type: object\nproperties:\n  id: {type: string}\n')
    const expected = 'breaking response-field-removed Pet.nickname Removed field `nickname` of `Pet`, which the response of `GET /pets/{petId}` returns\nbreaking version-not-bumped meta.version 1 breaking change(s) without a major version bump: `meta.version` went from `1.0.0` to `1.0.0`\n2 breaking, 0 non-breaking change(s)\n'
    assert.equal(await runPipe(['diff', 'main:api/openapi.yaml', 'api/openapi.yaml'], {cwd: repo}), {code: 1, stdout: expected, stderr: ''})
    // From a subfolder, a path is read as git reads it: from the top of the repository, or from here with `./`.
    assert.equal(await runPipe(['diff', 'main:./openapi.yaml', 'openapi.yaml'], {cwd: path.join(repo, 'api')}), {code: 1, stdout: expected, stderr: ''})
    assert.equal(await runPipe(['diff', 'main:api/openapi.yaml', 'openapi.yaml'], {cwd: path.join(repo, 'api')}), {code: 1, stdout: expected, stderr: ''})
  } finally {
    rmSync(repo, {recursive: true, force: true})
  }
})

test('pipe diff starts each finding with the input it is in, a git revision by its name', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apipe-diff-broken-'))
  try {
    writeFileSync(path.join(dir, 'broken.json'), '{"openapi": "3.0.0", "info": {"title": "x",')
    const [old] = diffCase('auth-changed')
    const result = await runPipe(['diff', path.join(root, old), 'broken.json'], {cwd: dir})
    assert.equal(result, {code: 1, stdout: '', stderr: 'broken.json: error parse 1:44 Unexpected end of file, expected a property name in double quotes\n1 error(s), 0 warning(s)\n'})
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {cwd: dir, stdio: 'pipe'})
    git('init', '-q', '-b', 'main')
    git('add', 'broken.json')
    git('commit', '-qm', 'a broken description')
    const fromGit = await runPipe(['diff', 'main:broken.json', path.join(root, old)], {cwd: dir})
    assert.equal(fromGit, {code: 1, stdout: '', stderr: 'main:broken.json: error parse 1:44 Unexpected end of file, expected a property name in double quotes\n1 error(s), 0 warning(s)\n'})
    // From a subfolder, a path after the revision is from the top folder, as git reads it: the finding names what was
    // typed, and the path from here that the revision has.
    mkdirSync(path.join(dir, 'api'))
    writeFileSync(path.join(dir, 'api', 'cat.json'), readFileSync(path.join(root, old)))
    git('add', 'api/cat.json')
    git('commit', '-qm', 'a catalogue in a folder')
    const inFolder = await runPipe(['diff', 'main:cat.json', 'cat.json'], {cwd: path.join(dir, 'api')})
    const missing = "main:cat.json: error read main:cat.json Cannot read `main:cat.json` from git: path 'cat.json' does not exist in 'main'"
    assert.equal(inFolder, {code: 1, stdout: '', stderr: `${missing}; did you mean \`main:./cat.json\`? After \`main:\` a path is from the repository's top folder, as git reads it\n1 error(s), 0 warning(s)\n`})
    const nowhere = await runPipe(['diff', 'main:nope.json', 'cat.json'], {cwd: path.join(dir, 'api')})
    assert.equal(nowhere, {code: 1, stdout: '', stderr: "main:nope.json: error read main:nope.json Cannot read `main:nope.json` from git: path 'nope.json' does not exist in 'main'\n1 error(s), 0 warning(s)\n"})
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
})

test('pipe render --open reports an opener that failed, exit 1', async () => {
  const bin = mkdtempSync(path.join(os.tmpdir(), 'apipe-opener-'))
  try {
    writeFileSync(path.join(bin, 'xdg-open'), '#!/bin/sh\nexit 3\n')
    chmodSync(path.join(bin, 'xdg-open'), 0o755)
    const page = path.join(bin, 'page.html')
    const result = await runPipe(['render', clean, '--output', page, '--open'], {env: {PATH: `${bin}:${process.env.PATH}`}})
    assert.equal(result, {code: 1, stdout: `Wrote ${page}\n`, stderr: `Cannot open ${page} with xdg-open: exited with code 3; open it in a browser\n`})
  } finally {
    rmSync(bin, {recursive: true, force: true})
  }
})

test('progress shows a count of files on a terminal only', () => {
  const written: string[] = []
  const tty = {isTTY: true, write: (text: string) => written.push(text)} as unknown as NodeJS.WriteStream
  const tick = progress(tty, 25)!
  tick(1)
  tick(25)
  assert.equal(written, ['\r1/25 files', '\r\u001b[2K'])
  assert.is(progress({isTTY: false, write: () => true} as unknown as NodeJS.WriteStream, 25), undefined)
  assert.is(progress(tty, 3), undefined, 'short runs need none')
})

/** A stream that keeps what is written to it; `isTTY` as a terminal or a pipe would set it. */
function capture(isTTY: boolean): Writable & {isTTY: boolean; chunks: string[]} {
  const chunks: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(String(chunk))
      callback()
    }
  })
  return Object.assign(stream, {isTTY, chunks})
}

test('pipe run shows a count of files done on a terminal, and nothing extra when piped', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'apipe-run-progress-'))
  try {
    for (let index = 1; index <= 25; index++) cpSync(path.join(root, clean), path.join(dir, `api${String(index).padStart(2, '0')}.json`))
    const run = async (isTTY: boolean) => {
      const [stdout, stderr] = [capture(isTTY), capture(isTTY)]
      const code = await main(['run', '--preset', 'validate', '--format', 'text', dir], {env: {...process.env, NO_COLOR: '1'}, stdin: process.stdin, stdout, stderr, colorDepth: 1})
      return {code, stdout: stdout.chunks.join(''), stderr: stderr.chunks}
    }
    const terminal = await run(true)
    const counts = Array.from({length: 24}, (_, index) => `\r${index + 1}/25 files`)
    assert.equal(terminal.stderr, [...counts, '\r\u001b[2K'], 'counts on stderr, then the line cleared')
    const piped = await run(false)
    assert.equal(piped.stderr, [], 'no progress when stderr is not a terminal')
    assert.is(piped.code, 0)
    assert.is(terminal.code, 0)
    assert.is(terminal.stdout, piped.stdout, 'stdout is the report either way')
    assert.match(piped.stdout, /0 error\(s\), 0 warning\(s\)/)
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
})

test('a reader that closes the pipe early (`| head`) gets no stack trace, and the exit code still says what was found', async () => {
  // stdout's read end is closed before the command writes anything, so every write meets EPIPE.
  const closedStdout = (args: string[]) =>
    new Promise<{code: number | null; stderr: string}>((resolve, reject) => {
      const child = spawn(process.execPath, [pipeBin, ...args], {cwd: root, env: {...process.env, NO_COLOR: '1', FORCE_COLOR: '0'}, stdio: ['ignore', 'pipe', 'pipe']})
      child.stdout!.destroy()
      let stderr = ''
      child.stderr!.on('data', (chunk) => (stderr += chunk))
      child.on('error', reject)
      child.on('close', (code) => resolve({code, stderr}))
    })
  assert.equal(await closedStdout(['validate', dangling]), {code: 1, stderr: ''})
  assert.equal(await closedStdout(['validate', clean, '--format', 'sarif']), {code: 0, stderr: ''})
  assert.equal(await closedStdout(['sentences', clean]), {code: 0, stderr: ''})
})

test.run()
