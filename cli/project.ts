/**
 * What the framework commands share: load a project (its `pipe.config.json` and, as the preset says, its
 * definitions), print its findings on stderr as `pipe run` does (file, line:column, rule), and hand back the tree.
 */
import path from 'node:path'
import type {BaseContext} from 'clipanion'
import type {Preset, Settings} from 'unified'
import type {VFile} from 'vfile'
import {withoutStacks} from '../pipeline/crash.js'
import {withRelated} from '../pipeline/data.js'
import {createProcessor, transformFile} from '../pipeline/process.js'
import {readInput} from '../pipeline/read.js'
import {reporter} from 'vfile-reporter'
import {statistics} from 'vfile-statistics'
import {useColor} from './options.js'
import type {DefinitionsTree} from '../plugins/parse-definitions.js'

/** A loaded project: its tree (undefined after an error), its file, and the number of errors found. */
export interface LoadedProject {
  tree: DefinitionsTree | undefined
  file: VFile
  errors: number
}

/** Run `preset` over the project in `directory`, with `settings` (rule severities) over the preset's; findings go to stderr. */
export async function runProjectPreset(context: BaseContext, directory: string, preset: Preset, settings: Settings = {}): Promise<LoadedProject> {
  const file = await readInput(path.join(directory, 'pipe.config.json'))
  const tree = (await transformFile(createProcessor(preset, settings), file)) as DefinitionsTree | undefined
  const files = withRelated([file])
  const {fatal: errors, warn: warnings} = statistics(files)
  if (errors + warnings > 0) context.stderr.write(reporter(withoutStacks(files), {quiet: true, color: useColor(undefined, process.stderr)}) + '\n')
  return {tree: errors > 0 ? undefined : tree, file, errors}
}
