/**
 * `pipe start` and `pipe dev` as processes: the port from PORT, one log line per request in dev, reload on change
 * without losing the port, and a graceful stop on SIGTERM that finishes the request in flight and exits 0.
 */
import {spawn} from 'node:child_process'
import {readFileSync, renameSync, writeFileSync} from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {root} from './helpers/fixtures.js'
import {pipeBin, projectCopy, runPipe, servePipe as serve} from './helpers/run-pipe.js'

/** A copy of the contract blog with its tables, and a slow route for the shutdown test. */
async function blogCopy(): Promise<string> {
  const dir = await projectCopy(path.join(root, 'fixtures/blog-app'))
  writeFileSync(
    path.join(dir, 'src/controller/slow.ts'),
    "import {defineController} from 'apipe-kit/runtime'\nexport default defineController('slow', {routes: {'GET /slow': 'wait'}, actions: {wait: () => new Promise((resolve) => setTimeout(() => resolve({waited: true}), 400))}})\n"
  )
  return dir
}

async function until(check: () => boolean, what: string) {
  for (let tries = 0; tries < 100; tries++) {
    if (check()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** Run `pipe start` that must fail: its exit code and what it printed (it is killed, and the test fails, if it hangs). */
function startFails(dir: string, env: Record<string, string> = {}): Promise<{code: number | null; stdout: string; stderr: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [pipeBin, 'start', '--project', dir], {cwd: dir, env: {...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env}, stdio: ['ignore', 'pipe', 'pipe']})
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (chunk) => (stdout += chunk))
    child.stderr!.on('data', (chunk) => (stderr += chunk))
    const guard = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`pipe start hung instead of exiting:\n${stdout}${stderr}`))
    }, 30_000)
    child.on('close', (code) => {
      clearTimeout(guard)
      resolve({code, stdout, stderr})
    })
  })
}

test('pipe start on a taken port: one line naming the cause and the config, exit 1', async () => {
  const dir = await blogCopy()
  const {createServer} = await import('node:net')
  const taken = createServer()
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
  const port = (taken.address() as {port: number}).port
  try {
    const result = await startFails(dir, {PORT: String(port), HOST: '127.0.0.1'})
    assert.equal(result, {
      code: 1,
      stdout: '',
      stderr: `pipe: Cannot listen on 127.0.0.1:${port}: the port is taken (EADDRINUSE): stop what uses it, or set \`port\` in pipe.config.json or PORT\n`
    })
  } finally {
    taken.close()
  }
})

test('pipe start with an unknown middleware or a route declared twice: the findings, one line each, exit 1', async () => {
  const dir = await blogCopy()
  writeFileSync(path.join(dir, 'pipe.config.json'), JSON.stringify({port: 0, database: {url: './data/blog.sqlite'}, middleware: ['requestId', 'audit']}, null, 2))
  writeFileSync(path.join(dir, 'src/controller/label.json'), JSON.stringify({name: 'label', entity: 'tag', routes: {'GET /tags': 'list'}}, null, 2))
  const result = await startFails(dir)
  assert.is(result.code, 1)
  assert.is(
    result.stderr,
    [
      'pipe.config.json:8:5 error Unknown middleware `audit`, expected one of `requestId` (unknown-middleware)',
      'src/controller/tag.json:5:5 error Route `GET /tags` is already declared as `GET /tags` by controller `label` in src/controller/label.json (route-clash)',
      ''
    ].join('\n')
  )
})

test('a database URL that names another database than database.type is an error, and no file is made', async () => {
  const dir = await blogCopy()
  writeFileSync(path.join(dir, 'pipe.config.json'), JSON.stringify({database: {type: 'sqlite', url: 'postgresql://app@127.0.0.1:5432/app'}}, null, 2))
  const result = await startFails(dir)
  assert.is(result.code, 1)
  assert.is(result.stderr, 'pipe.config.json:4:5 error Unexpected `postgresql` URL for `database.type` `sqlite`, expected a sqlite file path; or leave `type` out: the URL says it (database-url)\n')
  const migrate = await runPipe(['migrate', '--project', dir])
  assert.is(migrate.code, 1)
  assert.match(migrate.stderr, /the URL names `postgresql`; set `database.type` to `postgresql`, or leave it out: the URL says it/)
  const {existsSync} = await import('node:fs')
  assert.not.ok(existsSync(path.join(dir, 'postgresql:')), 'no SQLite file named after the URL')
})

