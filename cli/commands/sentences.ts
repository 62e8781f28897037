import {Command, Option} from 'clipanion'
import {quietOption, usageError} from '../options.js'

const sections = ['operations', 'types'] as const
const formats = ['text', 'json', 'markdown'] as const

/** `pipe sentences <spec_file>`: the documentation sentences of a catalogue, for scripts. */
export class SentencesCommand extends Command {
  static override paths = [['sentences']]

  static override usage = Command.Usage({
    description: 'Print the documentation sentences of a catalogue',
    details: `
      Prints one sentence per endpoint (\`GET /pets — List pets. It returns Pet[].\`) and one per type
      (\`Pet is an object with fields id (integer, required).\`), operations first. The sentences are exact: the
      summary is attached as written. A catalogue with errors prints its findings on stderr, no sentences, and exits
      1; warnings are not printed.

      \`--format json\` prints the sentence objects (method, path, id, group, tags, summary, text; name, kind,
      text): an array with \`--section\`, else \`{operations, types}\`. \`--format markdown\` prints \`- \` lists, under
      \`## Operations\` and \`## Types\` headings when both sections are printed.
    `,
    examples: [
      ['All sentences, one per line', 'pipe sentences api.endpoints.json'],
      ['Only the operations, as a Markdown list', 'pipe sentences api.endpoints.json --section operations --format markdown'],
      ['Sentence objects for a script', 'pipe sentences api.endpoints.json --format json']
    ]
  })

  specFile = Option.String({name: 'spec_file'})

  section = Option.String('--section', {description: 'Print only one section: `operations` or `types` (default: both), e.g. `--section types`'})

  format = Option.String('--format', 'text', {description: 'Output format: `text` (default), `json` or `markdown`, e.g. `--format markdown`'})

  quiet = quietOption()

  override async execute(): Promise<number> {
    if (this.section !== undefined && !(sections as readonly string[]).includes(this.section)) {
      return usageError(this, `Unexpected value \`${this.section}\` for \`--section\`, expected one of ${sections.join(', ')}`)
    }
    if (!(formats as readonly string[]).includes(this.format)) {
      return usageError(this, `Unexpected value \`${this.format}\` for \`--format\`, expected one of ${formats.join(', ')}`)
    }
    const [{runPreset}, {presets}, {formatFindings}, {printSentences}] = await Promise.all([
      import('../../pipeline/process.js'),
      import('../../presets/sentences.js').then((module) => ({presets: {sentences: module.default}})),
      import('../../pipeline/report.js'),
      import('../print-sentences.js')
    ])
    const [file] = await runPreset(presets.sentences, [this.specFile], {config: true})
    if (!file.data.endpoints) {
      const errors = file.messages.filter((message) => message.fatal === true)
      file.messages = errors
      this.context.stderr.write(formatFindings([file], 'text'))
      return 1
    }
    this.context.stdout.write(printSentences(file.data.endpoints, this.section as (typeof sections)[number] | undefined, this.format as (typeof formats)[number]))
    return 0
  }

}
