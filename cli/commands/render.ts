import {Command, Option} from 'clipanion'

/** `pipe render <spec_file>`: the catalogue's self-contained HTML page. */
export class RenderCommand extends Command {
  static override paths = [['render']]

  static override usage = Command.Usage({
    description: 'Write the self-contained HTML page of a catalogue',
    details: `
      Validates the catalogue and writes one HTML file (inline CSS and script, no network request, light and dark)
      beside it: \`x.endpoints.json\` -> \`x.endpoints.html\`, \`x.json\` -> \`x.html\`. Findings are printed on
      stderr like \`pipe validate\` prints them; warnings also show in the page as finding chips. A catalogue with
      errors writes nothing and exits 1.
    `,
    examples: [
      ['Write api.endpoints.html', 'pipe render api.endpoints.json'],
      ['Write somewhere else and open it', 'pipe render api.endpoints.json --output site/index.html --open']
    ]
  })

  specFile = Option.String({name: 'spec_file'})

  output = Option.String('--output,-o', {description: 'Write the page to this file instead, e.g. `--output site/index.html`'})

  open = Option.Boolean('--open', false, {description: 'Open the page with the system opener afterwards, e.g. `pipe render api.json --open`'})

  override async execute(): Promise<number> {
    const [{runPreset}, {presets}, {formatFindings, countFindings}, {writeOutputs}] = await Promise.all([
      import('../../pipeline/process.js'),
      import('../../presets/catalogue.js').then((module) => ({presets: {catalogue: module.default}})),
      import('../../pipeline/report.js'),
      import('../../pipeline/outputs.js')
    ])
    const [file] = await runPreset(presets.catalogue, [this.specFile])
    const {errors, warnings} = countFindings([file])
    if (errors + warnings > 0) this.context.stderr.write(formatFindings([file], 'text'))
    const page = file.data.outputs?.find((output) => output.extname === '.html')
    if (errors > 0 || !page) return 1
    if (this.output) page.path = this.output
    file.data.outputs = [page]
    const [written] = await writeOutputs([file], {announce: false})
    if (!written) {
      this.context.stderr.write(formatFindings([file], 'text'))
      return 1
    }
    this.context.stdout.write(`Wrote ${page.path}\n`)
    if (this.open) {
      const {openFile} = await import('../open-file.js')
      const opener = openFile(written)
      this.context.stdout.write(opener ? `Opened it with ${opener}\n` : `No opener found (xdg-open, open or start); open ${written} in a browser\n`)
    }
    return 0
  }
}
