/**
 * The types user code is written against (4.4): the request context that middleware, hooks and actions receive, and
 * the shapes of those functions. Types only, so that definitions, the server and user code can all import them
 * without importing each other.
 */
import type {FastifyReply, FastifyRequest} from 'fastify'
import type {ResolvedConfig} from './config.js'
import type {CrudContext} from './http/crud.js'
import type {utils} from './utils.js'

/** The context of hooks, actions and middleware. */
export interface RequestContext extends CrudContext {
  request: FastifyRequest
  response: FastifyReply
  services: Record<string, unknown>
  /** The authenticated user (`{id, roles, record}` for tokens) when the route has `auth`; null on an `optional` route without a token. */
  user?: unknown
  config: ResolvedConfig
  utils: typeof utils
  /** Free space for middleware and hooks to hand things on. */
  state: Record<string, unknown>
  /** On after hooks: what the action answered. */
  result?: unknown
  /**
   * Check `data` against an entity's create body (by name) or a JSON Schema; a failure is the framework's 422
   * answer, each failing field a JSON pointer: `ctx.validate(ctx.data.article, 'article')`.
   */
  validate(data: unknown, schema: string | object): void
}

/** What an action, a hook and a middleware receive: the request context. */
export type ActionContext = RequestContext

/** A hook, an action or the inside of a middleware: a function of the request context. */
export type ContextFunction = (context: any) => unknown

/** A middleware: `(ctx, next) => next()`; not calling `next()` ends the request there. */
export type Middleware = (context: any, next: () => Promise<void>) => unknown