test('an entity changed without a migration, or a migration not applied: pipe start says so and exits 1', async () => {
  const dir = await blogCopy()
  const {readFileSync} = await import('node:fs')
  const tagFile = path.join(dir, 'src/entities/tag.json')
  const tag = JSON.parse(readFileSync(tagFile, 'utf8'))
  tag.fields.colour = {type: 'string'}
  writeFileSync(tagFile, JSON.stringify(tag, null, 2))
  const changed = await startFails(dir)
  assert.equal(changed, {code: 1, stdout: '', stderr: 'pipe: Cannot start: pending migration: the definitions changed since the last migration (1 statement(s)); run `pipe migrate create`, then `pipe migrate`\n'})
  const {createTestApp} = await import('../runtime/testing.js')
  try {
    await createTestApp({root: dir})
    assert.unreachable('createTestApp should refuse')
  } catch (error) {
    assert.match((error as Error).message, /^Cannot start: pending migration: the definitions changed since the last migration/)
  }
  const created = await runPipe(['migrate', 'create', 'colour', '--project', dir])
  assert.is(created.code, 0, created.stderr)
  const unapplied = await startFails(dir)
  assert.match(unapplied.stderr, /^pipe: Cannot start: pending migration: 1 not applied to the database \(\d{14}_colour\); run `pipe migrate`\n$/)
})

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

test('pipe dev: listens on 127.0.0.1, a log line per request, and a reload on change that keeps the port', async () => {
  const dir = await blogCopy()
  const server = await serve('dev', dir)
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/)
    assert.is((await fetch(`${server.url}/labels`)).status, 404)
    await until(() => server.output().includes('GET /labels 404'), 'the log line')
    const controller = path.join(dir, 'src/controller/tag.json')
    writeFileSync(controller, JSON.stringify({name: 'tag', routes: {'GET /tags': 'list', 'GET /labels': 'list'}}, null, 2))
    await until(() => server.output().includes('Reloaded'), 'the reload')
    const labels = await fetch(`${server.url}/labels`)
    assert.is(labels.status, 200)
    writeFileSync(controller, '{"name": "tag", "routes": {')
    await until(() => server.output().includes('Not reloaded'), 'the refused reload')
    assert.match(server.output(), /Not reloaded: src\/controller\/tag\.json:1:\d+ error /)
    assert.is((await fetch(`${server.url}/labels`)).status, 200, 'the last good version keeps running')
    // A new field waits for its migration: created and applied in another terminal, it comes in without a file touched.
    writeFileSync(controller, JSON.stringify({name: 'tag', routes: {'GET /tags': 'list', 'GET /labels': 'list', 'POST /tags': 'create'}}, null, 2))
    const tagFile = path.join(dir, 'src/entities/tag.json')
    const tag = JSON.parse(readFileSync(tagFile, 'utf8'))
    tag.fields.colour = {type: 'string'}
    writeFileSync(tagFile, JSON.stringify(tag, null, 2))
    await until(() => server.output().includes('it reloads once the database has it'), 'the reload that waits for a migration')
    const reloads = server.output().split('Reloaded').length
    assert.is((await runPipe(['migrate', 'create', 'colour', '--project', dir])).code, 0)
    assert.is((await runPipe(['migrate', '--project', dir])).code, 0)
    await until(() => server.output().split('Reloaded').length > reloads, 'the reload once migrated')
    const coloured = await fetch(`${server.url}/tags`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({label: 'sky', colour: 'blue'})})
    assert.is(coloured.status, 201)
    assert.is(server.output().split('Not reloaded: Cannot start: pending migration').length, 2, 'said once, not at every try')
    // pipe.config.json saved as `sed -i` and many editors save: a new file in its place, twice; each is seen.
    const config = path.join(dir, 'pipe.config.json')
    for (const middleware of [[], ['requestId']]) {
      const before = server.output().split('Reloaded').length
      const next = {...JSON.parse(readFileSync(config, 'utf8')), middleware}
      writeFileSync(`${config}.tmp`, JSON.stringify(next, null, 2))
      renameSync(`${config}.tmp`, config)
      await until(() => server.output().split('Reloaded').length > before, `the reload after pipe.config.json was replaced (middleware ${JSON.stringify(middleware)})`)
    }
  } finally {
    server.child.kill('SIGTERM')
    await server.exited
  }
})

