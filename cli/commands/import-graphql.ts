import {Command, Option} from 'clipanion'
import {quietOption} from '../options.js'

/** `pipe import graphql <input> <output>`: a GraphQL schema into a catalogue. */
export class ImportGraphqlCommand extends Command {
  static override paths = [['import', 'graphql']]

  static override usage = Command.Usage({
    description: 'Import a GraphQL schema (SDL or introspection JSON) into a catalogue',
    details: `
      Every field of Query, Mutation and Subscription becomes a QUERY, MUTATION or SUBSCRIPTION endpoint with its
      signature as the path (\`pet(id: ID!): Pet\`), its arguments as \`arg\` params and its return type as the
      response (\`[Pet!]!\` -> \`Pet[]\`); endpoints are grouped by a \`@tag(name: …)\` directive, else by the return
      type. Types are those the operations reach, unless \`--all-types\`. The catalogue is validated; findings go to
      stderr, and with an error nothing is written (exit 1).
      A file that declares another kind of document gets one line naming the \`pipe import\` command for it (exit 1).
    `,
    examples: [
      ['Import an SDL schema', 'pipe import graphql schema.graphql api.endpoints.json'],
      ['Import an introspection result with every type', 'pipe import graphql introspection.json api.endpoints.json --all-types']
    ]
  })

  input = Option.String({name: 'input_file'})

  output = Option.String({name: 'output_spec_file'})

  quiet = quietOption()

  allTypes = Option.Boolean('--all-types', false, {description: 'Keep every type of the schema, not only those the operations reach, e.g. `--all-types`'})

  title = Option.String('--title', {description: 'Catalogue title (default: the file name, or its folder for `schema.graphql`), e.g. `--title Billing`'})

  override async execute(): Promise<number> {
    const [{importCatalogue}, {presets}, {default: importGraphql}] = await Promise.all([
      import('../import-catalogue.js'),
      import('../../presets/graphql.js').then((module) => ({presets: {graphql: module.default}})),
      import('../../plugins/import-graphql/index.js')
    ])
    return importCatalogue(this.context, 'graphql', presets.graphql, [[importGraphql, {allTypes: this.allTypes, title: this.title}]], this.input, this.output, this.quiet)
  }
}
