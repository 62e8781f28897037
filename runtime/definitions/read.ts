/**
 * Read a project from its `pipe.config.json`: the config (its `${NAME}` values read the environment and the project's
 * `.env`), then the entity and controller definitions in the folders it names (default `src/entities` and
 * `src/controller`), each as a vfile of its own so that its findings have its own line:column. Those vfiles are
 * handed on as `file.data.related`, which reports include like inputs. JSON definitions are parsed here; code
 * definitions wait in `file.data.pendingCode` for {@link loadCodeDefinitions}.
 */
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {VFile} from 'vfile'
import {parseJsonText} from '../../pipeline/json-text.js'
import {markAsCode} from '../../pipeline/position.js'
import type {ControllerDefinition} from '../../schemas/types/controller.js'
import type {EntityDefinition} from '../../schemas/types/entity.js'
import type {ProjectConfig} from '../../schemas/types/project.js'
import {resolveConfig} from '../config.js'
import type {DefinitionFile, DefinitionsTree, RelatedTree} from './types.js'

const codeExtensions = new Set(['.ts', '.mts', '.js', '.mjs'])

/** Keys of a definition that code never writes out (a class's properties are its fields): findings skip them. */
const codeKeys = ['fields', 'relations', 'routes', 'definition']

/** Read the project whose config is `text` (the contents of `file`); throws a fatal `parse` finding on bad JSON. */
export function readDefinitions(text: string, file: VFile): DefinitionsTree | RelatedTree {
  if (file.data.relatedTo) return {type: 'related'}
  const root = path.resolve(file.cwd, file.dirname ?? '.')
  const declared = readJson(text, file)
  const config = resolveConfig(declared as ProjectConfig, root)
  const entities = readFolder<EntityDefinition>(root, config.entities, file)
  const controllers = readFolder<ControllerDefinition>(root, config.controllers, file)
  file.data.related = [...entities.items, ...entities.code, ...controllers.items, ...controllers.code].map((item) => item.file)
  file.data.pendingCode = [
    ...entities.code.map((item) => ({...item, kind: 'entity' as const})),
    ...controllers.code.map((item) => ({...item, kind: 'controller' as const}))
  ]
  return {
    type: 'definitions',
    root,
    config,
    declared,
    entities: entities.items.filter(hasDefinition),
    controllers: controllers.items.filter(hasDefinition),
    middleware: codeNames(path.join(root, 'src/middleware')),
    hooks: hookNames(path.join(root, 'src/hooks'))
  }
}

/** The hook files under `directory`, by the folder they are in. */
function hookNames(directory: string): Record<string, string[]> {
  let folders: string[]
  try {
    folders = readdirSync(directory, {withFileTypes: true}).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()
  } catch {
    return {}
  }
  return Object.fromEntries(folders.map((folder) => [folder, codeNames(path.join(directory, folder))]))
}

/** The module names of the code files in `directory` (none when it does not exist). */
export function codeNames(directory: string): string[] {
  let names: string[]
  try {
    names = readdirSync(directory).sort()
  } catch {
    return []
  }
  return names.filter((name) => codeExtensions.has(path.extname(name)) && !name.endsWith('.d.ts')).map((name) => name.replace(/\.[mc]?[jt]s$/, ''))
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
      markAsCode(file, codeKeys)
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

/** JSON with the `parse` rule's findings (line:column); a byte-order mark is not content. */
function readJson(text: string, file: VFile): unknown {
  return parseJsonText(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, file)
}
