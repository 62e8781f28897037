/**
 * Write what plugins produced (`file.data.outputs`) to disk: beside the input, or into `outputDir`. Outputs of a
 * file with an error are never written. A failed write is a fatal `write` finding on the input file.
 */
import {mkdir, writeFile} from 'node:fs/promises'
import path from 'node:path'
import type {VFile} from 'vfile'
import {hasErrors} from './data.js'
import {docsUrl, source} from './rule.js'

/** Options of {@link writeOutputs}. */
export interface WriteOptions {
  /** Directory to write into (default: each output's own path, which plugins set beside the input). */
  outputDir?: string
  /** Report each written file as an info message on its input (default: true). */
  announce?: boolean
}

/** Write the outputs of `files`; resolves to the paths written. */
export async function writeOutputs(files: VFile[], options: WriteOptions = {}): Promise<string[]> {
  const written: string[] = []
  for (const file of files) {
    if (hasErrors(file)) continue
    for (const output of file.data.outputs ?? []) {
      const target = options.outputDir
        ? path.resolve(output.cwd, options.outputDir, output.basename ?? 'output')
        : path.resolve(output.cwd, output.path)
      try {
        await mkdir(path.dirname(target), {recursive: true})
        await writeFile(target, output.value ?? '')
        written.push(target)
        if (options.announce !== false) file.info(`Wrote \`${shortPath(file.cwd, target)}\``, {ruleId: 'write', source})
      } catch (error) {
        const message = file.message(`Cannot write \`${target}\`: ${(error as Error).message}`, {ruleId: 'write', source})
        message.fatal = true
        message.url = `${docsUrl}#write`
      }
    }
  }
  return written
}

/** `target` relative to `cwd` when it is inside it, else absolute. */
function shortPath(cwd: string, target: string): string {
  const relative = path.relative(cwd, target)
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : target
}
