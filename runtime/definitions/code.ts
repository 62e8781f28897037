/**
 * Definitions, hooks and middleware as code: modules imported at load time (TypeScript through tsx, loaded only when a
 * project has any), their default export read whether the module was compiled as ESM or CommonJS.
 */
import {pathToFileURL} from 'node:url'
import type {Point} from 'unist'
import {fatalFinding} from '../../pipeline/rule.js'
import type {EntityDefinition} from '../../schemas/types/entity.js'
import {defineEntity, type CodeController} from '../define.js'
import type {DefinitionsTree, PendingCode} from './types.js'

/** Import the code definitions `readDefinitions` found into `tree`; each failure is a fatal finding in its file. */
export async function loadCodeDefinitions(tree: DefinitionsTree, pending: readonly PendingCode[]): Promise<void> {
  if (pending.length === 0) return
  for (const item of pending) {
    const loaded = await loadCode(item)
    if (!loaded) continue
    if (item.kind === 'entity') tree.entities.push({file: item.file, definition: loaded as EntityDefinition})
    else tree.controllers.push({file: item.file, definition: (loaded as CodeController).definition, actions: (loaded as CodeController).actions})
  }
  const byPath = (a: {file: {path: string}}, b: {file: {path: string}}) => a.file.path.localeCompare(b.file.path)
  tree.entities.sort(byPath)
  tree.controllers.sort(byPath)
}

async function loadCode(item: PendingCode): Promise<EntityDefinition | CodeController | undefined> {
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
    fatalFinding(item.file, `Cannot load ${item.kind} definition: ${reason}`, 'load-definition', placeInStack(error, item.full))
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

/** Import a module of the project; TypeScript goes through tsx, loaded only when a project has code. */
export async function importCode(full: string): Promise<unknown> {
  if (/\.m?ts$/.test(full)) {
    const {tsImport} = await import('tsx/esm/api')
    return tsImport(pathToFileURL(full).href, import.meta.url)
  }
  return import(pathToFileURL(full).href)
}

/** Where in `full` an error was thrown, read from its stack. */
function placeInStack(error: unknown, full: string): Point | undefined {
  const stack = error instanceof Error ? (error.stack ?? '') : ''
  const url = pathToFileURL(full).href
  for (const line of stack.split('\n')) {
    const at = line.indexOf(url) >= 0 ? line.indexOf(url) + url.length : line.indexOf(full) >= 0 ? line.indexOf(full) + full.length : -1
    if (at < 0) continue
    const match = /^:(\d+):(\d+)/.exec(line.slice(at))
    if (match) return {line: Number(match[1]), column: Number(match[2])}
  }
  return undefined
}

