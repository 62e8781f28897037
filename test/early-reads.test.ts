// bin/pipe.js reads the big input files named on the command line on libuv's thread pool while the CLI loads
// (`earlyReads`); pipeline/read.ts takes those bytes instead of reading the file again. What the command writes must
// be what it writes without them, and a command's output is never read early.
import {copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {runPreset} from '../pipeline/process.js'
import {pageOff, presets} from '../presets/index.js'
import {runPipe} from './helpers/run-pipe.js'

const debug = {APIPE_DEBUG_EARLY_READS: '1'}

/** An OpenAPI document of more than a megabyte (early reads start at one), with one operation per path. */
function bigDocument(paths: number): string {
  const words = 'Returns the thing named by its id, with every field the caller may read. '.repeat(20)
  const operations = Object.fromEntries(Array.from({length: paths}, (_, index) => [`/things${index}/{id}`, {get: {operationId: `getThing${index}`, summary: `Get thing ${index}`, description: words, parameters: [{name: 'id', in: 'path', required: true, schema: {type: 'string'}}], responses: {200: {description: 'The thing', content: {'application/json': {schema: {type: 'object', properties: {id: {type: 'string', description: words}}}}}}}}}]))
  return JSON.stringify({openapi: '3.0.3', info: {title: 'Things', version: '1.0.0'}, paths: operations})
}

test('an input of a megabyte or more is read early and taken; the output of import is not read', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'apipe-early-'))
  try {
    writeFileSync(path.join(dir, 'api.json'), bigDocument(700))
    assert.ok(readFileSync(path.join(dir, 'api.json')).byteLength > 1024 * 1024)
    // An output that exists and is big: written over, never read.
    copyFileSync(path.join(dir, 'api.json'), path.join(dir, 'out.json'))
    const imported = await runPipe(['import', 'openapi', 'api.json', 'out.json'], {cwd: dir, env: debug})
    assert.is(imported.code, 0, imported.stderr)
    assert.is(imported.stdout, 'Wrote out.json (700 endpoints, 700 types)\n')
    assert.is(imported.stderr.split('\n').filter((line) => line.startsWith('early read')).join('\n'), `early read used: ${path.join(dir, 'api.json')}`)
    // The catalogue the pipeline makes of the file when it reads the file itself (in this process: no early reads).
    const [file] = await runPreset({plugins: [...presets.openapi.plugins!, ...pageOff.plugins!]}, [path.join(dir, 'api.json')])
    const expected = file.data.outputs!.find((output) => output.path.endsWith('.endpoints.json'))!
    assert.is(readFileSync(path.join(dir, 'out.json'), 'utf8'), String(expected))
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
})

test('pipe diff takes both inputs from their early reads, by any path that names them', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'apipe-early-'))
  try {
    const text = bigDocument(600)
    writeFileSync(path.join(dir, 'old.json'), text)
    const changed = JSON.parse(text)
    delete changed.paths['/things0/{id}']
    writeFileSync(path.join(dir, 'new.json'), JSON.stringify(changed))
    const diff = await runPipe(['diff', path.join(dir, 'old.json'), `${dir}/./new.json`, '--fail-on', 'none'], {env: debug})
    assert.is(diff.code, 0, diff.stderr)
    assert.match(diff.stdout, /^breaking endpoint-removed GET:\/things0\/\{id\} Removed `GET \/things0\/\{id\}`\n/)
    assert.is(diff.stdout.trim().split('\n').at(-1), '2 breaking, 0 non-breaking change(s)')
    assert.is(diff.stderr, `early read used: ${path.join(dir, 'old.json')}\nearly read used: ${path.join(dir, 'new.json')}\n`)
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
})

test('a small input is read by the command alone', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'apipe-early-'))
  try {
    writeFileSync(path.join(dir, 'api.json'), bigDocument(3))
    const imported = await runPipe(['import', 'openapi', 'api.json', 'out.json'], {cwd: dir, env: debug})
    assert.is(imported.code, 0, imported.stderr)
    assert.not.match(imported.stderr, /early read/)
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
})

test.run()
