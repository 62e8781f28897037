/**
 * parse-definitions: a framework project, given by its `pipe.config.json`, becomes
 * `{type: 'definitions', root, config, entities, controllers}`.
 *
 * - The config's `${NAME}` values read the environment and the project's `.env` (runtime/config.ts).
 * - Entity and controller definitions are read from the folders the config names (default `src/entities` and
 *   `src/controller`), each as a vfile of its own so that its findings have its own line:column; those vfiles are
 *   handed on as `file.data.related`, which the engine's report and `runPreset` include like inputs.
 * - JSON definitions are parsed by the parser; code definitions (`.ts`, `.js`) are imported by the transformer (with
 *   tsx for TypeScript), their default export being a `defineEntity(…)` result (or a class of fields) or a
 *   `defineController(…)` result. A definition that cannot be read is a finding in its file.
 */
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import type {Processor} from 'unified'
import type {Node} from 'unist'
import {VFile} from 'vfile'
import {markAsCode} from '../pipeline/position.js'
import {fatalFinding} from '../pipeline/rule.js'
import {parseSource} from './parse.js'
import {defineEntity, type CodeController} from '../runtime/define.js'
import {resolveConfig, type ResolvedConfig} from '../runtime/config.js'
import type {ControllerDefinition} from '../schemas/types/controller.js'
import type {EntityDefinition} from '../schemas/types/entity.js'
import type {ProjectConfig} from '../schemas/types/project.js'

/** One definition and the file it came from. */
export interface DefinitionFile<Definition> {
  file: VFile
  definition: Definition
}

/** A controller and, for a code controller, its custom actions. */
export interface ControllerFile extends DefinitionFile<ControllerDefinition> {
  actions?: CodeController['actions']
}

/** A project's definitions. */
export interface DefinitionsTree extends Node {
  type: 'definitions'
  /** The project folder (where pipe.config.json is). */
  root: string
  config: ResolvedConfig
  entities: Array<DefinitionFile<EntityDefinition>>
  controllers: ControllerFile[]
}

/** A file another file's plugins already read: nothing to do with it but report it. */
export interface RelatedTree extends Node {
  type: 'related'
}

const codeExtensions = new Set(['.ts', '.mts', '.js', '.mjs'])

interface Pending {
  kind: 'entity' | 'controller'
  file: VFile
  full: string
}

const pendingCode = new WeakMap<VFile, Pending[]>()

/** Set the processor's parser to read projects, and load code definitions after parsing. */
export default function parseDefinitions(this: Processor) {
  this.parser = (text: string, file: VFile): DefinitionsTree | RelatedTree => {
    if (file.data.relatedTo) return {type: 'related'}
    const root = path.resolve(file.cwd, file.dirname ?? '.')
    const config = resolveConfig(readJson(text, file) as ProjectConfig, root)
    const entities = readFolder<EntityDefinition>(root, config.entities, file)
    const controllers = readFolder<ControllerDefinition>(root, config.controllers, file)
    file.data.related = [...entities.items, ...entities.code, ...controllers.items, ...controllers.code].map((item) => item.file)
    pendingCode.set(file, [
      ...entities.code.map((item) => ({...item, kind: 'entity' as const})),
      ...controllers.code.map((item) => ({...item, kind: 'controller' as const}))
    ])
    return {type: 'definitions', root, config, entities: entities.items.filter(hasDefinition), controllers: controllers.items.filter(hasDefinition)}
  }

  return async (tree: DefinitionsTree | RelatedTree, file: VFile) => {
    const pending = pendingCode.get(file)
    if (tree.type !== 'definitions' || !pending || pending.length === 0) return
    for (const item of pending) {
      const loaded = await loadCode(item)
      if (!loaded) continue
      if (item.kind === 'entity') tree.entities.push({file: item.file, definition: loaded as EntityDefinition})
      else tree.controllers.push({file: item.file, definition: (loaded as CodeController).definition, actions: (loaded as CodeController).actions})
    }
    const byPath = (a: DefinitionFile<unknown>, b: DefinitionFile<unknown>) => a.file.path.localeCompare(b.file.path)
    tree.entities.sort(byPath)
    tree.controllers.sort(byPath)
  }
}

