import {Command, Option} from 'clipanion'

/** `pipe map <openapi file> [--output <dir>]`: api.endpoints.json and api.endpoints.html from an OpenAPI document. */
export class MapCommand extends Command {
  static override paths = [['map']]

  static override usage = Command.Usage({
    description: 'Map an OpenAPI document to api.endpoints.json and api.endpoints.html',
    details: `
      Imports the OpenAPI 3.x or Swagger 2.0 document (as \`pipe import openapi\` does), validates the catalogue and
      writes \`api.endpoints.json\` and its page \`api.endpoints.html\` into \`--output\` (default: the current
      folder). Findings go to stderr; with an error nothing is written (exit 1). Mapping a framework project folder
      comes with the framework runtime and is not available yet.
    `,
    examples: [
      ['Map the pet store into docs/', 'pipe map petstore.yaml --output docs/'],
      ['Map into the current folder', 'pipe map openapi.json']
    ]
  })

  input = Option.String({name: 'project dir | openapi file'})

  output = Option.String('--output,-o', '.', {description: 'Folder to write api.endpoints.json and api.endpoints.html into (default: `.`), e.g. `--output docs/`'})

  override async execute(): Promise<number> {
    const [{stat}, path, {runPreset}, {presets}, {formatFindings, countFindings}, {writeOutputs}] = await Promise.all([
      import('node:fs/promises'),
      import('node:path'),
      import('../../pipeline/process.js'),
      import('../../presets/openapi.js').then((module) => ({presets: {openapi: module.default}})),
      import('../../pipeline/report.js'),
      import('../../pipeline/outputs.js')
    ])
    const info = await stat(this.input).catch(() => undefined)
    if (info?.isDirectory()) {
      this.context.stderr.write(`error map ${this.input} Unexpected folder: mapping a framework project comes with the framework runtime, which is not built yet; map its OpenAPI document instead\n1 error(s), 0 warning(s)\n`)
      return 1
    }
    const [file] = await runPreset(presets.openapi, [this.input])
    const {errors, warnings} = countFindings([file])
    if (errors + warnings > 0) this.context.stderr.write(formatFindings([file], 'text'))
    const outputs = file.data.outputs ?? []
    const catalogue = outputs.find((output) => output.extname === '.json')
    const page = outputs.find((output) => output.extname === '.html')
    if (errors > 0 || !catalogue || !page) return 1
    catalogue.path = path.join(this.output, 'api.endpoints.json')
    page.path = path.join(this.output, 'api.endpoints.html')
    const written = await writeOutputs([file], {announce: false})
    if (written.length !== 2) {
      this.context.stderr.write(formatFindings([file], 'text'))
      return 1
    }
    this.context.stdout.write(`Wrote ${catalogue.path}\nWrote ${page.path}\n`)
    return 0
  }
}
