import {Command, Option} from 'clipanion'
import {quietOption} from '../options.js'

/** `pipe merge <catalogue…> <output>`: one catalogue from several of one bounded context. */
export class MergeCommand extends Command {
  static override paths = [['merge']]

  static override usage = Command.Usage({
    description: 'Merge catalogues of one bounded context (REST, GraphQL, events) into one',
    details: `
      Validates each input, then merges them: \`meta\` from the first with \`api_kind: mixed\`, groups united by id,
      endpoints in input order, identical types kept once. The result is validated too: a repeated endpoint id or
      a type defined twice differently is an \`id-clash\` error (its paths name the inputs: \`b.endpoints.json#endpoints[1].id\`), and then
      nothing is written. Findings go to stderr; stdout says what was written.
    `,
    examples: [['REST, GraphQL and events of the shop in one catalogue', 'pipe merge rest.endpoints.json graphql.endpoints.json events.endpoints.json shop.endpoints.json']]
  })

  catalogues = Option.Rest({required: 1, name: 'catalogue'})

  output = Option.String({name: 'output_spec_file'})

  quiet = quietOption()

  override async execute(): Promise<number> {
    const [{runPreset, transformInput}, {readInput}, {presets}, {formatFindings}, {statistics}, {mergeCatalogues}, {writeFile}] = await Promise.all([
      import('../../pipeline/process.js'),
      import('../../pipeline/read.js'),
      import('../../presets/validate.js').then((module) => ({presets: {validate: module.default}})),
      import('../../pipeline/report.js'),
      import('vfile-statistics'),
      import('../../plugins/merge-catalogues.js'),
      import('node:fs/promises')
    ])
    const inputs = this.catalogues
    const output = this.output
    const checked = await Promise.all(inputs.map((input) => readInput(input)))
    const trees = []
    // Each input with its nearest `.piperc*`, as every command reads it.
    for (const file of checked) trees.push((await transformInput(presets.validate, file, {config: true})) as {type: string; spec: import('../../schemas/types/endpoints.js').Catalogue} | undefined)
    if (statistics(checked).fatal > 0) {
      // Each line names its input, even when only one of several is broken.
      this.context.stderr.write(formatFindings(checked.filter((file) => file.messages.some((message) => message.fatal)), 'text', {named: checked.length > 1}))
      return 1
    }
    const specs = trees.map((tree) => tree!.spec)
    const spec = mergeCatalogues(specs)
    const value = JSON.stringify(spec, null, 2) + '\n'
    const [merged] = await runPreset(presets.validate, [{path: output, value}], {config: true})
    // The merged catalogue is not written when it has errors: its findings point at the inputs instead.
    const inInputs = inputPlaces(inputs, specs, spec)
    for (const message of merged.messages) {
      if (message.jsonPath) message.jsonPath = inInputs(message.jsonPath)
      message.reason = inInputs(message.reason)
      message.message = message.reason
    }
    const {fatal: errors, warn: warnings} = statistics([merged])
    if (errors + (this.quiet ? 0 : warnings) > 0) this.context.stderr.write(formatFindings([merged], 'text', {quiet: this.quiet}))
    if (errors > 0) return 1
    await writeFile(output, value)
    if (!this.quiet) this.context.stdout.write(`Wrote ${output} (${specs.reduce((sum, spec) => sum + spec.endpoints.length, 0)} endpoints from ${specs.length} catalogues)\n`)
    return 0
  }
}

type Catalogue = import('../../schemas/types/endpoints.js').Catalogue

/**
 * Where the items of a merged catalogue come from: `endpoints[4]` of the merge becomes `graphql.endpoints.json#endpoints[1]`
 * in a finding's path and words. Groups and types kept once are the first input's.
 */
function inputPlaces(inputs: string[], specs: Catalogue[], merged: Catalogue): (text: string) => string {
  const places = new Map<object, string>()
  for (const [index, spec] of specs.entries()) {
    for (const key of ['endpoints', 'groups', 'types'] as const) {
      for (const [position, item] of (spec[key] ?? []).entries()) if (!places.has(item)) places.set(item, `${inputs[index]}#${key}[${position}]`)
    }
  }
  return (text) => text.replace(/\b(endpoints|groups|types)\[(\d+)\]/g, (whole, key: 'endpoints' | 'groups' | 'types', position: string) => {
    const item = merged[key]?.[Number(position)]
    return (item && places.get(item)) ?? whole
  })
}
