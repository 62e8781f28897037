/**
 * parse-definitions: a framework project, given by its `pipe.config.json`, becomes
 * `{type: 'definitions', root, config, entities, controllers}`; its definition files are handed on as
 * `file.data.related`. A thin adapter: reading and loading belong to `runtime/definitions/`.
 */
import type {Processor} from 'unified'
import type {VFile} from 'vfile'
import {addInternalEntities, loadCodeDefinitions, readDefinitions, type DefinitionsTree, type RelatedTree} from '../runtime/definitions/index.js'

/** Set the processor's parser to read projects, and import code definitions after parsing. */
export default function parseDefinitions(this: Processor) {
  this.parser = readDefinitions
  return async (tree: DefinitionsTree | RelatedTree, file: VFile) => {
    if (tree.type !== 'definitions') return
    await loadCodeDefinitions(tree, file.data.pendingCode ?? [])
    addInternalEntities(tree, file)
  }
}

export type {ControllerFile, DefinitionFile, DefinitionsTree, RelatedTree} from '../runtime/definitions/index.js'
