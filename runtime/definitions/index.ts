/**
 * Definitions: the one owner of reading a project's `pipe.config.json`, its entity and controller definitions (JSON
 * and code) and checking them. The server loads projects through {@link loadDefinitions}; the `parse-definitions` and
 * `validate-definitions` plugins are thin adapters over the same functions, so both report the same findings.
 */
import type {Settings} from 'unified'
import type {VFile} from 'vfile'
import {VFileMessage} from 'vfile-message'
import {ruleSet} from '../../pipeline/rule.js'
import {loadCodeDefinitions} from './code.js'
import {readDefinitions} from './read.js'
import {definitionRules} from './rules.js'
import type {DefinitionsTree} from './types.js'
import {declaresEvents, outboxDefinition, outboxEntity} from '../events/outbox.js'

/**
 * Read, load and check the project whose config is `file` (a vfile with its text); findings go on `file` and the
 * definition files (`file.data.related`). Resolves to the definitions, or undefined when the config itself failed.
 */
export async function loadDefinitions(file: VFile, settings: Pick<Settings, 'rules'> = {}): Promise<DefinitionsTree | undefined> {
  let tree
  try {
    tree = readDefinitions(String(file.value ?? ''), file)
  } catch (error) {
    if (error instanceof VFileMessage) return undefined
    throw error
  }
  if (tree.type !== 'definitions') return undefined
  await loadCodeDefinitions(tree, file.data.pendingCode ?? [])
  addInternalEntities(tree, file)
  ruleSet(definitionRules, {}, settings.rules)?.(tree, file)
  return tree
}

/** Give a project that declares events its outbox table, as if it had declared it (see runtime/events/outbox.ts). */
export function addInternalEntities(tree: DefinitionsTree, file: VFile): void {
  const routeEvents = tree.controllers.flatMap(({definition}) => Object.values(definition.routes ?? {})).filter((route) => typeof route === 'object' && route?.events?.length).length
  const entities = tree.entities.map(({definition}) => definition)
  if (declaresEvents(entities, routeEvents) && !entities.some((entity) => entity.name === outboxEntity)) tree.entities.push({file, definition: outboxDefinition})
}

export {defaultExport, importCode, loadCodeDefinitions} from './code.js'
export {readDefinitions} from './read.js'
export {definitionRules} from './rules.js'
export type {ControllerFile, DefinitionFile, DefinitionsTree, PendingCode, RelatedTree} from './types.js'
