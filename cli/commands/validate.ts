import {Command, Option} from 'clipanion'
import {frailOption, quietOption, usageError} from '../options.js'

/** `pipe validate <files, folders, globs or ->…`: the contract's finding lines and total line; exit 1 on any error. */
export class ValidateCommand extends Command {
  static override paths = [['validate']]

  static override usage = Command.Usage({
    category: 'Catalogue',
    description: 'Check endpoint catalogues against their contract',
    details: `
      Prints one line per finding (\`<severity> <rule> <path> <reason>\`), then the total line
      (\`1 error(s), 1 warning(s)\`), summed over every input. With more than one input, each line starts with its
      file (\`specs/a.json: error …\`). Inputs are files, folders (searched for .json, .yaml and .yml files), globs
      (quote them) and \`-\` for stdin. Exits 1 when any error exists; warnings never block unless \`--frail\`.
      Rule severities come from the nearest \`.piperc*\` or the \`pipe\` field in package.json, e.g.
      \`{"settings": {"rules": {"summary": "off", "size": ["warn", {"max": 120}]}}}\`.

      \`--format json\` prints the findings as JSON with line and column; \`--format github\` prints GitHub Actions
      annotations (\`::error file=…,line=…,col=…::…\`); \`--format sarif\` prints a SARIF 2.1.0 log for GitHub code
      scanning and other CI tools.
    `,
    examples: [
      ['Validate a catalogue', 'pipe validate api.endpoints.json'],
      ['Validate every catalogue under specs/', "pipe validate specs/ 'services/*/api.endpoints.json'"],
      ['Validate what another command prints', 'cat api.endpoints.json | pipe validate -'],
      ['Findings as JSON, for scripts', 'pipe validate api.endpoints.json --format json'],
      ['Annotations in a GitHub Actions job', 'pipe validate api.endpoints.json --format github'],
      ['A SARIF log for code scanning', 'pipe validate specs/ --format sarif > apipe.sarif'],
      ['Fail on warnings too', 'pipe validate api.endpoints.json --frail']
    ]
  })

  format = Option.String('--format', 'text', {description: 'Output format: `text` (default), `json`, `github` or `sarif`, e.g. `--format json`'})

  frail = frailOption()

  quiet = quietOption()

  files = Option.Rest({required: 1, name: 'files, folders, globs or -'})

  override async execute(): Promise<number> {
    const {formats, formatFindings} = await import('../../pipeline/report.js')
    if (!(formats as readonly string[]).includes(this.format)) return usageError(this, `Unexpected value \`${this.format}\` for \`--format\`, expected one of ${formats.join(', ')}`)
    const {expandInputs, validateFiles, readStdin} = await import('../validate-files.js')
    const inputs = await expandInputs(this.files, () => readStdin(this.context.stdin))
    const {progress} = await import('../progress.js')
    const files = await validateFiles(inputs, undefined, {onFile: progress(this.context.stderr, inputs.length)})
    this.context.stdout.write(formatFindings(files, this.format as 'text', {quiet: this.quiet, frail: this.frail}))
    const failed = files.some((file) => file.messages.some((message) => message.fatal === true || (this.frail && message.fatal === false)))
    return failed ? 1 : 0
  }
}
