/**
 * Authentication and access (4.5): JWT (jsonwebtoken, HS256 only) in `Authorization: Bearer`, bcrypt-hashed
 * passwords with strength rules, roles from the user entity's `roles` or `role`, and custom providers
 * (`src/auth/<name>.ts`, a function of the context resolving to a user or nothing) behind the same interface.
 */
import {randomBytes} from 'node:crypto'
import type {EntityManager} from '@mikro-orm/core'
import jwt from 'jsonwebtoken'
import {ApipeError} from '../pipeline/errors.js'
import type {ResolvedConfig} from './config.js'
import type {EntityModel} from './http/model.js'
import {HttpProblem, type ProblemItem} from './http/problem.js'
import {commonPasswords} from './common-passwords.js'
import {isHash} from './utils.js'
import {loginEmailField} from './login-email.js'

/** Who made a request. */
export interface AuthUser {
  id: unknown
  roles: string[]
  /** The user's record (for bearer tokens, without hidden fields when serialized). */
  record?: Record<string, unknown>
}

/** A custom provider (`src/auth/<name>.ts`): resolves to the user of a request, or nothing (then the answer is 401). */
export type AuthProvider = (context: {request: {headers: Record<string, unknown>}; db: EntityManager; config: ResolvedConfig}) => AuthUser | undefined | Promise<AuthUser | undefined>

export interface AuthSettings {
  secret: string
  /** The words accepted before the token in `Authorization` (`Bearer`, and `Token` when configured). */
  schemes: string[]
  /** The secret was made up for this process (development): tokens end with it. */
  generated: boolean
  expiresIn: string
  cost: number
  /** The user entity (`auth.entity`), if any. */
  users?: EntityModel
  passwordRules: {minLength: number; common: boolean; email: boolean}
}

/** The secret a production server refuses to start without. */
export const minimumSecretLength = 32

/** Auth settings of a project; throws in production without a strong `jwtSecret`, saying how to set one. */
export function authSettings(config: ResolvedConfig, models: ReadonlyMap<string, EntityModel>, production = process.env.NODE_ENV === 'production'): AuthSettings {
  const secret = config.jwtSecret ?? ''
  // Only a project that signs tokens needs the secret: one without `auth.entity` never does.
  if (production && config.auth?.entity && secret.length < minimumSecretLength) {
    const reason = secret ? `\`jwtSecret\` is ${secret.length} characters; it needs at least ${minimumSecretLength}` : '`jwtSecret` is not set'
    throw new ApipeError('APIPE_ERR_CONFIG', [
      `${reason}. Set it from the environment: "jwtSecret": "\${JWT_SECRET}" in pipe.config.json and JWT_SECRET=$(node -e "console.log(require('crypto').randomBytes(48).toString('base64url'))")`
    ])
  }
  const users = config.auth?.entity ? models.get(config.auth.entity) : undefined
  if (config.auth?.entity && !users) throw new ApipeError('APIPE_ERR_CONFIG', [`\`auth.entity\` names \`${config.auth.entity}\`, which is not an entity`])
  const rules = config.auth?.password ?? {}
  return {
    secret: secret || randomBytes(48).toString('base64url'),
    schemes: config.auth?.schemes ?? ['Bearer'],
    generated: !secret,
    expiresIn: config.auth?.expiresIn ?? '1h',
    cost: Math.max(10, config.auth?.bcryptCost ?? 12),
    users,
    passwordRules: {minLength: rules.minLength ?? 8, common: rules.common ?? true, email: rules.email ?? true}
  }
}

/** The roles of a user record: its `roles` list or its `role`. */
export function rolesOf(record: Record<string, unknown>): string[] {
  if (Array.isArray(record.roles)) return record.roles.map(String)
  if (typeof record.roles === 'string') return record.roles.split(',').map((role) => role.trim()).filter(Boolean)
  if (typeof record.role === 'string' && record.role) return [record.role]
  return []
}

/** Sign a token for a user with a project's settings (user code: `signToken(user, ctx)` from `apipe-kit/runtime`). */
export function signTokenWith(settings: AuthSettings, user: Pick<AuthUser, 'id' | 'roles'>): string {
  return jwt.sign({roles: user.roles}, settings.secret, {algorithm: 'HS256', subject: String(user.id), expiresIn: settings.expiresIn as jwt.SignOptions['expiresIn']})
}

