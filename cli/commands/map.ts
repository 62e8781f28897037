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
    const [{stat}, path, {produce}, {default: openapi}] = await Promise.all([
      import('node:fs/promises'),
      import('node:path'),
      import('../produce.js'),
      import('../../presets/openapi.js')
    ])
    const info = await stat(this.input).catch(() => undefined)
    if (info?.isDirectory()) {
      this.context.stderr.write(`error map ${this.input} Unexpected folder: mapping a framework project comes with the framework runtime, which is not built yet; map its OpenAPI document instead\n1 error(s), 0 warning(s)\n`)
      return 1
    }
    const {code, outputs} = await produce(this.context, openapi, this.input, [
      {extension: '.json', path: path.join(this.output, 'api.endpoints.json')},
      {extension: '.html', path: path.join(this.output, 'api.endpoints.html')}
    ])
    for (const output of outputs) this.context.stdout.write(`Wrote ${output.path}\n`)
    return code
  }
}
