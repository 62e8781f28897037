/**
 * `pipe dev` and `pipe start`. Both own one HTTP server and hand its requests to the current fastify app (fastify's
 * `serverFactory`), so `pipe dev` can swap in a reloaded app without closing the port, and `pipe start` can close
 * gracefully: stop accepting, answer 503 on kept-alive connections, finish what is in flight, close the database.
 */
import cluster from 'node:cluster'
import {watch, type FSWatcher} from 'node:fs'
import {createServer, STATUS_CODES, type IncomingMessage, type ServerResponse} from 'node:http'
import type {Duplex} from 'node:stream'
import path from 'node:path'
import type {FastifyInstance} from 'fastify'
import {pino} from 'pino'
import {ApipeError} from '../pipeline/errors.js'
import {HttpProblem, problemBody} from './http/problem.js'
import {listenUrl} from './listen-url.js'
import {migrationGap} from './migrations/check.js'
import {loadProject} from './project.js'
import {createApp} from './server/index.js'

type Handler = (request: IncomingMessage, response: ServerResponse) => void

/** Where `serve` says what it does: the lines a person reads (`Serving on …`, reloads, dev request lines). */
export interface ServeOutput {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
}

/** Serve the project in `directory`; resolves to the exit code when the server stops (SIGTERM, SIGINT). */
export async function serve(context: ServeOutput, directory: string, mode: 'dev' | 'start'): Promise<number> {
  const root = path.resolve(directory)
  let port = 0
  let host = '127.0.0.1'
  let requestTimeout = 30_000
  // Set on SIGTERM: requests that arrive after it are answered 503, with `Connection: close`.
  let draining = false
  const build = async (): Promise<FastifyInstance> => {
    const project = await loadProject(root)
    port = project.config.port
    host = project.config.host ?? (mode === 'dev' ? '127.0.0.1' : '0.0.0.0')
    requestTimeout = project.config.requestTimeout ?? 30_000
    const app = await createApp(project, {logger: loggerOf(mode, context), development: mode === 'dev'})
    await closeUnless(app, async () => {
      const gap = await migrationGap(project, app.orm)
      if (gap) throw Object.assign(new ApipeError('APIPE_ERR_CONFIG', [gap]), {migrationGap: true})
    })
    refuseWhile(app, () => draining)
    if (mode === 'dev') {
      app.addHook('onResponse', async (request, reply) => {
        context.stdout.write(`${request.method} ${request.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms\n`)
      })
    }
    // fastify's routing as a plain request handler, without letting fastify open a server of its own.
    await app.ready()
    return app
  }
  let app = await build()
  let handler = app.routing as unknown as Handler
  const inFlight = requestsInFlight()
  const server = createServer(timeouts(requestTimeout), (request, response) => {
    inFlight.add(response)
    handler(request, response)
  })
  server.on('clientError', answerClientError)
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, host, () => resolve())
    })
  } catch (error) {
    await app.close()
    throw listenError(error, host, port)
  }
  // A worker of `--workers` stays quiet: its primary says where all of them serve, once.
  if (!cluster.isWorker) context.stdout.write(`${mode === 'dev' ? 'Serving (reloads on change)' : 'Serving'} on ${urlOf(server, host, port)}\n`)

  const reloader = mode === 'dev' ? devReloader(context, build, async (next) => {
    const previous = app
    app = next
    handler = next.routing as unknown as Handler
    // A changed `requestTimeout` holds from the next request (its checks keep the first one's interval).
    ;({requestTimeout: server.requestTimeout, headersTimeout: server.headersTimeout} = timeouts(requestTimeout))
    await previous.close()
  }) : undefined
  const watchers: FSWatcher[] = reloader ? watchSources(root, reloader.reload) : []

  return new Promise<number>((resolve) => {
    const stop = async () => {
      process.off('SIGTERM', stop)
      process.off('SIGINT', stop)
      reloader?.stop()
      for (const watcher of watchers) watcher.close()
      // New connections are refused, new requests on open ones answered 503; those in flight are finished, for as
      // long as one may take (`requestTimeout`), before the database closes.
      draining = true
      server.close()
      server.closeIdleConnections()
      const left = await inFlight.settled(requestTimeout)
      if (left > 0) context.stderr.write(`Stopped with ${left} request(s) unanswered after ${requestTimeout} ms (requestTimeout)\n`)
      await app.close()
      server.closeAllConnections()
      resolve(0)
    }
    process.on('SIGTERM', stop)
    process.on('SIGINT', stop)
  })
}

/** Answer 503 to every request while `stopping()`, through the app's error handler (the project's error body). */
function refuseWhile(app: FastifyInstance, stopping: () => boolean): void {
  const problem = () => new HttpProblem(503, 'The server is shutting down; send the request again', {headers: {connection: 'close', 'retry-after': '1'}})
  app.addHook('onRequest', (_request, _reply, done) => done(stopping() ? problem() : undefined))
}

/**
 * The requests handed to the app and not answered yet (a body still uploading included), which a graceful stop
 * waits for.
 */
function requestsInFlight() {
  const responses = new Set<ServerResponse>()
  let onEmpty: (() => void) | undefined
  return {
    add(response: ServerResponse) {
      responses.add(response)
      response.once('close', () => {
        responses.delete(response)
        if (responses.size === 0) onEmpty?.()
      })
    },
    /** Resolves to 0 once none is in flight, or to how many still are after `timeout` ms. */
    settled(timeout: number): Promise<number> {
      if (responses.size === 0) return Promise.resolve(0)
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(responses.size), timeout)
        onEmpty = () => {
          clearTimeout(timer)
          resolve(0)
        }
      })
    }
  }
}

