import {Command, Option} from 'clipanion'
import type {VFile} from 'vfile'
import {colorOption, parseSettings, usageError, useColor} from '../options.js'

/** `pipe run --preset <name> <files…>`: the engine over files and globs, with vfile-reporter output. */
export class RunCommand extends Command {
  static override paths = [['run']]

  static override usage = Command.Usage({
    description: 'Run a preset of plugins over files and globs',
    details: `
      Runs the pipeline engine (unified-engine): reads the files, finds \`.piperc*\` config and \`.pipeignore\`,
      runs the preset's plugins and any \`--use\` plugins, reports findings as \`file:line:column severity reason
      rule\`, and writes the outputs plugins produce (beside each input, or into \`--output\`, keeping the inputs' folders below their common folder). Exits 1 on any error,
      or on warnings with \`--frail\`. On a terminal, a count of files done is shown on stderr while many files run.

      Folders are searched for \`.json\`, \`.yaml\` and \`.yml\` files as \`pipe validate\` searches them (never
      package.json, dotfiles such as \`.piperc.json\`, dot-folders or \`node_modules\`); a folder or glob without
      matches is an error.

      Built-in presets: \`catalogue\` (validate, then write the page and sentences; the default), \`validate\` (only
      check), \`sentences\` (check and write sentences), \`openapi\`, \`graphql\` and \`asyncapi\` (import, check, write
      the catalogue and page), \`docs\` (render \`*.njk\` templates) and \`backend\` (check entity and controller
      definitions). A path to a module exporting \`{plugins, settings}\` works too.
    `,
    examples: [
      ['Check every catalogue in a folder', 'pipe run --preset catalogue specs/'],
      ['Add a plugin of your own', 'pipe run --preset catalogue --use ./my-plugin.js api.endpoints.json'],
      ['Change a setting', "pipe run --preset catalogue --setting 'rules.summary=\"off\"' api.endpoints.json"],
      ['Write outputs into a folder', 'pipe run --preset catalogue --output build/ specs/*.json']
    ]
  })

  preset = Option.String('--preset', 'catalogue', {description: 'Preset name or module path (default: `catalogue`), e.g. `--preset validate`'})

  use = Option.Array('--use', [], {description: 'Plugin module to add after the preset (repeatable), e.g. `--use ./my-plugin.js`'})

  setting = Option.Array('--setting', [], {description: 'Setting as `key=value`, value in JSON when it parses (repeatable), e.g. `--setting rules.size=\'["warn",{"max":120}]\'`'})

  output = Option.String('--output,-o', {description: 'Write outputs into this folder instead of beside the inputs, e.g. `--output build/`'})

  frail = Option.Boolean('--frail', false, {description: 'Exit 1 on warnings too, e.g. `pipe run --frail specs/`'})

  quiet = Option.Boolean('--quiet,-q', false, {description: 'Report only files with warnings or errors, e.g. `pipe run -q specs/`'})

  silent = Option.Boolean('--silent,-S', false, {description: 'Report only errors, e.g. `pipe run -S specs/`'})

  color = colorOption()

  format = Option.String('--format', 'default', {description: 'Report format: `default` (vfile-reporter on stderr), or `text`, `json`, `github`, `sarif` on stdout as `pipe validate` prints them, e.g. `--format sarif`'})

  files = Option.Rest({required: 1, name: 'files or globs'})

  override async execute(): Promise<number> {
    const [{runEngine}, {loadPreset}, {expandInputs}] = await Promise.all([import('../../pipeline/engine.js'), import('../load-preset.js'), import('../validate-files.js')])
    const {formats, formatFindings} = await import('../../pipeline/report.js')
    if (this.format !== 'default' && !(formats as readonly string[]).includes(this.format)) return usageError(this, `Unexpected value \`${this.format}\` for \`--format\`, expected one of default, ${formats.join(', ')}`)
    const preset = await loadPreset(this.preset)
    if (typeof preset === 'string') return usageError(this, preset)
    const machine = this.format !== 'default'
    // A count of files done on a terminal (stderr), as `pipe validate` shows; nothing when stderr is not a terminal.
    const {progress} = await import('../progress.js')
    let tick: ((done: number) => void) | undefined | null = null
    const onFile = (done: number, total: number) => {
      if (tick === null) tick = progress(this.context.stderr, total)
      tick?.(done)
    }
    const {code, files} = await runEngine({
      onFile,
      preset,
      // Folders and globs are searched as `pipe validate` searches them: never package.json, dotfiles or dot-folders.
      files: (await expandInputs(this.files)) as Array<string | VFile>,
      use: this.use,
      settings: parseSettings(this.setting),
      output: this.output,
      frail: this.frail,
      quiet: this.quiet,
      silent: this.silent,
      color: useColor(this.color),
      ...(machine ? {reporter: () => ''} : {}),
      streamError: this.context.stderr,
      streamOut: this.context.stdout
    })
    if (machine) this.context.stdout.write(formatFindings(files, this.format as 'text', {quiet: this.quiet || this.silent, frail: this.frail}))
    return code
  }
}
