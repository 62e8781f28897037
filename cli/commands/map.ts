import {Command, Option} from 'clipanion'
import {VFile} from 'vfile'
import {quietOption} from '../options.js'

/**
 * `pipe map <project dir | api description> [--output <dir>]`: api.endpoints.json and api.endpoints.html (and
 * api.erd.json for a project).
 */
export class MapCommand extends Command {
  static override paths = [['map']]

  static override usage = Command.Usage({
    description: 'Map a framework project or an OpenAPI, GraphQL or AsyncAPI document to api.endpoints.json and api.endpoints.html',
    details: `
      A folder is a framework project (where pipe.config.json is): each controller becomes a group, each route an
      endpoint with its auth, params, status codes, request and response types from the entities, the tables it
      touches and the file and line of its route and hooks. A file is imported as \`pipe import\` does: GraphQL SDL
      (\`.graphql\`) or an introspection result, an AsyncAPI document (its first key is \`asyncapi\`), else an
      OpenAPI 3.x or Swagger 2.0 document. The catalogue is validated, then \`api.endpoints.json\` and its page
      \`api.endpoints.html\` are written into \`--output\` (default: the current folder), and for a project its
      entity-relationship spec \`api.erd.json\` (tables, columns with key marks, relations), which the catalogue
      names in \`meta.erd\` and the page's tables panel shows. Findings go to stderr;
      with an error nothing is written (exit 1).
    `,
    examples: [
      ['Map the pet store into docs/', 'pipe map petstore.yaml --output docs/'],
      ['Map a GraphQL schema', 'pipe map schema.graphql --output docs/'],
      ['Map the example blog', 'pipe map examples/blog --output docs/'],
      ['Map into the current folder', 'pipe map openapi.json'],
      ['Map the project in the current folder', 'pipe map']
    ]
  })

  input = Option.String({name: 'project dir | api file', required: false})

  output = Option.String('--output,-o', '.', {description: 'Folder to write api.endpoints.json and api.endpoints.html into (default: `.`), e.g. `--output docs/`'})

  quiet = quietOption()

  override async execute(): Promise<number> {
    const [{stat}, path, {produce}, {fileKind}] = await Promise.all([import('node:fs/promises'), import('node:path'), import('../produce.js'), import('../document-kind.js')])
    // The project in the working folder when none is named, as `pipe openapi` and `pipe migrate` take it.
    const given = this.input ?? '.'
    const info = await stat(given).catch(() => undefined)
    const project = info?.isDirectory() === true
    const preset = (project ? await import('../../presets/map-app.js') : await documentPreset(await fileKind(given))).default
    const config = path.join(given, 'pipe.config.json')
    const input = !project ? given : (await stat(config).catch(() => undefined)) ? config : await notAProject(given, config)
    const {code, outputs} = await produce(this.context, preset, input, [
      {extension: '.json', name: project ? 'api.endpoints.json' : undefined, path: path.join(this.output, 'api.endpoints.json')},
      {extension: '.html', path: path.join(this.output, 'api.endpoints.html')},
      // A project's entities also become its ERD, which the catalogue names in `meta.erd`.
      ...(project ? [{extension: '.json', name: 'api.erd.json', path: path.join(this.output, 'api.erd.json')}] : [])
    ], {quiet: this.quiet})
    if (!this.quiet) for (const output of outputs) this.context.stdout.write(`Wrote ${output.path}\n`)
    return code
  }
}

/**
 * The input of a folder without `pipe.config.json`: its read finding says that a folder is read as a project, and how
 * to map a description instead, with one in the folder when there is one (`pipe map specs/petstore.yaml`).
 */
async function notAProject(folder: string, config: string): Promise<VFile> {
  const [{readdir}, path, {fatalFinding}] = await Promise.all([import('node:fs/promises'), import('node:path'), import('../../pipeline/rule.js')])
  const description = (await readdir(folder).catch(() => [] as string[])).sort().find((name) => /\.(?:json|ya?ml|graphqls?|gql)$/i.test(name))
  const file = new VFile({path: config})
  const example = description ? path.join(folder, description) : '<file>'
  fatalFinding(file, `Cannot find file \`${config}\`: a folder is read as a framework project (\`pipe init\` makes one); to map an API description, name its file (\`pipe map ${example}\`)`, 'read')
  return file
}

/** The preset that imports and renders a document of `kind`. */
function documentPreset(kind: 'graphql' | 'asyncapi' | 'openapi') {
  if (kind === 'graphql') return import('../../presets/graphql.js')
  if (kind === 'asyncapi') return import('../../presets/asyncapi.js')
  return import('../../presets/openapi.js')
}
