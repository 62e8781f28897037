/**
 * Run a preset over inputs without the file-system engine: the programmatic API and single-file commands use this;
 * `pipe run` uses unified-engine (see engine.ts). A plugin that throws becomes a fatal finding on its file.
 */
import {unified, type Preset, type Processor, type Settings} from 'unified'
import type {Node} from 'unist'
import type {VFile} from 'vfile'
import {VFileMessage} from 'vfile-message'
import {readInput, type Input} from './read.js'
import {docsUrl, source} from './rule.js'
import {hasErrors, withRelated} from './data.js'

/** A frozen processor for `preset`, with extra `settings` merged over the preset's. */
export function createProcessor(preset: Preset, settings: Settings = {}): Processor<Node, Node, Node> {
  return unified()
    .use(preset)
    .use({settings})
    .freeze() as unknown as Processor<Node, Node, Node>
}

/** Parse and transform one vfile in place; returns it. Never throws for what is in the file. */
export async function processFile(processor: Processor<Node, Node, Node>, file: VFile): Promise<VFile> {
  await transformFile(processor, file)
  return file
}

/** Parse and transform one vfile in place; resolves to the transformed tree, or undefined when the file failed. */
export async function transformFile(processor: Processor<Node, Node, Node>, file: VFile): Promise<Node | undefined> {
  if (hasErrors(file)) return undefined
  try {
    return await processor.run(processor.parse(file), file)
  } catch (error) {
    if (error instanceof VFileMessage && file.messages.includes(error)) {
      error.fatal = true
    } else {
      const message = file.message(`Cannot process file: ${(error as Error)?.message ?? String(error)}`, {
        cause: error as Error,
        ruleId: 'crash',
        source
      })
      message.fatal = true
      message.url = `${docsUrl}#crash`
    }
    return undefined
  }
}

/** Options of {@link runPreset}. */
export interface RunOptions {
  /** Settings merged over the preset's (e.g. `{rules: {summary: 'off'}}`). */
  settings?: Settings
  /** Directory relative paths are read from (default: `process.cwd()`). */
  cwd?: string
}

/** Run a preset over files or in-memory values; resolves to the vfiles with their messages and `data.outputs`. */
export async function runPreset(preset: Preset, inputs: Input[], options: RunOptions = {}): Promise<VFile[]> {
  const processor = createProcessor(preset, options.settings)
  const files = await Promise.all(inputs.map((input) => readInput(input, options.cwd)))
  for (const file of files) await processFile(processor, file)
  // Files that plugins read for an input (and found problems in) are reported after it.
  return withRelated(files)
}
