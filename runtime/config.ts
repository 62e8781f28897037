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
  database: {type: DatabaseType; url: string}
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

/** Resolve a parsed `pipe.config.json` of the project in `root`. */
export function resolveConfig(config: ProjectConfig, root: string, environment: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const env = projectEnvironment(root, environment)
  const missingVariables: string[] = []
  const expanded = expandVariables(config, env, missingVariables)
  const type = (expanded.database?.type || 'sqlite') as DatabaseType
  const url = expanded.database?.url || (type === 'sqlite' ? './data/app.sqlite' : '')
  const port = Number(env.PORT || expanded.port || 3000)
  return {
    ...expanded,
    root,
    port,
    database: {type, url},
    entities: expanded.entities ?? 'src/entities',
    controllers: expanded.controllers ?? 'src/controller',
    migrations: expanded.migrations ?? 'migrations',
    missingVariables
  }
}