test('pipe dev prints a 500\'s request and the stack of its error on stderr, where the developer mends it', async () => {
  const dir = await projectCopy(path.join(root, 'fixtures/events-app'))
  const server = await serve('dev', dir)
  try {
    // The action reads `Number(ctx.params.id)` without a check: NaN reaches the database.
    const failed = await fetch(`${server.url}/books/abc/ship`, {method: 'POST'})
    assert.is(failed.status, 500)
    await until(() => /error: request failed: POST \/books\/abc\/ship\n\S[^\n]*\n\s+at /.test(server.output()), 'the request and the stack')
  } finally {
    server.child.kill('SIGTERM')
    await server.exited
  }
})

test('pipe dev says, once, on stderr, that the broker does not take events, as pipe start logs it', async () => {
  // A port nothing listens on: the outbox keeps the events.
  const env = {EVENTS_URL: 'nats://127.0.0.1:1', EVENTS_PREFIX: 'apipe-dev-down.'}
  const dir = await projectCopy(path.join(root, 'fixtures/events-app'), env)
  const server = await serve('dev', dir, env)
  try {
    const created = await fetch(`${server.url}/notes`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({text: 'kept'})})
    assert.is(created.status, 201)
    await until(() => server.output().includes('warning: events: the broker does not take events'), 'the warning')
    assert.is(server.output().split('the broker does not take events').length, 2, 'said once')
  } finally {
    server.child.kill('SIGTERM')
    await server.exited
  }
})

test('a rate-limit store that does not answer is said, once: the limits are off until it does', async () => {
  const env = {EVENTS_URL: 'nats://127.0.0.1:1', EVENTS_PREFIX: 'apipe-dev-limits.'}
  const dir = await projectCopy(path.join(root, 'fixtures/events-app'), env)
  const config = path.join(dir, 'pipe.config.json')
  writeFileSync(config, JSON.stringify({...JSON.parse(readFileSync(config, 'utf8')), rateLimit: {max: 100, window: '1 minute', store: 'redis://127.0.0.1:1'}}))
  const server = await serve('dev', dir, env)
  try {
    for (let index = 0; index < 3; index++) {
      const created = await fetch(`${server.url}/notes`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({text: 'let through'})})
      assert.is(created.status, 201)
    }
    const said = 'warning: rate limits: the Redis store at 127.0.0.1:1 does not answer'
    await until(() => server.output().includes(said), 'the warning')
    assert.is(server.output().split(said).length, 2, 'said once')
  } finally {
    server.child.kill('SIGTERM')
    await server.exited
  }
})

/** A raw HTTP connection: what a slow client sends, piece by piece, and everything the server answered until it closed. */
function rawConnection(url: string) {
  const {hostname, port} = new URL(url)
  const socket = net.connect(Number(port), hostname)
  let answer = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => (answer += chunk))
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)))
  socket.on('error', () => undefined)
  return {send: (text: string) => new Promise<void>((resolve) => socket.write(text, () => resolve())), closed}
}

/** Resolves once the server refuses new connections: it has begun to stop. */
async function refusing(url: string) {
  const {hostname, port} = new URL(url)
  for (let tries = 0; tries < 200; tries++) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(Number(port), hostname)
      socket.once('connect', () => {
        socket.destroy()
        resolve(false)
      })
      socket.once('error', () => resolve(true))
    })
    if (refused) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error('the server kept accepting connections')
}

