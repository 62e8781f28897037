/**
 * The server: a fastify 5 app from a loaded project, composed of one plugin per concern — the ORM, problem answers,
 * security (headers, CORS, rate limits), body validation, authentication (with the auth routes), the OpenAPI route
 * and the controllers. Nothing listens yet, and hooks may still be added: `app.listen` (see runtime/serve.ts) or
 * `app.inject`.
 */
import Fastify, {type FastifyInstance} from 'fastify'
import {authSettings} from '../auth.js'
import type {Orm} from '../database.js'
import {entityModel} from '../http/model.js'
import type {Project} from '../project.js'
import {authenticationPlugin} from './authentication.js'
import {bodiesPlugin} from './bodies.js'
import {controllersPlugin} from './controllers.js'
import {openapiRoute} from './openapi-route.js'
import {ormPlugin} from './orm.js'
import {frameworkErrors, problemsPlugin} from './problems.js'
import {rateLimitStore, securityPlugin} from './security.js'
import {eventsPlugin} from './events.js'
import {describeRoutes} from '../routes.js'
import {projectInfo} from '../config.js'

export interface AppOptions {
  /** Log requests (default: false; `pipe dev` logs pretty lines, `pipe start` JSON). */
  logger?: boolean | object
  /** A connected ORM to use instead of opening the project's database (tests share one). */
  orm?: Orm
  /** Show error messages in 500 answers (default: `NODE_ENV === 'development'`). */
  development?: boolean
  /** Largest accepted body in bytes (default: `bodyLimit` in pipe.config.json, else 1 MiB). */
  bodyLimit?: number
  /** Answer hook-free reads on a SQLite file or PostgreSQL with prepared statements (default: true). */
  fastReads?: boolean
  /** Answer hook-free creates of plain records on a SQLite file with one prepared insert (default: true). */
  fastWrites?: boolean
}

/** Build the app of a project; a failed start closes whatever it had opened (the database) before it throws. */
export async function createApp(project: Project, options: AppOptions = {}): Promise<FastifyInstance> {
  const {config} = project
  const models = new Map(project.entities.map((definition) => [definition.name, entityModel(definition)]))
  // Refuses to start in production without a strong jwtSecret, before anything opens.
  const auth = authSettings(config, models)
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? config.bodyLimit ?? 1024 * 1024,
    requestTimeout: config.requestTimeout ?? 30_000,
    connectionTimeout: config.requestTimeout ?? 30_000,
    // `/posts/` and `//posts` are `/posts`, as Express and most routers take them: clients join base URLs and paths carelessly.
    routerOptions: {maxParamLength: 200, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true},
    return503OnClosing: true,
    frameworkErrors
  })
  try {
    await app.register(ormPlugin, {project, models, orm: options.orm, fastReads: options.fastReads, fastWrites: options.fastWrites})
    await app.register(problemsPlugin, {development: options.development ?? process.env.NODE_ENV === 'development', formatProblem: project.formatProblem})
    // Described once: the rate-limit store reads the routes' limits, the controllers plan from them.
    const routes = describeRoutes(config, project.entities, project.controllers)
    const store = rateLimitStore(config, routes.map((route) => route.rateLimit))
    await app.register(securityPlugin, {config, store, namespace: projectInfo(project.root).title})
    await app.register(bodiesPlugin)
    await app.register(authenticationPlugin, {project, auth})
    await app.register(openapiRoute, {project})
    await app.register(controllersPlugin, {project, routes})
    await app.register(eventsPlugin, {project})
  } catch (error) {
    await app.close().catch(() => undefined)
    throw error
  }
  return app
}
