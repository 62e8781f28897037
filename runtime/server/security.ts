/**
 * Security plugin: helmet's headers on every answer, CORS from `cors` in pipe.config.json (@fastify/cors), and rate
 * limits (@fastify/rate-limit, off by default, on per route through the route's `config.rateLimit`) answered as
 * 429 problems with `Retry-After`.
 */
import cors from '@fastify/cors'
import rateLimit from '@fastify/rate-limit'
import fp from 'fastify-plugin'
import type {RateLimit} from '../../schemas/types/project.js'
import type {ResolvedConfig} from '../config.js'
import {HttpProblem} from '../http/problem.js'
import {securityHeaders} from '../http/security-headers.js'

/** The route config that applies a project's rate limit (undefined: no limit). */
export function limitOf(limit: RateLimit | undefined) {
  return limit ? {rateLimit: {max: limit.max, timeWindow: limit.window ?? '1 minute'}} : undefined
}

export const securityPlugin = fp<{config: ResolvedConfig}>(
  async (app, {config}) => {
    const headers = securityHeaders()
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers)
      done()
    })
    await app.register(cors, {origin: config.cors === true ? true : Array.isArray(config.cors) ? config.cors : false})
    await app.register(rateLimit, {
      global: false,
      enableDraftSpec: true,
      errorResponseBuilder: (_request, context) =>
        new HttpProblem(429, `Too many requests: at most ${context.max} per ${context.after}; try again in ${Math.ceil(context.ttl / 1000)} s`, {
          headers: {'retry-after': String(Math.ceil(context.ttl / 1000))}
        })
    })
  },
  {name: 'apipe-security'}
)