function hasDefinition<T>(item: {definition: T | undefined}): item is DefinitionFile<T> {
  return item.definition !== undefined
}

function readFolder<Definition>(root: string, folder: string, project: VFile) {
  const directory = path.resolve(root, folder)
  const items: Array<{file: VFile; definition: Definition | undefined}> = []
  const code: Array<{file: VFile; full: string}> = []
  let names: string[]
  try {
    names = readdirSync(directory).sort()
  } catch {
    return {items, code}
  }
  for (const name of names) {
    const extension = path.extname(name)
    if (name.endsWith('.d.ts') || (extension !== '.json' && !codeExtensions.has(extension))) continue
    const full = path.join(directory, name)
    const file = new VFile({cwd: project.cwd, path: path.relative(project.cwd, full) || full, value: readFileSync(full, 'utf8')})
    file.data.relatedTo = project.path
    if (extension !== '.json') {
      markAsCode(file, ['fields', 'relations', 'routes', 'definition'])
      code.push({file, full})
      continue
    }
    try {
      items.push({file, definition: readJson(String(file.value), file) as Definition})
    } catch {
      // The parse finding is on the definition's file.
      items.push({file, definition: undefined})
    }
  }
  return {items, code}
}

/** Import a code definition; a failure is a fatal finding in its file (never a crash). */
async function loadCode(item: Pending): Promise<EntityDefinition | CodeController | undefined> {
  try {
    const exported = defaultExport(await importCode(item.full))
    if (item.kind === 'entity') {
      if (typeof exported === 'function') return defineEntity(exported as new () => object)
      if (exported && typeof exported === 'object' && 'fields' in exported) return exported as EntityDefinition
      throw new TypeError('Expected a default export made with `defineEntity(…)` (or a class of `field.*()` properties)')
    }
    if (exported && typeof exported === 'object' && 'definition' in exported) return exported as CodeController
    throw new TypeError('Expected a default export made with `defineController(…)`')
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error)
    const place = placeInStack(error, item.full)
    fatalFinding(item.file, `Cannot load ${item.kind} definition: ${reason}`, 'load-definition', place)
    return undefined
  }
}

/**
 * The default export of an imported module. A `.ts` file outside a `"type": "module"` package is compiled as
 * CommonJS, where the default export arrives as `default.default`.
 */
export function defaultExport(module: unknown): unknown {
  const exported = (module as {default?: unknown} | undefined)?.default
  if (exported && typeof exported === 'object' && (exported as {__esModule?: boolean}).__esModule && 'default' in exported) return (exported as {default: unknown}).default
  return exported
}

/** Import a definition module; TypeScript goes through tsx, loaded only when a project has code definitions. */
export async function importCode(full: string): Promise<unknown> {
  if (/\.m?ts$/.test(full)) {
    const {tsImport} = await import('tsx/esm/api')
    return tsImport(pathToFileURL(full).href, import.meta.url)
  }
  return import(pathToFileURL(full).href)
}

function placeInStack(error: unknown, full: string): {line: number; column: number} | undefined {
  const stack = error instanceof Error ? error.stack ?? '' : ''
  const url = pathToFileURL(full).href
  for (const line of stack.split('\n')) {
    const at = line.indexOf(url) >= 0 ? line.indexOf(url) + url.length : line.indexOf(full) >= 0 ? line.indexOf(full) + full.length : -1
    if (at < 0) continue
    const match = /^:(\d+):(\d+)/.exec(line.slice(at))
    if (match) return {line: Number(match[1]), column: Number(match[2])}
  }
  return undefined
}

/** Parse JSON with the catalogue parser's findings (line:column, `parse` rule); throws its fatal message. */
function readJson(text: string, file: VFile): unknown {
  const tree = parseSource(text, file, {syntax: 'json'})
  return tree.type === 'catalogue' ? tree.spec : tree.document
}
