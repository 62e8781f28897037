import {Command, Option} from 'clipanion'
import {quietOption, usageError} from '../options.js'

const failOn = ['breaking', 'any', 'none'] as const

/** `pipe diff <old> <new>`: the changes between two versions of an API, breaking ones first to a client. */
export class DiffCommand extends Command {
  static override paths = [['diff']]

  static override usage = Command.Usage({
    description: 'List the changes between two versions of an API and whether they break clients',
    details: `
      Inputs are two catalogues, or two OpenAPI, GraphQL or AsyncAPI documents (imported first), so one command
      covers REST, GraphQL and events. \`<old>\` (or \`<new>\`) may be a git revision and path,
      \`main:api/openapi.yaml\`, read with \`git show\`. Prints one line per change,
      \`<breaking|non-breaking> <code> <location> <message>\`, then \`<N> breaking, <M> non-breaking change(s)\`.
      Changes are judged as a client sees them; every code is documented in docs/diff.md and is a rule whose
      severity \`.piperc*\` can set (\`error\`: breaking, \`warn\`: non-breaking, \`off\`). \`--format markdown\` lists
      breaking changes first and stops at what a GitHub comment holds (65,536 characters), saying how many it left out.

      Exits 1 when a breaking change exists (\`--fail-on any\`: any change; \`--fail-on none\`: never), or when an
      input cannot be read or imported (its findings go to stderr, each line starting with its input); 2 on usage errors.
    `,
    examples: [
      ['Compare two catalogues', 'pipe diff old.endpoints.json api.endpoints.json'],
      ['Compare with the main branch', 'pipe diff main:api/openapi.yaml api/openapi.yaml'],
      ['A comment for the pull request', 'pipe diff main:schema.graphql schema.graphql --format markdown > comment.md'],
      ['Annotations in a GitHub Actions job', 'pipe diff main:asyncapi.yaml asyncapi.yaml --format github'],
      ['Fail on any change', 'pipe diff old.json new.json --fail-on any']
    ]
  })

  format = Option.String('--format', 'text', {description: 'Output format: `text` (default), `json`, `github` or `markdown`, e.g. `--format markdown`'})

  failOn = Option.String('--fail-on', 'breaking', {description: 'Exit 1 on `breaking` changes (default), `any` change, or `none`, e.g. `--fail-on any`'})

  quiet = quietOption()

  old = Option.String({name: 'old'})

  new = Option.String({name: 'new'})

  override async execute(): Promise<number> {
    const {changeFormats, printChanges} = await import('../print-changes.js')
    if (!(changeFormats as readonly string[]).includes(this.format)) return usageError(this, `Unexpected value \`${this.format}\` for \`--format\`, expected one of ${changeFormats.join(', ')}`)
    if (!(failOn as readonly string[]).includes(this.failOn)) return usageError(this, `Unexpected value \`${this.failOn}\` for \`--fail-on\`, expected one of ${failOn.join(', ')}`)
    const [{diffInputs}, {formatFindings}] = await Promise.all([import('../diff-inputs.js'), import('../../pipeline/report.js')])
    const result = await diffInputs(this.old, this.new)
    if (!result.changes) {
      const failed = [result.old, result.new].filter((file) => file.messages.some((message) => message.fatal === true))
      this.context.stderr.write(formatFindings(failed, 'text', {quiet: true, named: true}))
      return 1
    }
    // Two kinds of API (a REST document and a GraphQL schema) share no endpoint: every one is a change. Said once, on
    // stderr, so that the report itself stays what its format promises.
    const {kinds} = result
    if (kinds?.old && kinds.new && kinds.old !== kinds.new) this.context.stderr.write(`pipe diff: the old input is a \`${kinds.old}\` API and the new one a \`${kinds.new}\` API: they share no endpoint, so each of their endpoints is a change\n`)
    // Quiet, what fails the run: the breaking changes, every change with `--fail-on any`, none with `--fail-on none`.
    const failing = this.failOn === 'any' ? 'any' : this.failOn === 'none' ? 'none' : 'breaking'
    this.context.stdout.write(printChanges(result.changes, result.new, this.format as 'text', this.quiet ? failing : undefined, failing))
    const breaking = result.changes.some((change) => change.fatal === true)
    if (this.failOn === 'none') return 0
    return (this.failOn === 'any' ? result.changes.length > 0 : breaking) ? 1 : 0
  }

}
