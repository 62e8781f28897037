/**
 * A framework project as the server runs it: its definitions (loaded and checked by `runtime/definitions/`), plus the
 * code around them: hooks (`src/hooks/<controller>/<hookName>.ts`), middleware (`src/middleware/<name>.ts`)
 * and services (`src/services/<name>.ts`). A project with errors does not start: `ProjectError` carries the report.
 */
import {existsSync, readdirSync} from 'node:fs'
import path from 'node:path'
import type {Settings} from 'unified'
import type {VFile} from 'vfile'
import {statistics} from 'vfile-statistics'
import {withRelated} from '../pipeline/data.js'
import {readInput} from '../pipeline/read.js'
import type {EntityDefinition} from '../schemas/types/entity.js'
import type {AuthProvider} from './auth.js'
import type {ResolvedConfig} from './config.js'
import type {ContextFunction, Middleware} from './context.js'
import type {ProblemFormatter} from './http/errors.js'
import {defaultExport, importCode, loadDefinitions, type ControllerFile} from './definitions/index.js'

export type {ContextFunction, Middleware}

export interface Project {
  root: string
  config: ResolvedConfig
  entities: EntityDefinition[]
  controllers: ControllerFile[]
  /** Hooks by controller name, then hook name (`beforeCreate`). */
  hooks: Map<string, Map<string, ContextFunction>>
  middleware: Map<string, Middleware>
  services: Record<string, unknown>
  /** Custom auth providers from `src/auth/<name>.ts`, by name. */
  providers?: Map<string, AuthProvider>
  /** The OpenAPI security scheme each provider declares (`export const scheme` beside it), by name. */
  authSchemes?: Map<string, object>
  /** The project's error body (`src/errors.ts`, default export), instead of problem+json. */
  formatProblem?: ProblemFormatter
  /** The JSON Schema of that body (`export const schema` beside it), for the OpenAPI document. */
  problemSchema?: object
}

/** A project that cannot run; `report` has one line per finding: `<file>:<line>:<column> <severity> <reason> (<rule>)`. */
export class ProjectError extends Error {
  readonly report: string
  constructor(report: string) {
    super(`The project has errors:\n${report}`)
    this.name = 'ProjectError'
    this.report = report
  }
}

/** The findings of `files`, one line each, file and place first: what a person or a supervisor's log reads. */
function findingLines(files: readonly VFile[]): string {
  return files
    .flatMap((file) =>
      file.messages.map((message) => {
        const place = message.line ? `:${message.line}:${message.column ?? 1}` : ''
        const severity = message.fatal ? 'error' : message.fatal === false ? 'warning' : 'info'
        return `${path.relative(process.cwd(), path.resolve(file.cwd, file.path))}${place} ${severity} ${message.reason}${message.ruleId ? ` (${message.ruleId})` : ''}`
      })
    )
    .join('\n')
}

const codeFile = /^(?!.*\.d\.ts$).*\.(ts|mts|js|mjs)$/

async function loadFolder<T>(directory: string, pick: (module: Record<string, unknown>) => T): Promise<Map<string, T>> {
  const found = new Map<string, T>()
  if (!existsSync(directory)) return found
  for (const name of readdirSync(directory).filter((item) => codeFile.test(item)).sort()) {
    const module = (await importCode(path.join(directory, name))) as Record<string, unknown>
    found.set(name.replace(/\.[mc]?[jt]s$/, ''), pick(module))
  }
  return found
}

/**
 * The project's own error body, when `src/errors.ts` (or `.mts`, `.js`, `.mjs`) defines one: its formatter (the default
 * export) and the JSON Schema of what it writes (`export const schema`), which the OpenAPI document and the catalogue
 * give every error answer.
 */
export async function loadErrorShape(root: string): Promise<{formatProblem?: ProblemFormatter; problemSchema?: object}> {
  const errorsFile = ['ts', 'mts', 'js', 'mjs'].map((extension) => path.join(root, `src/errors.${extension}`)).find((file) => existsSync(file))
  if (!errorsFile) return {}
  const errorsModule = (await importCode(errorsFile)) as Record<string, unknown>
  const problemSchema = errorsModule.schema && typeof errorsModule.schema === 'object' ? (errorsModule.schema as object) : undefined
  return {formatProblem: defaultExport(errorsModule) as ProblemFormatter, problemSchema}
}

/**
 * How a client presents the credentials each custom provider checks, for the OpenAPI document: the provider's own
 * `export const scheme` (an OpenAPI security scheme: `{type: 'apiKey', in: 'header', name: 'X-Api-Key'}`), when it
 * declares one. Only the provider's code knows what it reads.
 */
export async function loadAuthSchemes(root: string): Promise<Map<string, object>> {
  return declaredSchemes(await loadFolder(path.join(root, 'src/auth'), (module) => module))
}

function declaredSchemes(modules: Map<string, Record<string, unknown>>): Map<string, object> {
  const schemes = new Map<string, object>()
  for (const [name, module] of modules) {
    const scheme = module.scheme as {type?: unknown} | undefined
    if (scheme && typeof scheme === 'object' && typeof scheme.type === 'string') schemes.set(name, scheme)
  }
  return schemes
}

/** Load the project whose `pipe.config.json` is in `root`; `settings.rules` set the checks' severities as in `.piperc`. */
export async function loadProject(root: string, settings: Pick<Settings, 'rules'> = {}): Promise<Project> {
  const file = await readInput(path.join(root, 'pipe.config.json'))
  const tree = file.messages.length === 0 ? await loadDefinitions(file, settings) : undefined
  const files = withRelated([file])
  if (!tree || statistics(files).fatal > 0) throw new ProjectError(findingLines(files))
  const hooks = new Map<string, Map<string, ContextFunction>>()
  const hooksRoot = path.join(tree.root, 'src/hooks')
  if (existsSync(hooksRoot)) {
    for (const controller of readdirSync(hooksRoot).sort()) {
      hooks.set(controller, await loadFolder(path.join(hooksRoot, controller), (module) => defaultExport(module) as ContextFunction))
    }
  }
  const middleware = await loadFolder(path.join(tree.root, 'src/middleware'), (module) => defaultExport(module) as Middleware)
  const providerModules = await loadFolder(path.join(tree.root, 'src/auth'), (module) => module)
  const providers = new Map([...providerModules].map(([name, module]) => [name, defaultExport(module) as AuthProvider]))
  const services = Object.fromEntries(await loadFolder(path.join(tree.root, 'src/services'), (module) => defaultExport(module) ?? module))
  const {formatProblem, problemSchema} = await loadErrorShape(tree.root)
  return {
    root: tree.root,
    config: tree.config,
    entities: tree.entities.map(({definition}) => definition),
    controllers: tree.controllers,
    hooks,
    middleware,
    services,
    providers,
    authSchemes: declaredSchemes(providerModules),
    formatProblem,
    problemSchema
  }
}
