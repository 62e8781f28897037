/**
 * Authentication plugin (4.5): decorates the app with `authenticate(kind, context)` — the bearer JWT check against the
 * auth entity, or a custom provider from `src/auth/<name>.ts` — and, with `auth: {entity}`, mounts the auth routes.
 */
import fp from 'fastify-plugin'
import type {RequestContext} from '../context.js'
import {rolesOf, signTokenWith, unauthorized, verifyBearer, type AuthProvider, type AuthSettings, type AuthUser} from '../auth.js'
import {parseId} from '../http/model.js'
import {HttpProblem} from '../http/problem.js'
import type {Project} from '../project.js'
import {limitOf} from './security.js'
import {registerAuthRoutes} from './auth-routes.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** Who sends this request, by the route's auth kind (`bearer` or a provider name); throws a 401 problem. */
    authenticate(kind: string, context: Pick<RequestContext, 'request' | 'db'>): Promise<AuthUser>
    authSettings: AuthSettings
    /** A token for `user`, signed with the project's secret and lifetime. */
    signToken(user: Pick<AuthUser, 'id' | 'roles'>): string
  }
}

export const authenticationPlugin = fp<{project: Project; auth: AuthSettings}>(
  async (app, {project, auth}) => {
    const providers = project.providers ?? new Map<string, AuthProvider>()
    const bearer = async (context: Pick<RequestContext, 'request' | 'db'>): Promise<AuthUser> => {
      const users = auth.users
      if (!users) throw new HttpProblem(500, 'Routes with `auth: true` need `auth: {entity}` in pipe.config.json')
      const id = parseId(users, verifyBearer(auth, context.request.headers.authorization))
      const record = id === undefined ? null : await context.db.findOne(users.name, {[users.primaryKey]: id} as never)
      if (!record) throw unauthorized(auth, 'The user of this token no longer exists')
      return {id, roles: rolesOf(record as Record<string, unknown>), record: record as Record<string, unknown>}
    }
    app.decorate('authSettings', auth)
    app.decorate('signToken', (user: Pick<AuthUser, 'id' | 'roles'>) => signTokenWith(auth, user))
    app.decorate('authenticate', async (kind: string, context: Pick<RequestContext, 'request' | 'db'>) => {
      if (kind === 'bearer') return bearer(context)
      const provider = providers.get(kind)
      if (!provider) throw new HttpProblem(500, `Unknown auth provider \`${kind}\`; known: bearer${[...providers.keys()].map((name) => `, ${name}`).join('')}`)
      const user = await provider({...context, config: project.config} as unknown as Parameters<AuthProvider>[0])
      if (!user) throw new HttpProblem(401, `This route needs ${kind} authentication`, {headers: {'www-authenticate': kind}})
      return user
    })
    if (auth.generated && project.config.auth?.entity) app.log.warn('jwtSecret is not set: tokens are signed with a secret made up for this process')
    if (auth.users) {
      await registerAuthRoutes(app, {config: project.config, auth, limit: limitOf(project.config.auth?.rateLimit ?? {max: 10, window: '1 minute'}), authenticate: bearer})
    }
  },
  {name: 'apipe-authentication', dependencies: ['apipe-orm', 'apipe-security']}
)
