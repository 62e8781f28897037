/**
 * What every `pipe import …` command does after its flags: run the import preset without its page and write the
 * catalogue to the requested file (see produce.ts). stdout says what was written.
 */
import type {BaseContext} from 'clipanion'
import type {PluggableList, Preset} from 'unified'
import {pageOff} from '../presets/page-off.js'
import {produce} from './produce.js'

/** Import `input` with `preset` (plus `extra` plugins, e.g. options) and write the catalogue to `output`; resolves to the exit code. */
export async function importCatalogue(context: BaseContext, preset: Preset, extra: PluggableList, input: string, output: string, quiet = false): Promise<number> {
  const plugins = [...(preset.plugins ?? []), ...extra, ...(pageOff.plugins ?? [])]
  const {code, outputs} = await produce(context, {plugins}, input, [{extension: '.json', path: output}], {quiet})
  if (code !== 0) return code
  if (quiet) return 0
  const spec = JSON.parse(String(outputs[0])) as {endpoints: unknown[]; types?: unknown[]}
  context.stdout.write(`Wrote ${output} (${spec.endpoints.length} endpoints, ${spec.types?.length ?? 0} types)\n`)
  return 0
}
