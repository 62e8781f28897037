/**
 * What every `pipe import …` command does after its flags: run the import preset without its page and write the
 * catalogue to the requested file (see produce.ts). stdout says what was written.
 */
import type {BaseContext} from 'clipanion'
import type {PluggableList, Preset} from 'unified'
import {pageOff} from '../presets/page-off.js'
import {declaredFileKind, type DocumentKind} from './document-kind.js'
import {produce} from './produce.js'

const kindNames: Record<DocumentKind, string> = {graphql: 'a GraphQL schema', asyncapi: 'an AsyncAPI document', openapi: 'an OpenAPI document'}

/**
 * Import `input` (a document of `kind`) with `preset` (plus `extra` plugins, e.g. options) and write the catalogue
 * to `output`; resolves to the exit code. A file that declares another kind is not parsed as this one (a GraphQL
 * schema read as YAML fails on its first line): one line names the command that imports it, exit 1.
 */
export async function importCatalogue(context: BaseContext, kind: DocumentKind, preset: Preset, extra: PluggableList, input: string, output: string, quiet = false): Promise<number> {
  const declared = input === '-' ? undefined : await declaredFileKind(input)
  if (declared && declared !== kind) {
    context.stderr.write(`\`${input}\` is ${kindNames[declared]}, not ${kindNames[kind]}: import it with \`pipe import ${declared} ${input} ${output}\`\n`)
    return 1
  }
  const plugins = [...(preset.plugins ?? []), ...extra, ...(pageOff.plugins ?? [])]
  const {code, outputs, values} = await produce(context, {plugins}, input, [{extension: '.json', path: output}], {quiet})
  if (code !== 0) return code
  if (quiet) return 0
  // The catalogue as the import made it: its text was written from it, and is not made again to be read back.
  const spec = (values[0] ?? JSON.parse(String(outputs[0]))) as {endpoints: unknown[]; types?: unknown[]}
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`
  context.stdout.write(`Wrote ${output} (${count(spec.endpoints.length, 'endpoint')}, ${count(spec.types?.length ?? 0, 'type')})\n`)
  return 0
}