/** A 401 whose `WWW-Authenticate` names every accepted scheme (`Bearer, Token`). */
export function unauthorized(settings: Pick<AuthSettings, 'schemes'>, detail: string): HttpProblem {
  return new HttpProblem(401, detail, {headers: {'www-authenticate': settings.schemes.join(', ')}})
}

/** The token of an `Authorization` header in one of the accepted schemes (case-insensitive), or undefined. */
export function tokenOf(settings: Pick<AuthSettings, 'schemes'>, authorization: unknown): string | undefined {
  if (typeof authorization !== 'string') return undefined
  const match = /^(\S+)\s+(\S+)$/.exec(authorization.trim())
  if (!match || !settings.schemes.some((scheme) => scheme.toLowerCase() === match[1].toLowerCase())) return undefined
  return match[2]
}

/**
 * The subject of a valid token in `authorization`; 401 for none, a bad signature, another algorithm, expiry, or no
 * expiry at all: the server signs every token with one (`auth.expiresIn`), so one without was made elsewhere with
 * the secret and would never lapse.
 */
export function verifyBearer(settings: AuthSettings, authorization: unknown): string {
  const token = tokenOf(settings, authorization)
  if (!token) throw unauthorized(settings, `This route needs a token: ${settings.schemes.map((scheme) => `\`Authorization: ${scheme} <token>\``).join(' or ')}`)
  try {
    const payload = jwt.verify(token, settings.secret, {algorithms: ['HS256']}) as jwt.JwtPayload
    if (typeof payload.sub !== 'string') throw new Error('no subject')
    if (typeof payload.exp !== 'number') throw new Error('no expiry')
    return payload.sub
  } catch (error) {
    const expired = (error as {name?: string}).name === 'TokenExpiredError'
    throw unauthorized(settings, expired ? 'The token has expired; log in again' : 'The token is not valid')
  }
}

/** 403 unless the user has one of `roles` (none required: anyone signed in). */
export function requireRoles(user: AuthUser, roles: readonly string[]): void {
  if (roles.length === 0 || roles.some((role) => user.roles.includes(role))) return
  throw new HttpProblem(403, `This route needs the role ${roles.map((role) => `\`${role}\``).join(' or ')}`)
}

/** Throw a 422 naming each strength rule the passwords of a body break. */
export function assertPasswords(model: EntityModel, data: Record<string, unknown>, existing: Record<string, unknown> | undefined, rules: AuthSettings['passwordRules']): void {
  const problems = passwordProblems(model, data, existing, rules)
  if (problems.length > 0) throw new HttpProblem(422, problems.map((problem) => problem.detail).join('; '), {errors: problems})
}

/** The strength problems of the passwords in a body: each failure names its rule (`password-length`, …). */
export function passwordProblems(model: EntityModel, data: Record<string, unknown>, existing: Record<string, unknown> | undefined, rules: AuthSettings['passwordRules']): ProblemItem[] {
  const problems: ProblemItem[] = []
  const emailField = loginEmailField(model.definition)
  const email = emailField ? String(data[emailField] ?? existing?.[emailField] ?? '') : ''
  const local = email.split('@')[0]?.toLowerCase() ?? ''
  for (const field of model.fields.values()) {
    const value = data[field.name]
    if (field.type !== 'password' || typeof value !== 'string') continue
    const pointer = `/${field.name}`
    if (isHash(value)) {
      // A body may not plant a hash (it would be stored as is): only the server's own writes store hashes.
      problems.push({pointer, code: 'password-hash', detail: `\`${field.name}\` must be a password, not a hash`})
      continue
    }
    if (value.length < rules.minLength) problems.push({pointer, code: 'password-length', detail: `\`${field.name}\` needs at least ${rules.minLength} characters`})
    if (rules.common && commonPasswords.has(value.toLowerCase())) problems.push({pointer, code: 'password-common', detail: `\`${field.name}\` is one of the most common passwords`})
    // The whole address anywhere, or its name when that is long enough to mean something (`jo` is in many words).
    const lower = value.toLowerCase()
    if (rules.email && ((email !== '' && lower.includes(email.toLowerCase())) || (local.length >= 3 && lower.includes(local)))) problems.push({pointer, code: 'password-email', detail: `\`${field.name}\` must not contain the e-mail address`})
  }
  return problems
}
