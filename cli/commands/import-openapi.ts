import {Command, Option} from 'clipanion'
import {quietOption} from '../options.js'

/** `pipe import openapi <input> <output>`: an OpenAPI or Swagger document into a catalogue. */
export class ImportOpenapiCommand extends Command {
  static override paths = [['import', 'openapi']]

  static override usage = Command.Usage({
    description: 'Import an OpenAPI 3.x or Swagger 2.0 document (JSON or YAML) into a catalogue',
    details: `
      Each operation becomes an endpoint (its first tag is its group), webhooks and callbacks become EVENT endpoints,
      security becomes \`auth\`, response codes \`status\`, and the schemas operations reach become types (all of
      them with \`--all-types\`). References to other files are followed. Schema problems of the document are
      warnings; a broken reference, a document without operations or a file that is not OpenAPI is an error, and then
      nothing is written (exit 1). Findings go to stderr; stdout says what was written.
      A file that declares another kind of document gets one line naming the \`pipe import\` command for it (exit 1).
    `,
    examples: [
      ['Import the pet store', 'pipe import openapi petstore.yaml petstore.endpoints.json'],
      ['Keep every schema as a type', 'pipe import openapi openapi.json api.endpoints.json --all-types']
    ]
  })

  input = Option.String({name: 'input_file'})

  output = Option.String({name: 'output_spec_file'})

  quiet = quietOption()

  allTypes = Option.Boolean('--all-types', false, {description: 'Keep every schema of the document as a type, not only those operations reach, e.g. `--all-types`'})

  override async execute(): Promise<number> {
    const [{importCatalogue}, {presets}, {default: importOpenapi}] = await Promise.all([
      import('../import-catalogue.js'),
      import('../../presets/openapi.js').then((module) => ({presets: {openapi: module.default}})),
      import('../../plugins/import-openapi/index.js')
    ])
    return importCatalogue(this.context, 'openapi', presets.openapi, [[importOpenapi, {allTypes: this.allTypes}]], this.input, this.output, this.quiet)
  }
}
