/**
 * What every `pipe import …` command does after its flags: run the import preset (without the page), print the
 * findings on stderr in the `pipe validate` format, and write the catalogue to the requested file when there is no
 * error. stdout says what was written.
 */
import type {BaseContext} from 'clipanion'
import type {PluggableList, Preset} from 'unified'
import {writeOutputs} from '../pipeline/outputs.js'
import {runPreset} from '../pipeline/process.js'
import {countFindings, formatFindings} from '../pipeline/report.js'
import {pageOff} from '../presets/page-off.js'

/** Import `input` with `preset` (plus `extra` plugins, e.g. options) and write the catalogue to `output`; resolves to the exit code. */
export async function importCatalogue(context: BaseContext, preset: Preset, extra: PluggableList, input: string, output: string): Promise<number> {
  const [file] = await runPreset({plugins: [...(preset.plugins ?? []), ...extra, ...(pageOff.plugins ?? [])]}, [input])
  const {errors, warnings} = countFindings([file])
  if (errors + warnings > 0) context.stderr.write(formatFindings([file], 'text'))
  const catalogue = file.data.outputs?.find((candidate) => candidate.path.endsWith('.json'))
  if (errors > 0 || !catalogue) return 1
  catalogue.path = output
  file.data.outputs = [catalogue]
  const [written] = await writeOutputs([file], {announce: false})
  if (!written) {
    context.stderr.write(formatFindings([file], 'text'))
    return 1
  }
  const spec = JSON.parse(String(catalogue.value)) as {endpoints: unknown[]; types?: unknown[]}
  context.stdout.write(`Wrote ${output} (${spec.endpoints.length} endpoints, ${spec.types?.length ?? 0} types)\n`)
  return 0
}
