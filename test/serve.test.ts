/**
 * `pipe start` and `pipe dev` as processes: the port from PORT, one log line per request in dev, reload on change
 * without losing the port, and a graceful stop on SIGTERM that finishes the request in flight and exits 0.
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {temporaryProject} from './helpers/databases.js'
import {root} from './helpers/fixtures.js'
import {pipeBin, runPipe} from './helpers/run-pipe.js'

/** A copy of the example blog with its tables, and a slow route for the shutdown test. */
async function blogCopy(): Promise<string> {
  const dir = temporaryProject('serve')
  cpSync(path.join(root, 'examples/blog'), dir, {recursive: true, filter: (source) => !source.includes(`${path.sep}data`)})
  writeFileSync(
    path.join(dir, 'src/controller/slow.ts'),
    "import {defineController} from 'apipe-kit/runtime'\nexport default defineController('slow', {routes: {'GET /slow': 'wait'}, actions: {wait: () => new Promise((resolve) => setTimeout(() => resolve({waited: true}), 400))}})\n"
  )
  // The project imports `apipe-kit/runtime`: this checkout, as `npm install` would link it.
  rmSync(path.join(dir, 'node_modules'), {recursive: true, force: true})
  mkdirSync(path.join(dir, 'node_modules'))
  symlinkSync(root, path.join(dir, 'node_modules', 'apipe-kit'))
  const migrated = await runPipe(['migrate', '--project', dir])
  assert.is(migrated.code, 0, migrated.stderr)
  return dir
}

/** Start `pipe <command>` on a free port; resolves once it says where it serves. */
function serve(command: string, dir: string): Promise<{child: ChildProcess; url: string; output: () => string; exited: Promise<number | null>}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [pipeBin, command, '--project', dir], {cwd: dir, env: {...process.env, PORT: '0', NO_COLOR: '1'}, stdio: ['ignore', 'pipe', 'pipe']})
    let output = ''
    const exited = new Promise<number | null>((done) => child.on('close', done))
    void exited.then((code) => reject(new Error(`pipe ${command} exited with ${code} before serving:\n${output}`)))
    child.stdout!.on('data', (chunk) => {
      output += chunk
      const match = /on (http:\/\/localhost:\d+)/.exec(output)
      if (match) resolve({child, url: match[1], output: () => output, exited})
    })
    child.stderr!.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    setTimeout(() => reject(new Error(`no start line:\n${output}`)), 20_000).unref()
  })
}

async function until(check: () => boolean, what: string) {
  for (let tries = 0; tries < 100; tries++) {
    if (check()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

test('pipe start: SIGTERM finishes the request in flight, refuses new ones and exits 0', async () => {
  const dir = await blogCopy()
  const server = await serve('start', dir)
  const tags = await fetch(`${server.url}/tags`)
  assert.is(tags.status, 200)
  assert.equal(await tags.json(), {data: [], meta: {page: 1, limit: 20, total: 0, pages: 0}})
  const inFlight = fetch(`${server.url}/slow`)
  await new Promise((resolve) => setTimeout(resolve, 100))
  server.child.kill('SIGTERM')
  const finished = await inFlight
  assert.is(finished.status, 200)
  assert.equal(await finished.json(), {waited: true})
  assert.is(await server.exited, 0)
  await fetch(`${server.url}/tags`).then(
    () => assert.unreachable('the port should be closed'),
    (error: Error) => assert.instance(error, TypeError)
  )
  assert.match(server.output(), /"msg":"request completed"/)
})

test('pipe dev: a log line per request, and a reload on change that keeps the port', async () => {
  const dir = await blogCopy()
  const server = await serve('dev', dir)
  try {
    assert.is((await fetch(`${server.url}/labels`)).status, 404)
    await until(() => server.output().includes('GET /labels 404'), 'the log line')
    const controller = path.join(dir, 'src/controller/tag.json')
    writeFileSync(controller, JSON.stringify({name: 'tag', routes: {'GET /tags': 'list', 'GET /labels': 'list'}}, null, 2))
    await until(() => server.output().includes('Reloaded'), 'the reload')
    const labels = await fetch(`${server.url}/labels`)
    assert.is(labels.status, 200)
    writeFileSync(controller, '{"name": "tag", "routes": {')
    await until(() => server.output().includes('Not reloaded'), 'the refused reload')
    assert.match(server.output(), /src\/controller\/tag\.json\n1:\d+ +error/)
    assert.is((await fetch(`${server.url}/labels`)).status, 200, 'the last good version keeps running')
  } finally {
    server.child.kill('SIGTERM')
    await server.exited
  }
})

test.run()
