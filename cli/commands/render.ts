import {Command, Option} from 'clipanion'
import {quietOption} from '../options.js'

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

  quiet = quietOption()

  override async execute(): Promise<number> {
    const [{produce}, {default: catalogue}, path] = await Promise.all([import('../produce.js'), import('../../presets/catalogue.js'), import('node:path')])
    const {code, outputs} = await produce(this.context, catalogue, this.specFile, [{extension: '.html', path: this.output}], {quiet: this.quiet})
    if (code !== 0) return code
    const [page] = outputs
    if (!this.quiet) this.context.stdout.write(`Wrote ${page.path}\n`)
    if (this.open) {
      const {openFile} = await import('../open-file.js')
      const written = path.resolve(page.cwd, page.path)
      const {opener, failure} = await openFile(written)
      if (failure) {
        this.context.stderr.write(`Cannot open ${written} with ${opener}: ${failure}; open it in a browser\n`)
        return 1
      }
      this.context.stdout.write(opener ? `Opened it with ${opener}\n` : `No opener found (xdg-open, open or start); open ${written} in a browser\n`)
    }
    return 0
  }
}
