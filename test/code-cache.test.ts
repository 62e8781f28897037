// The catalogue's commands run from dist/bundle/cli.cjs with V8's code cache (bin/pipe.js, scripts/build-code-cache.js):
// each profile's cache must be the one V8 takes under that profile's flags, and the copy must behave as the CLI does.
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {frameworkCommands} from '../cli/main.js'
import {schemaNames, standaloneValidator} from '../pipeline/schemas.js'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'

const debug = {APIPE_DEBUG_CODE_CACHE: '1'}
const fixture = (...parts: string[]) => path.join(root, 'fixtures', ...parts)

test('npm run build writes a code cache for each profile', () => {
  for (const profile of ['batch', 'diff']) assert.ok(existsSync(path.join(root, 'dist', 'bundle', `cli.${profile}.cache`)), profile)
})

test('batch commands use the batch cache, and pipe diff its own', async () => {
  const validate = await runPipe(['validate', fixture('validate-catalogue', 'clean', 'input.json')], {env: debug})
  assert.is(validate.stderr.split('\n')[0], 'code cache batch: used')
  const pair = fixture('diff-catalogues', 'param-removed')
  const diff = await runPipe(['diff', path.join(pair, 'old.json'), path.join(pair, 'input.json')], {env: debug})
  assert.is(diff.stderr.split('\n')[0], 'code cache diff: used')
  assert.is(diff.stdout, readFileSync(path.join(pair, 'changes.txt'), 'utf8'))
})

test('every framework command loads the ES module bundle, without a cache', async () => {
  // bin/pipe.js names them by their first word before loading anything: a new one must be named there too.
  const words = [...new Set(frameworkCommands.flatMap((command) => (command.paths ?? []).map((words) => words[0])))]
  assert.ok(words.length >= 8)
  for (const word of words) {
    const {code, stderr} = await runPipe([word, '--help'], {env: debug})
    assert.is(code, 0, word)
    assert.not.match(stderr, /code cache/, word)
  }
})

test('the CommonJS copy holds what the build wrote: every standalone validator, the page template and its runtime', async () => {
  // Loaded at run time, each would be compiled as it runs, outside the code cache (pipeline/built.ts).
  for (const name of [...schemaNames(), 'openapi-2.0', 'openapi-3.0', 'openapi-3.1']) assert.type(standaloneValidator(name), 'function', name)
  const output = mkdtempSync(path.join(tmpdir(), 'apipe-code-cache-'))
  try {
    for (const input of ['all-types/input.yaml', 'v2-swagger/input.json', 'v31-rules/input.yaml']) {
      const {code, stderr} = await runPipe(['map', fixture('import-openapi', input), '--output', output], {env: {NODE_DEBUG: 'module'}})
      assert.ok(code === 0 || code === 1, input)
      const loaded = stderr.split('\n').filter((line) => line.includes('Module._load REQUEST'))
      // Node's module loader did run: ajv's runtime helpers, which the validators use, are loaded as installed.
      assert.ok(loaded.some((line) => line.includes('ajv/dist/runtime/')), input)
      assert.equal(loaded.filter((line) => /schemas[\\/]validators|page\.njk|nunjucks/.test(line)), [], input)
    }
  } finally {
    rmSync(output, {recursive: true, force: true})
  }
})

test('the CommonJS copy is ASCII and imports nothing by itself', () => {
  const script = readFileSync(path.join(root, 'dist', 'bundle', 'cli.cjs'), 'latin1')
  assert.not.match(script, /[^\x00-\x7f]/)
  assert.not.match(script, /(?<![\w$.])import\(/)
})

test.run()
