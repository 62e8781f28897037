/**
 * `apipe-kit/runtime`: what the code of a framework project imports: field and relation helpers, `defineEntity`,
 * `defineController`, the definition types generated from the JSON Schemas, the server (`createApp`) and
 * `createTestApp` for tests. Definitions import this module too, so the server side loads only when called.
 */
import type {FastifyInstance} from 'fastify'
import type {AppOptions} from './server/index.js'
import type {Project} from './project.js'
import type {TestAppOptions} from './testing.js'

export {defineController, defineEntity, field, relation, type ActionContext, type CodeController, type EntityOptions, type FieldOptions, type RelationOptions} from './define.js'
export type {EntityDefinition, FieldDefinition, IndexDefinition, RelationDefinition} from '../schemas/types/entity.js'
export type {ControllerDefinition, RouteOptions} from '../schemas/types/controller.js'
export type {ProjectConfig, RateLimit} from '../schemas/types/project.js'
export type {AppOptions} from './server/index.js'
// What the server adds to a fastify instance (`app.orm`, `app.signToken`, …), for the types of tests and entry points.
export type {} from './server/orm.js'
export type {} from './server/authentication.js'
export type {} from './server/events.js'
export type {} from './server/bodies.js'
export type {AuthEntity, ContextFunction, Db, Entities, EntityName, Middleware, RecordOf, RequestContext, RequestUser} from './context.js'
export type {Project} from './project.js'
export type {TestAppOptions} from './testing.js'
export {HttpProblem, type ProblemItem} from './http/problem.js'
export type {AuthProvider, AuthUser} from './auth.js'
export type {ProblemFormatter} from './http/errors.js'

/** Build the fastify app of a loaded project (see runtime/app.ts). */
export async function createApp(project: Project, options?: AppOptions): Promise<FastifyInstance> {
  return (await import('./server/index.js')).createApp(project, options)
}

/** Load a project: definitions, hooks, middleware and services; throws a `ProjectError` with the findings. */
export async function loadProject(root: string): Promise<Project> {
  return (await import('./project.js')).loadProject(root)
}

/** The project's app on a throw-away database, for `app.inject` in tests. */
export async function createTestApp(options?: TestAppOptions): Promise<FastifyInstance> {
  return (await import('./testing.js')).createTestApp(options)
}

/**
 * A token for `user` signed as the project's auth routes sign theirs (its `jwtSecret`, `expiresIn`), for an action
 * that replaces or adds to them: `signToken({id: record.id, roles: ['member']}, ctx)`.
 */
export function signToken(user: {id: unknown; roles?: string[]}, context: {request: {server: FastifyInstance}}): string {
  return context.request.server.signToken({id: user.id, roles: user.roles ?? []})
}

export {loginEmail} from './login-email.js'

/** Whether `password` matches a stored bcrypt `hash`. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  return (await import('./utils.js')).utils.verify(password, hash)
}
