import {Command, Option} from 'clipanion'
import {quietOption} from '../options.js'

/** `pipe import asyncapi <input> <output>`: the events of an AsyncAPI document into a catalogue. */
export class ImportAsyncapiCommand extends Command {
  static override paths = [['import', 'asyncapi']]

  static override usage = Command.Usage({
    description: 'Import the published events of an AsyncAPI 2.x or 3.x document into a catalogue',
    details: `
      Every operation the application publishes (AsyncAPI 2 \`subscribe\`, AsyncAPI 3 \`send\`) becomes an EVENT
      endpoint with the channel address as the path, the message payload as its type, the first tag as its group and
      the security as \`auth\`. Relative \`$ref\`s to other files are followed. The catalogue is validated; findings
      go to stderr, and with an error nothing is written (exit 1).
      A file that declares another kind of document gets one line naming the \`pipe import\` command for it (exit 1).
    `,
    examples: [['Import an AsyncAPI document', 'pipe import asyncapi asyncapi.yaml events.endpoints.json']]
  })

  input = Option.String({name: 'input_file'})

  output = Option.String({name: 'output_spec_file'})

  quiet = quietOption()

  override async execute(): Promise<number> {
    const [{importCatalogue}, {presets}] = await Promise.all([import('../import-catalogue.js'), import('../../presets/asyncapi.js').then((module) => ({presets: {asyncapi: module.default}}))])
    return importCatalogue(this.context, 'asyncapi', presets.asyncapi, [], this.input, this.output, this.quiet)
  }
}
