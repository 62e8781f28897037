/**
 * What the commands that write files share (`render`, `map`, `import …`): run a preset over one input, print its
 * findings on stderr in the `pipe validate` format, and write the outputs the plugins produced with the wanted
 * extensions, each where the command says. With an error, or an output missing, nothing is written.
 */
import type {BaseContext} from 'clipanion'
import type {Preset} from 'unified'
import type {VFile} from 'vfile'
import {jsYaml} from '../pipeline/lazy.js'
import {writeOutputs} from '../pipeline/outputs.js'
import {runPreset} from '../pipeline/process.js'
import {statistics} from 'vfile-statistics'
import {formatFindings} from '../pipeline/report.js'
import type {Input} from '../pipeline/read.js'

/** An output to write: the extension a plugin gave it (`.html`) and, optionally, where to write it instead. */
export interface Target {
  extension: string
  /** The output's file name, when several outputs share the extension (`api.erd.json` beside `api.endpoints.json`). */
  name?: string
  path?: string
}

/**
 * Resolves to the exit code and, when it is 0, the written outputs in the order of `targets`, with the data of each
 * JSON output as the plugins made it (`values`). A JSON output sent to a `.yaml` or `.yml` path is written as YAML.
 */
export async function produce(context: BaseContext, preset: Preset, input: Input, targets: Target[], options: {quiet?: boolean} = {}): Promise<{code: number; outputs: VFile[]; values: unknown[]}> {
  // The nearest `.piperc*` applies here as in `pipe run` and `pipe validate`.
  // The input, then the files its refs led to, each with its own findings (a schema problem in `schemas/pet.yaml`).
  const files = await runPreset(preset, [input], {config: true})
  const [file] = files
  const outputs = targets.map((target) => file.data.outputs?.find((output) => output.extname === target.extension && (!target.name || output.basename === target.name)))
  if (statistics(files).fatal > 0 || outputs.some((output) => output === undefined)) return report(context, files, {code: 1, outputs: [], values: []}, options)
  const chosen = outputs as VFile[]
  const values = chosen.map((output) => output.data.json)
  targets.forEach((target, index) => {
    if (!target.path) return
    chosen[index].path = target.path
    if (values[index] !== undefined && /\.ya?ml$/i.test(target.path)) chosen[index].value = jsYaml().dump(values[index], {noRefs: true, lineWidth: -1})
  })
  file.data.outputs = chosen
  // A failed write is an error finding on the file, reported with the rest.
  const written = await writeOutputs([file], {announce: false})
  return report(context, files, written.length === chosen.length ? {code: 0, outputs: chosen, values} : {code: 1, outputs: [], values: []}, options)
}

/**
 * Print the findings of `files` once, on stderr (with `quiet`, only what fails the run), and pass `result` on. Notes
 * count too: an import that leaves something out says so even when nothing else is wrong.
 */
function report<Result>(context: BaseContext, files: VFile[], result: Result, options: {quiet?: boolean}): Result {
  const {fatal: errors, warn: warnings, info: notes} = statistics(files)
  if (errors + (options.quiet ? 0 : warnings + notes) > 0) context.stderr.write(formatFindings(files, 'text', {quiet: options.quiet}))
  return result
}
