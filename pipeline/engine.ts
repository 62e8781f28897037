/**
 * `pipe run`: unified-engine over files and globs, with apipe's config names (`.piperc*`, the `pipe` field in
 * package.json, `.pipeignore`), a preset, extra plugins (`--use`) and settings, vfile-reporter output, and a
 * completer that writes `file.data.outputs` once every file has passed.
 */
import type {Options as UnifiedEngineOptions} from 'unified-engine'
import {reporter as vfileReporter} from 'vfile-reporter'
import {unified, type PluggableList, type Preset, type Processor, type Settings} from 'unified'
import {PassThrough} from 'node:stream'
import {VFile} from 'vfile'
import {withRelated} from './data.js'
import {tameCrashes} from './crash.js'
import {writeOutputs} from './outputs.js'
import {checkConfig, knownRules} from './rule-settings.js'

/** Options of {@link runEngine}. */
export interface EngineOptions {
  preset: Preset
  /** Files, folders and globs, or vfiles (a vfile that already has a fatal finding is reported as it is). */
  files: Array<string | VFile>
  /** Plugins to add after the preset's: module specifiers (resolved from `cwd`) or attachers. */
  use?: PluggableList | string[]
  /** Settings merged over the preset's. */
  settings?: Settings
  /** Directory outputs are written to (default: beside each input). */
  output?: string
  cwd?: string
  color?: boolean
  frail?: boolean
  quiet?: boolean
  silent?: boolean
  /** Extensions searched in folders (default: json, yaml, yml). */
  extensions?: string[]
  /** A reporter (default: vfile-reporter). */
  reporter?: UnifiedEngineOptions['reporter']
  streamError?: NodeJS.WritableStream
  streamOut?: NodeJS.WritableStream
  /** Called after each file is processed, with the count of files done and of all files (for progress). */
  onFile?: (done: number, total: number) => void
}

/** What apipe uses of unified-engine's file set (the third argument of an attacher). */
interface FileSet {
  use(completer: unknown): unknown
  on(event: 'one', listener: () => void): unknown
  valueOf(): VFile[]
}

/** Run the engine; resolves to the exit code and the processed files. */
export async function runEngine(options: EngineOptions): Promise<{code: number; files: VFile[]}> {
  // Imported here, not above: the CommonJS copy of the CLI (scripts/build-bundle.js) loads it as installed.
  const {engine} = await import('unified-engine')
  const completer = async (fileSet: {valueOf(): VFile[]}) => {
    await writeOutputs(fileSet.valueOf(), {outputDir: options.output})
  }
  // The attacher runs once per file's processor; the file set is one, so it is listened to once.
  let listened: unknown
  function writeProducedFiles(this: Processor, _options: unknown, fileSet?: FileSet) {
    fileSet?.use(completer)
    if (!fileSet || !options.onFile || listened === fileSet) return
    listened = fileSet
    let done = 0
    // unified-engine emits `one` when a file has gone through its pipeline; all files are in the set by then.
    fileSet.on('one', () => options.onFile!(++done, fileSet.valueOf().length))
  }
  return new Promise((resolve, reject) => {
    engine(
      {
        processor: unified(),
        files: options.files,
        cwd: options.cwd ?? process.cwd(),
        extensions: options.extensions ?? ['json', 'yaml', 'yml'],
        rcName: '.piperc',
        packageField: 'pipe',
        ignoreName: '.pipeignore',
        pluginPrefix: 'pipe',
        detectConfig: true,
        detectIgnore: true,
        configTransform: checkConfig,
        plugins: [...(options.preset.plugins ?? []), ...((options.use ?? []) as PluggableList), [writeProducedFiles], [knownRules]] as PluggableList,
        settings: {...options.preset.settings, ...options.settings},
        color: options.color ?? false,
        frail: options.frail ?? false,
        quiet: options.quiet ?? false,
        silent: options.silent ?? false,
        // Files that plugins read for an input (`file.data.related`) are reported right after it.
        reporter: (files: VFile[], reporterOptions: Parameters<typeof vfileReporter>[1]) => {
          // A plugin that throws is a `crash` finding with its message, never a stack trace.
          tameCrashes(files)
          return options.reporter ? (options.reporter as (files: VFile[], options: unknown) => string)(files, reporterOptions) : vfileReporter(withRelated(files), reporterOptions)
        },
        out: false,
        streamError: options.streamError ?? process.stderr,
        streamOut: options.streamOut ?? process.stdout
      },
      (error, code, context) => {
        if (error) return reject(error)
        const files = withRelated((context?.files ?? []) as VFile[])
        const failed = files.some((file) => file.messages.some((message) => message.fatal === true || (options.frail && message.fatal === false)))
        resolve({code: failed ? 1 : (code ?? 0), files})
      }
    )
  })
}

/**
 * The processor unified-engine would use for the file at `filePath`: `preset`'s plugins, then those of the nearest
 * `.piperc*` (or `pipe` field), with the configuration's settings merged over `settings`. Single-file commands use it
 * so that one configuration holds for every command; unified-engine's own loader finds and merges it.
 */
export async function configuredProcessor(preset: Preset, filePath: string, settings: Settings = {}, cwd = process.cwd()): Promise<Processor> {
  const {engine} = await import('unified-engine')
  let captured: Processor | undefined
  function capture(this: Processor) {
    captured = this
  }
  // An empty value: the engine configures the processor for this path and reads nothing.
  const probe = new VFile({path: filePath, value: '', cwd})
  return new Promise((resolve, reject) => {
    engine(
      {
        processor: unified(),
        files: [probe],
        cwd,
        rcName: '.piperc',
        packageField: 'pipe',
        pluginPrefix: 'pipe',
        detectConfig: true,
        detectIgnore: false,
        configTransform: checkConfig,
        plugins: [...(preset.plugins ?? []), [knownRules], [capture]] as PluggableList,
        settings: {...preset.settings, ...settings},
        out: false,
        silent: true,
        reporter: () => '',
        streamError: new PassThrough(),
        streamOut: new PassThrough()
      },
      (error) => {
        if (error) return reject(error)
        // A configuration that cannot be read or used (`{bad`, a severity `of`) is what the engine said of it.
        const refusal = probe.messages.find((message) => message.fatal)
        if (!captured) return reject(refusal?.cause instanceof Error ? refusal.cause : new Error(refusal?.reason ?? `No processor was configured for \`${filePath}\``))
        resolve(captured)
      }
    )
  })
}
