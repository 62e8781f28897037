/**
 * The programmatic API of apipe: run a preset over files or strings and get the vfiles back, with their findings
 * in `file.messages` and what plugins produced in `file.data.outputs`.
 *
 * ```js
 * import {pipeline} from 'apipe-kit'
 * const [file] = await pipeline('validate', [{path: 'api.endpoints.json', value: text}])
 * ```
 */
import type {Preset} from 'unified'
import type {VFile} from 'vfile'
import {ApipeError} from './pipeline/errors.js'
import {runPreset, type RunOptions} from './pipeline/process.js'
import type {Input} from './pipeline/read.js'
import {presets, type PresetName} from './presets/index.js'

export {presets, type PresetName}
export {createProcessor, processFile, runPreset, type RunOptions} from './pipeline/process.js'
export {runEngine, type EngineOptions} from './pipeline/engine.js'
export {readInput, type Input} from './pipeline/read.js'
export {writeOutputs, type WriteOptions} from './pipeline/outputs.js'
export {defineRule, ruleSet, type Rule, type RuleMeta, type RuleSetting, type Severity, type Report} from './pipeline/rule.js'
export {formatFindings, type Format, type FindingData} from './pipeline/report.js'
export {statistics} from 'vfile-statistics'
export {ApipeError, codes, type ErrorCode} from './pipeline/errors.js'
export {formatJsonPath, type JsonPath} from './pipeline/json-path.js'
export {addOutput, hasErrors, type CatalogueTree, type OpenApiTree} from './pipeline/data.js'
export type * from './schemas/types/endpoints.js'
export {default as parse} from './plugins/parse.js'
export {default as validateCatalogue, rules as catalogueRules} from './plugins/validate-catalogue/index.js'

/** Run a preset (a built-in name or a `{plugins, settings}` object) over inputs; resolves to the vfiles. */
export async function pipeline(preset: PresetName | Preset, inputs: Input[], options?: RunOptions): Promise<VFile[]> {
  if (typeof preset === 'string') {
    if (!Object.hasOwn(presets, preset)) throw new ApipeError('APIPE_ERR_PRESET', [preset, Object.keys(presets).join(', ')])
    return runPreset(presets[preset], inputs, options)
  }
  return runPreset(preset, inputs, options)
}
