/**
 * Run a preset over inputs without the file-system engine: the programmatic API and single-file commands use this;
 * `pipe run` uses unified-engine (see engine.ts). A plugin that throws becomes a fatal finding on its file.
 */
import {unified, type Preset, type Processor, type Settings} from 'unified'
import type {Node} from 'unist'
import type {VFile} from 'vfile'
import {readInput, type Input} from './read.js'
import {docsUrl, source} from './rule.js'
import {hasErrors, withRelated} from './data.js'
import path from 'node:path'
import {findConfig} from './config-probe.js'
import {crashReason} from './crash.js'
import {knownRules} from './rule-settings.js'

export {crashReason} from './crash.js'


/** A frozen processor for `preset`, with extra `settings` merged over the preset's. */
export function createProcessor(preset: Preset, settings: Settings = {}): Processor<Node, Node, Node> {
  return unified()
    .use(preset)
    .use({settings})
    .use(knownRules)
    .freeze() as unknown as Processor<Node, Node, Node>
}

/** Parse and transform one vfile in place; returns it. Never throws for what is in the file. */
export async function processFile(processor: Processor<Node, Node, Node>, file: VFile): Promise<VFile> {
  await transformFile(processor, file)
  return file
}

/** Parsers that take a file's bytes as they were read, marked by `readsBytes`. */
const byteParsers = new WeakSet<object>()

/**
 * Mark `parser` as one that takes a file's bytes as well as its text: `transformFile` then gives it the bytes that
 * `readInput` read, where unified's `parse` would decode them into a string first (the parse plugin hands a YAML
 * file's bytes to the block reader undecoded, plugins/shared/block-yaml.ts).
 */
export function readsBytes<Parser extends (source: string | Uint8Array, file: VFile) => Node>(parser: Parser): Parser {
  byteParsers.add(parser)
  return parser
}

/** `processor.parse(file)`, with the bytes undecoded for a parser that `readsBytes`. */
function parseFile(processor: Processor<Node, Node, Node>, file: VFile): Node {
  const parser = processor.parser as ((source: string | Uint8Array, file: VFile) => Node) | undefined
  if (parser && byteParsers.has(parser) && file.value instanceof Uint8Array) return parser(file.value, file)
  return processor.parse(file)
}

/** Parse and transform one vfile in place; resolves to the transformed tree, or undefined when the file failed. */
export async function transformFile(processor: Processor<Node, Node, Node>, file: VFile): Promise<Node | undefined> {
  if (hasErrors(file)) return undefined
  try {
    return await processor.run(parseFile(processor, file), file)
  } catch (error) {
    crashed(file, error)
    return undefined
  }
}

/** Transform an already parsed `tree` of `file`; resolves to the new tree, or undefined when the file failed. */
export async function transformTree(processor: Processor<Node, Node, Node>, tree: Node, file: VFile): Promise<Node | undefined> {
  if (hasErrors(file)) return undefined
  try {
    return await processor.run(tree, file)
  } catch (error) {
    crashed(file, error)
    return undefined
  }
}

/** What a stage threw becomes a fatal finding: its own message when it is one, else a `crash` finding. */
function crashed(file: VFile, error: unknown): void {
  // Identity, not class: a plugin may make its finding with another copy of vfile-message than the CLI's bundled one.
  const own = file.messages.find((message) => message === error)
  if (own) {
    own.fatal = true
    return
  }
  const message = file.message(`Cannot process file: ${crashReason(error)}`, {cause: error as Error, ruleId: 'crash', source})
  message.fatal = true
  message.url = `${docsUrl}#crash`
}

/** Options of {@link runPreset}. */
export interface RunOptions {
  /** Settings merged over the preset's (e.g. `{rules: {summary: 'off'}}`). */
  settings?: Settings
  /** Directory relative paths are read from (default: `process.cwd()`). */
  cwd?: string
  /**
   * Apply the nearest `.piperc*` (or `pipe` field of package.json) to each input, as `pipe run` does (default: false;
   * the CLI's commands set it). unified-engine, which finds and loads it, is imported only when one exists.
   */
  config?: boolean
  /** Called after each input with the number done, e.g. for progress on a terminal. */
  onFile?: (done: number) => void
}

/**
 * A processor for `preset` with `settings`, plus, with `config`, the configuration nearest to `filePath` (a file's
 * folder, or `cwd` for stdin). Configured processors are cached per configuration file.
 */
export async function processorFor(preset: Preset, filePath: string | undefined, options: RunOptions & {cache?: Map<string, Promise<Processor>>} = {}): Promise<Processor<Node, Node, Node>> {
  const cwd = options.cwd ?? process.cwd()
  const configFile = options.config ? findConfig(filePath ? path.dirname(path.resolve(cwd, filePath)) : cwd) : undefined
  if (!configFile) return createProcessor(preset, options.settings)
  const cache = options.cache ?? new Map()
  let processor = cache.get(configFile)
  if (!processor) {
    const {configuredProcessor} = await import('./engine.js')
    processor = configuredProcessor(preset, filePath ?? path.join(cwd, 'stdin'), options.settings, cwd)
    cache.set(configFile, processor)
  }
  return (await processor) as unknown as Processor<Node, Node, Node>
}

/**
 * Parse and transform the read `file` with `preset` and the configuration that applies to it; resolves to its tree,
 * or undefined when it failed. A configuration that cannot be read or used is a finding on the file, as `pipe run`
 * says it.
 */
export async function transformInput(preset: Preset, file: VFile, options: RunOptions & {cache?: Map<string, Promise<Processor>>} = {}): Promise<Node | undefined> {
  let processor: Processor<Node, Node, Node>
  try {
    processor = await processorFor(preset, file.path, options)
  } catch (error) {
    crashed(file, error)
    return undefined
  }
  return transformFile(processor, file)
}

/** Run a preset over files or in-memory values; resolves to the vfiles with their messages and `data.outputs`. */
export async function runPreset(preset: Preset, inputs: Input[], options: RunOptions = {}): Promise<VFile[]> {
  const files = await Promise.all(inputs.map((input) => readInput(input, options.cwd)))
  const cache = new Map<string, Promise<Processor>>()
  for (const [index, file] of files.entries()) {
    await transformInput(preset, file, {...options, cache})
    options.onFile?.(index + 1)
  }
  // Files that plugins read for an input (and found problems in) are reported after it.
  return withRelated(files)
}
