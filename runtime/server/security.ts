/**
 * Security plugin: helmet's headers on every answer, CORS from `cors` in pipe.config.json (@fastify/cors), and rate
 * limits (@fastify/rate-limit, off by default, on per route through the route's `config.rateLimit`) answered as
 * 429 problems with `Retry-After`. A limit's `store: "redis://…"` keeps the counts in Redis, so that a limit holds
 * across workers and instances; the plugin has one store, so it serves every limit of the app.
 */
import cors from '@fastify/cors'
import rateLimit from '@fastify/rate-limit'
import fp from 'fastify-plugin'
import type {FastifyRequest} from 'fastify'
import type {RateLimit} from '../../schemas/types/project.js'
import type {ResolvedConfig} from '../config.js'
import {HttpProblem} from '../http/problem.js'
import {securityHeaders} from '../http/security-headers.js'

/** The route config that applies a project's rate limit (undefined: no limit). */
export function limitOf(limit: RateLimit | undefined) {
  return limit ? {rateLimit: {max: limit.max, timeWindow: limit.window ?? '1 minute'}} : undefined
}

/** The Redis URL that some rate limit of the project names as its `store`; two different ones cannot be served. */
export function rateLimitStore(config: ResolvedConfig, routeLimits: ReadonlyArray<RateLimit | undefined>): string | undefined {
  const stores = new Set([config.rateLimit, config.auth?.rateLimit, ...routeLimits].map((limit) => limit?.store).filter((store): store is string => Boolean(store)))
  if (stores.size > 1) throw new Error(`Rate limits name ${stores.size} stores (${[...stores].join(', ')}); an app keeps its counts in one`)
  return [...stores][0]
}

export const securityPlugin = fp<{config: ResolvedConfig; store?: string; namespace?: string}>(
  async (app, {config, store, namespace = 'app'}) => {
    const headers = securityHeaders()
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers)
      done()
    })
    const corsOptions = {
      origin: config.cors === true ? true : Array.isArray(config.cors) ? config.cors : false,
      // @fastify/cors allows only the CORS-safelisted methods by default; the auto-CRUD updates and deletes too.
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      // What a browser script may read of an answer besides the safelisted headers: where a create put its record,
      // and how much of a rate limit is left.
      exposedHeaders: ['Location', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id']
    }
    // Only a browser's preflight (an OPTIONS with `Origin` and `Access-Control-Request-Method`) is CORS's to answer; any
    // other OPTIONS (curl's, a client asking what a path takes) goes on to the routes, where it is a 204 with `Allow`,
    // not @fastify/cors's strict 400 in text/plain.
    const otherOptions = {...corsOptions, preflight: false}
    const isPreflight = (request: FastifyRequest) => request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined
    await app.register(cors, {delegator: (request, callback) => callback(null, request.method === 'OPTIONS' && !isPreflight(request) ? otherOptions : corsOptions)})
    const redis = store ? await redisForLimits(store, (message) => app.log.warn(message)) : undefined
    // A client still trying to connect would wait on `quit` for ever (a SIGTERM that never stops the app): it is cut.
    if (redis) app.addHook('onClose', async () => void (redis.status === 'ready' ? await redis.quit().catch(() => undefined) : redis.disconnect()))
    await app.register(rateLimit, {
      global: false,
      // The app's name keeps two apps on one Redis apart; its instances share their counts.
      ...(redis ? {redis, nameSpace: `apipe-rate-limit:${namespace}:`, skipOnError: true} : {}),
      enableDraftSpec: true,
      // `context.after` is the time left until the window resets; the message names the window itself.
      errorResponseBuilder: (request, context) =>
        new HttpProblem(429, `Too many requests: at most ${context.max} per ${windowText((request.routeOptions.config as {rateLimit?: {timeWindow?: unknown}}).rateLimit?.timeWindow, context.after)}; try again in ${Math.ceil(context.ttl / 1000)} s`, {
          headers: {'retry-after': String(Math.ceil(context.ttl / 1000))}
        })
    })
  },
  {name: 'apipe-security'}
)

/**
 * The Redis client of the rate-limit store. Without Redis the limits let requests through (`skipOnError`) rather than
 * refuse every client: the app stays up, and says so in its log.
 */
async function redisForLimits(url: string, warn: (message: string) => void) {
  const {Redis} = await import('ioredis')
  const client = new Redis(url, {maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, lazyConnect: true})
  // Once per outage: an operator must know that the limits are off, and when they hold again.
  const where = new URL(url).host
  let down = false
  client.on('error', (error: Error) => {
    if (down) return
    down = true
    warn(`rate limits: the Redis store at ${where} does not answer (${error.message || (error as NodeJS.ErrnoException).code || error.name}); requests go through unlimited until it does`)
  })
  client.on('ready', () => {
    if (!down) return
    down = false
    warn(`rate limits: the Redis store at ${where} answers again; the limits hold`)
  })
  await client.connect().catch(() => undefined)
  return client
}

/** A rate limit's window in words: `1 minute` as configured, or milliseconds as seconds or minutes. */
function windowText(window: unknown, fallback: string): string {
  if (typeof window === 'string' && window.trim() !== '') return window
  if (typeof window !== 'number' || !(window > 0)) return fallback
  const [amount, unit] = window % 60_000 === 0 ? [window / 60_000, 'minute'] : window % 1000 === 0 ? [window / 1000, 'second'] : [window, 'millisecond']
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`
}