/**
 * What Node's HTTP parser refuses before there is a request for the app (one that did not arrive whole in time, headers
 * or a URL too large, bytes that are not HTTP) as a problem+json answer like every other error; Node's own answer has
 * no body. The connection is closed after it: what follows on it cannot be read as requests.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const [status, detail] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'The request did not arrive whole in time']
    : error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'The request line and headers are too large']
    : [400, 'The request is not valid HTTP']
  const body = JSON.stringify(problemBody(status, detail))
  if (socket.writable) socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  socket.destroy()
}

/**
 * The server's limits from the project's `requestTimeout`: a request must arrive whole within it (its headers within
 * it too, and at most 60 s), checked every tenth of it (Node's default checks every 30 s, which would let a slow
 * client hold a connection for a minute past a 30 s limit).
 */
function timeouts(requestTimeout: number) {
  return {requestTimeout, headersTimeout: Math.min(requestTimeout, 60_000), connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(requestTimeout / 10)))}
}

/**
 * `pipe dev`'s reloads: build the app again and swap it in; a broken change is said and the last good version keeps
 * running. A reload refused for a migration the database lacks is tried again every 2 s, so that `pipe migrate create`
 * and `pipe migrate` in another terminal bring the change in without touching a file; it says so once.
 */
function devReloader(context: ServeOutput, build: () => Promise<FastifyInstance>, swap: (next: FastifyInstance) => Promise<void>) {
  let retry: NodeJS.Timeout | undefined
  let waiting = false
  const reload = async (): Promise<void> => {
    clearTimeout(retry)
    try {
      await swap(await build())
      waiting = false
      context.stdout.write('Reloaded\n')
    } catch (error) {
      const report = (error as {report?: string}).report
      const gap = (error as {migrationGap?: boolean}).migrationGap === true
      if (!(gap && waiting)) context.stderr.write(`Not reloaded: ${report ?? (error as Error).message}${gap ? '; it reloads once the database has it' : ''}\n`)
      waiting = gap
      if (gap) retry = setTimeout(() => void reload(), 2000).unref()
    }
  }
  return {reload, stop: () => clearTimeout(retry)}
}

/**
 * The server's log: JSON lines on stdout for `pipe start`, written synchronously (pino's buffered stream grew without
 * bound under load; a soak test found it); in dev, the warnings and errors only (a broker that does not take events,
 * a 500's cause), one line each on stderr beside the request lines, where a developer reads them.
 */
function loggerOf(mode: 'dev' | 'start', context: {stderr: NodeJS.WritableStream}) {
  if (mode === 'start') return {level: 'info', stream: pino.destination({dest: 1, sync: true})}
  return {level: 'warn', stream: {write: (line: string) => context.stderr.write(`${logLine(line)}\n`)}}
}

/**
 * A pino JSON line as a developer reads it: its message (`level` 40 a warning, 50 and up an error), and under it the
 * stack of its error (`err`: a failed request's), which is what a developer needs to mend a 500.
 */
export function logLine(line: string): string {
  try {
    const entry = JSON.parse(line) as {level?: number; msg?: string; err?: {message?: string; stack?: string}}
    const cause = entry.err ? `\n${entry.err.stack ?? entry.err.message ?? ''}` : ''
    return `${(entry.level ?? 0) >= 50 ? 'error' : 'warning'}: ${entry.msg ?? line.trim()}${cause}`
  } catch {
    return line.trim()
  }
}

/** Run `check`; when it throws, close `app` (its database) before the error goes on. */
async function closeUnless(app: FastifyInstance, check: () => Promise<void>): Promise<void> {
  try {
    await check()
  } catch (error) {
    await app.close()
    throw error
  }
}

/** The URL a person opens for a listening server (`localhost` for every address). */
function urlOf(server: ReturnType<typeof createServer>, host: string, port: number): string {
  const address = server.address()
  return listenUrl(host, typeof address === 'object' && address ? address.port : port)
}

/**
 * Watch `src/` and pipe.config.json; `reload` runs once a burst of changes has settled (100 ms). The config file is
 * watched through its folder: an editor or `sed -i` that saves by writing a new file in its place would leave a
 * watch on the file itself watching the old one, and later edits would go unseen. A `src/` made after the start is
 * watched from then on.
 */
function watchSources(root: string, reload: () => Promise<void>): FSWatcher[] {
  const watchers: FSWatcher[] = []
  let timer: NodeJS.Timeout | undefined
  const changed = () => {
    clearTimeout(timer)
    timer = setTimeout(() => void reload(), 100)
  }
  const watchSource = (): boolean => {
    try {
      watchers.push(watch(path.join(root, 'src'), {recursive: true}, changed).on('error', () => undefined))
      return true
    } catch {
      // No src/ yet.
      return false
    }
  }
  let watchingSource = watchSource()
  watchers.push(
    watch(root, (_event, name) => {
      if (name === 'pipe.config.json') changed()
      else if (name === 'src' && !watchingSource && (watchingSource = watchSource())) changed()
    }).on('error', () => undefined)
  )
  return watchers
}

/** A port that cannot be had, as one line that says what to change. */
function listenError(error: unknown, host: string, port: number): ApipeError {
  const code = (error as NodeJS.ErrnoException).code
  const reason =
    code === 'EADDRINUSE' ? `the port is taken (${code}): stop what uses it, or set \`port\` in pipe.config.json or PORT`
    : code === 'EACCES' ? `no permission for port ${port} (${code}): use a port above 1023`
    : code === 'EADDRNOTAVAIL' ? `this machine has no address ${host} (${code}): set \`host\` in pipe.config.json or HOST`
    : (error as Error).message
  return new ApipeError('APIPE_ERR_LISTEN', [`${host}:${port}`, reason], {cause: error})
}
