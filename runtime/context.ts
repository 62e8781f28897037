/**
 * The types user code is written against (4.4): the request context that middleware, hooks and actions receive, and
 * the shapes of those functions. Types only, so that definitions, the server and user code can all import them
 * without importing each other.
 */
import type {EntityManager, FilterQuery} from '@mikro-orm/core'
import type {FastifyReply, FastifyRequest} from 'fastify'
import type {ResolvedConfig} from './config.js'
import type {CrudContext} from './http/crud.js'
import type {utils} from './utils.js'

/**
 * Each entity's record by name. Empty here; `pipe generate types` writes `src/apipe-types.d.ts`, which fills it from
 * the definitions (`interface Entities {article: {id: number; title: string; …}}`), so that `ctx.db` and `ctx.user`
 * are typed without casts.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Entities {}

/** The auth entity's name (`{entity: 'user'}`), filled in by `pipe generate types` like {@link Entities}. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface AuthEntity {}

/** An entity name: one of {@link Entities} once they are generated, any string before. */
export type EntityName = [keyof Entities] extends [never] ? string : Extract<keyof Entities, string>

/** The record of entity `N` (a plain record before types are generated). */
export type RecordOf<N> = N extends keyof Entities ? Entities[N] : Record<string, any>

/** Who sends a request: `{id, roles, record}`, the record typed as the auth entity's. */
export interface RequestUser {
  id: unknown
  roles: string[]
  record?: AuthEntity extends {entity: infer N} ? RecordOf<N> : Record<string, any>
}

/**
 * The request's entity manager with entity names typed: `ctx.db.findOne('user', {email})` resolves to the user's
 * record type. Every other MikroORM method is there as usual.
 */
export interface Db {
  find<N extends EntityName>(entity: N, where?: FilterQuery<any>, options?: Record<string, unknown>): Promise<Array<RecordOf<N>>>
  findOne<N extends EntityName>(entity: N, where: FilterQuery<any>, options?: Record<string, unknown>): Promise<RecordOf<N> | null>
  count(entity: EntityName, where?: FilterQuery<any>): Promise<number>
  create<N extends EntityName>(entity: N, data: Partial<RecordOf<N>> | Record<string, unknown>): RecordOf<N>
}

/** The context of hooks, actions and middleware. */
export interface RequestContext extends Omit<CrudContext, 'db'> {
  /**
   * The request's forked entity manager (the action's transaction inside it), entity names typed: the typed methods
   * replace MikroORM's own, so that a name no entity has does not compile.
   */
  db: Db & Omit<EntityManager, keyof Db>
  request: FastifyRequest
  response: FastifyReply
  services: Record<string, unknown>
  /** The authenticated user when the route has `auth`; null on an `optional` route without a token. */
  user?: RequestUser | null
  config: ResolvedConfig
  utils: typeof utils
  /** Free space for middleware and hooks to hand things on. */
  state: Record<string, unknown>
  /**
   * Publish a declared event (`order.shipped`) with `data`: recorded with the request's writes, sent after commit;
   * nothing is sent when the request fails. A type neither the entity nor the route declares is a 500.
   */
  events: {publish(type: string, data: unknown): void}
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
