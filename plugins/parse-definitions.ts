/**
 * parse-definitions: a framework project, given by its `pipe.config.json`, becomes
 * `{type: 'definitions', root, config, entities, controllers}`. Entity and controller definitions are read from the
 * folders the config names (default `src/entities` and `src/controller`), each as a vfile of its own so that its
 * findings have its own line:column; those vfiles are handed on as `file.data.related`, which the engine's report
 * and `runPreset` include like inputs. A definition that is not JSON is a `parse` finding in its file.
 * Code definitions (`.ts`) are loaded by the runtime, which is not built yet; they are not read here.
 */
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import type {Processor} from 'unified'
import type {Node} from 'unist'
import {VFile} from 'vfile'
import {parseSource} from './parse.js'
import type {ControllerDefinition} from '../schemas/types/controller.js'
import type {EntityDefinition} from '../schemas/types/entity.js'
import type {ProjectConfig} from '../schemas/types/project.js'

/** One definition and the file it came from. */
export interface DefinitionFile<Definition> {
  file: VFile
  definition: Definition
}

/** A project's definitions. */
export interface DefinitionsTree extends Node {
  type: 'definitions'
  /** The project folder (where pipe.config.json is). */
  root: string
  config: ProjectConfig
  entities: Array<DefinitionFile<EntityDefinition>>
  controllers: Array<DefinitionFile<ControllerDefinition>>
}

/** A file another file's plugins already read: nothing to do with it but report it. */
export interface RelatedTree extends Node {
  type: 'related'
}

/** Set the processor's parser to read projects. */
export default function parseDefinitions(this: Processor) {
  this.parser = (text: string, file: VFile): DefinitionsTree | RelatedTree => {
    if (file.data.relatedTo) return {type: 'related'}
    const config = readJson(text, file) as ProjectConfig
    const root = path.resolve(file.cwd, file.dirname ?? '.')
    const entities = readFolder<EntityDefinition>(root, config.entities ?? 'src/entities', file)
    const controllers = readFolder<ControllerDefinition>(root, config.controllers ?? 'src/controller', file)
    const related = [...entities, ...controllers].map((item) => item.file)
    file.data.related = related
    return {type: 'definitions', root, config, entities: entities.filter(hasDefinition), controllers: controllers.filter(hasDefinition)}
  }
}

function hasDefinition<T>(item: {definition: T | undefined}): item is DefinitionFile<T> {
  return item.definition !== undefined
}

function readFolder<Definition>(root: string, folder: string, project: VFile): Array<{file: VFile; definition: Definition | undefined}> {
  const directory = path.resolve(root, folder)
  let names: string[]
  try {
    names = readdirSync(directory).filter((name) => name.endsWith('.json')).sort()
  } catch {
    return []
  }
  return names.map((name) => {
    const full = path.join(directory, name)
    const file = new VFile({cwd: project.cwd, path: path.relative(project.cwd, full) || full, value: readFileSync(full, 'utf8')})
    file.data.relatedTo = project.path
    try {
      return {file, definition: readJson(String(file.value), file) as Definition}
    } catch {
      // The parse finding is on the definition's file.
      return {file, definition: undefined}
    }
  })
}

/** Parse JSON with the catalogue parser's findings (line:column, `parse` rule); throws its fatal message. */
function readJson(text: string, file: VFile): unknown {
  const tree = parseSource(text, file, {syntax: 'json'})
  return tree.type === 'catalogue' ? tree.spec : tree.document
}