test('pipe start: SIGTERM while a body is still uploading answers it, and 503 problem+json to a request that arrives after', async () => {
  const dir = await blogCopy()
  writeFileSync(path.join(dir, 'src/controller/echo.ts'), "import {defineController} from 'apipe-kit/runtime'\nexport default defineController('echo', {routes: {'POST /echo': 'echo'}, actions: {echo: (ctx: any) => ({got: ctx.data})}})\n")
  const server = await serve('start', dir)
  const body = JSON.stringify({text: 'x'.repeat(4000)})
  // The late request's first line is sent before the upload starts, and the signal only once the server has logged the
  // upload: by then it has read the late connection too (it is busy, not idle), whatever order the two arrive in.
  const late = rawConnection(server.url)
  await late.send('GET /tags HTTP/1.1\r\nHost: localhost\r\n')
  const upload = rawConnection(server.url)
  await upload.send(`POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 2000)}`)
  await until(() => /"url":"\/echo"[^\n]*"msg":"incoming request"/.test(server.output()), 'the upload to reach the app')
  server.child.kill('SIGTERM')
  await refusing(server.url)
  await late.send('\r\n')
  const refused = await late.closed
  assert.match(refused, /^HTTP\/1\.1 503 Service Unavailable\r\n/)
  assert.match(refused, /\r\ncontent-type: application\/problem\+json; charset=utf-8\r\n/)
  assert.match(refused, /\r\nconnection: close\r\n/i)
  assert.equal(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4)), {type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'The server is shutting down; send the request again'})
  await upload.send(body.slice(2000))
  const answered = await upload.closed
  assert.match(answered, /^HTTP\/1\.1 200 OK\r\n/)
  assert.equal(JSON.parse(answered.slice(answered.indexOf('\r\n\r\n') + 4)), {got: {text: 'x'.repeat(4000)}})
  assert.is(await server.exited, 0)
})

test('pipe start: a request that does not arrive whole within requestTimeout is answered 408 and its connection closed; what is not HTTP is a problem too', async () => {
  const dir = await blogCopy()
  const configFile = path.join(dir, 'pipe.config.json')
  writeFileSync(configFile, JSON.stringify({...JSON.parse(readFileSync(configFile, 'utf8')), requestTimeout: 500}))
  const server = await serve('start', dir)
  try {
    const stalled = rawConnection(server.url)
    await stalled.send('POST /tags HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":')
    const problem = (answer: string) => [answer.split('\r\n')[0], /\r\ncontent-type: ([^\r]+)\r\n/i.exec(answer)?.[1], JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))]
    assert.equal(problem(await stalled.closed), ['HTTP/1.1 408 Request Timeout', 'application/problem+json; charset=utf-8', {type: 'about:blank', title: 'Request Timeout', status: 408, detail: 'The request did not arrive whole in time'}])
    // A URL with 5,000 query parameters: past Node's limit for the request line and headers.
    const long = rawConnection(server.url)
    await long.send(`GET /tags?${Array.from({length: 5000}, (_, index) => `p${index}=x`).join('&')} HTTP/1.1\r\nHost: localhost\r\n\r\n`)
    assert.equal(problem(await long.closed), ['HTTP/1.1 431 Request Header Fields Too Large', 'application/problem+json; charset=utf-8', {type: 'about:blank', title: 'Request Header Fields Too Large', status: 431, detail: 'The request line and headers are too large'}])
    const garbage = rawConnection(server.url)
    await garbage.send('NOT HTTP AT ALL\r\n\r\n')
    assert.equal(problem(await garbage.closed), ['HTTP/1.1 400 Bad Request', 'application/problem+json; charset=utf-8', {type: 'about:blank', title: 'Bad Request', status: 400, detail: 'The request is not valid HTTP'}])
  } finally {
    server.child.kill('SIGTERM')
    await server.exited
  }
})

test.run()
