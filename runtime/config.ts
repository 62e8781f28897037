/**
 * `pipe.config.json` as the runtime uses it: `${NAME}` and `${NAME:-fallback}` in string values read the
 * environment, where variables already set win over the project's `.env` (as with dotenv), and defaults are filled
 * in (SQLite at `./data/app.sqlite`, port 3000, folders under `src/`).
 */
import {existsSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {parseEnv} from 'node:util'
import type {ProjectConfig} from '../schemas/types/project.js'

export type DatabaseType = 'sqlite' | 'postgresql' | 'mysql' | 'mariadb'

/** A project's configuration with its environment read and its defaults filled in. */
export interface ResolvedConfig extends ProjectConfig {
  /** The project folder. */
  root: string
  port: number
  /** The address to listen on (`HOST` wins); undefined: `pipe dev` listens on 127.0.0.1, `pipe start` on 0.0.0.0. */
  host?: string
  database: {type: DatabaseType; url: string; synchronous?: string}
  entities: string
  controllers: string
  migrations: string
  /** Variables that were named without a value or fallback (their strings became empty). */
  missingVariables: string[]
}

/** Variables of `<root>/.env`, under those of `environment`. */
export function projectEnvironment(root: string, environment: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const file = path.join(root, '.env')
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {}
  return {...fromFile, ...environment}
}

const placeholder = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g

/** Replace `${NAME}` / `${NAME:-fallback}` in every string of `value`; names without a value are collected. */
export function expandVariables<T>(value: T, environment: NodeJS.ProcessEnv, missing: string[] = []): T {
  if (typeof value === 'string') {
    return value.replace(placeholder, (_, name: string, fallback: string | undefined) => {
      const found = environment[name]
      if (found !== undefined && found !== '') return found
      if (fallback !== undefined) return fallback
      if (!missing.includes(name)) missing.push(name)
      return ''
    }) as T
  }
  if (Array.isArray(value)) return value.map((item) => expandVariables(item, environment, missing)) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandVariables(item, environment, missing)])) as T
  }
  return value
}

const schemes: Record<string, DatabaseType> = {postgres: 'postgresql', postgresql: 'postgresql', mysql: 'mysql', mariadb: 'mariadb', sqlite: 'sqlite', file: 'sqlite'}

/** The database type a connection URL names by its scheme (`postgresql://…` -> `postgresql`); undefined for a plain path. */
export function databaseTypeOfUrl(url: string): DatabaseType | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase()
  return scheme && scheme.length > 1 ? (schemes[scheme.split('+')[0]] ?? (scheme as DatabaseType)) : undefined
}

/** Whether a URL of one type can serve a project of another (MariaDB and MySQL share a driver). */
export function sameDatabaseFamily(a: DatabaseType, b: DatabaseType): boolean {
  const family = (type: DatabaseType) => (type === 'mariadb' ? 'mysql' : type)
  return family(a) === family(b)
}

/** Resolve a parsed `pipe.config.json` of the project in `root`; a URL with a scheme says the type when none is given. */
export function resolveConfig(config: ProjectConfig, root: string, environment: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const env = projectEnvironment(root, environment)
  const missingVariables: string[] = []
  const expanded = expandVariables(config, env, missingVariables)
  const declaredUrl = expanded.database?.url || ''
  const type = (expanded.database?.type || databaseTypeOfUrl(declaredUrl) || 'sqlite') as DatabaseType
  const url = declaredUrl || (type === 'sqlite' ? './data/app.sqlite' : '')
  const port = Number(env.PORT || expanded.port || 3000)
  const host = env.HOST || expanded.host || undefined
  return {
    ...expanded,
    root,
    port,
    host,
    database: {type, url, ...(expanded.database?.synchronous ? {synchronous: expanded.database.synchronous} : {})},
    entities: expanded.entities ?? 'src/entities',
    controllers: expanded.controllers ?? 'src/controller',
    migrations: expanded.migrations ?? 'migrations',
    missingVariables
  }
}

/** How a project's own documents (its OpenAPI and AsyncAPI documents, its catalogue) name and version it. */
export interface ProjectInfo {
  title: string
  version: string
}

/**
 * A project's title and version: the `name` and `version` of its package.json, else its folder's name and `1.0.0`,
 * so that a release's documents carry the release's version (`pipe diff` reads it for `version-not-bumped`).
 */
export function projectInfo(root: string): ProjectInfo {
  let manifest: {name?: unknown; version?: unknown} = {}
  try {
    manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as typeof manifest
  } catch {
    // No package.json (or not JSON): the folder names the project.
  }
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined)
  return {title: text(manifest.name) ?? path.basename(root), version: text(manifest.version) ?? '1.0.0'}
}
