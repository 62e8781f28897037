import {Command, Option} from 'clipanion'

/** `pipe validate <spec_file>`: the contract's finding lines and total line; exit 1 on any error. */
export class ValidateCommand extends Command {
  static override paths = [['validate']]

  static override usage = Command.Usage({
    description: 'Check an endpoint catalogue against its contract',
    details: `
      Prints one line per finding (\`<severity> <rule> <path> <reason>\`), then the total line
      (\`1 error(s), 1 warning(s)\`). Exits 1 when any error exists; warnings never block unless \`--frail\`.
      Rule severities come from \`.piperc*\` or the \`pipe\` field in package.json, e.g.
      \`{"settings": {"rules": {"summary": "off", "size": ["warn", {"max": 120}]}}}\`.

      \`--format json\` prints the findings as JSON with line and column; \`--format github\` prints GitHub Actions
      annotations (\`::error file=…,line=…,col=…::…\`) so CI shows them on the diff.
    `,
    examples: [
      ['Validate a catalogue', 'pipe validate api.endpoints.json'],
      ['Findings as JSON, for scripts', 'pipe validate api.endpoints.json --format json'],
      ['Annotations in a GitHub Actions job', 'pipe validate api.endpoints.json --format github'],
      ['Fail on warnings too', 'pipe validate api.endpoints.json --frail']
    ]
  })

  specFile = Option.String({name: 'spec_file'})

  format = Option.String('--format', 'text', {description: 'Output format: `text` (default), `json` or `github`, e.g. `--format json`'})

  frail = Option.Boolean('--frail', false, {description: 'Exit 1 on warnings too, e.g. `pipe validate api.json --frail`'})

  override async execute(): Promise<number> {
    const {formats, formatFindings} = await import('../../pipeline/report.js')
    if (!(formats as readonly string[]).includes(this.format)) {
      this.context.stderr.write(`Unexpected value \`${this.format}\` for \`--format\`, expected one of ${formats.join(', ')}\n`)
      return 2
    }
    const {validateFiles} = await import('../validate-files.js')
    const files = await validateFiles([this.specFile])
    this.context.stdout.write(formatFindings(files, this.format as 'text' | 'json' | 'github'))
    const failed = files.some((file) => file.messages.some((message) => message.fatal === true || (this.frail && message.fatal === false)))
    return failed ? 1 : 0
  }
}
