/**
 * Controllers plugin: each controller is an encapsulated fastify plugin with its routes, planned from the one route
 * interpretation (`describeRoutes`) that `pipe map` and the OpenAPI document use too, so the three cannot disagree.
 */
import type {FastifyInstance} from 'fastify'
import type {ContextFunction, Middleware} from '../context.js'
import type {EntityModel} from '../http/model.js'
import type {Project} from '../project.js'
import type {RouteInfo} from '../routes.js'
import {routeHandler, type RoutePlan} from './request.js'
import {HttpProblem} from '../http/problem.js'
import {limitOf} from './security.js'

export async function controllersPlugin(app: FastifyInstance, {project, routes}: {project: Project; routes: readonly RouteInfo[]}): Promise<void> {
  for (const controller of project.controllers) {
    const own = routes.filter((route) => route.controller === controller.definition.name)
    await app.register(async (scope) => {
      for (const route of own) {
        scope.route({
          method: route.method as 'GET',
          url: route.path.replace(/\{([^}]+)\}/g, ':$1'),
          config: limitOf(route.rateLimit ?? project.config.rateLimit),
          handler: routeHandler(app, project, planRoute(app, project, route, controller.actions))
        })
      }
    })
  }
}

/** Resolve a route's entity model, action, hooks, middleware and body check once, at start-up. */
function planRoute(app: FastifyInstance, project: Project, route: RouteInfo, actions: Record<string, ContextFunction> | undefined): RoutePlan {
  const controller = project.controllers.find((item) => item.definition.name === route.controller)!.definition
  const model = app.models.get(controller.entity ?? controller.name)
  const hooks = project.hooks.get(route.controller)
  const hook = (when: 'before' | 'after') => hooks?.get(`${when}${route.action[0].toUpperCase()}${route.action.slice(1)}`)
  const writes = route.kind === 'create' || route.kind === 'update' || route.kind === 'replace'
  return {
    route,
    model,
    custom: route.crud ? undefined : actions?.[route.action],
    before: hook('before'),
    after: hook('after'),
    middleware: [...(project.config.middleware ?? []), ...route.middleware].map((name) => middlewareOf(project, name)),
    bodyCheck: model && writes ? app.bodyCheck(model, route.kind as 'create', protectedFields(app, model, route)) : route.request ? declaredBody(app, route) : undefined
  }
}

/** The check of a custom action's declared `request` entity (its create body). */
function declaredBody(app: FastifyInstance, route: RouteInfo) {
  const model = app.models.get(route.request!)
  if (!model) throw new HttpProblem(500, `Route \`${route.key}\` declares the request \`${route.request}\`, which is not an entity`)
  return app.bodyCheck(model, 'create')
}

/**
 * Fields a body may not set on this route: the auth entity's roles (unless the route lets a body assign them), and
 * what the route's `where` decides (`{"article.slug": "params.slug"}` sets `article`).
 */
function protectedFields(app: FastifyInstance, model: EntityModel, route: RouteInfo): Set<string> {
  const roles = model === app.authSettings.users ? ['roles', 'role'].filter((name) => !route.assign.includes(name)) : []
  return new Set([...roles, ...Object.keys(route.where ?? {}).map((path) => path.split('.')[0])])
}

function middlewareOf(project: Project, name: string): Middleware {
  const middleware = project.middleware.get(name)
  if (!middleware) throw new HttpProblem(500, `Unknown middleware \`${name}\`; known: ${[...project.middleware.keys()].join(', ') || 'none'}`)
  return middleware
}
