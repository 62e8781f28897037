/**
 * Validate spec files with the `validate` preset. With configuration in reach (`.piperc*`, a `pipe` field) the files
 * go through unified-engine so that its plugins and rule settings apply; without, straight through the processor.
 */
import path from 'node:path'
import {VFile} from 'vfile'
import {findConfig} from '../pipeline/config-probe.js'
import {runPreset} from '../pipeline/process.js'
import {checkFile} from '../pipeline/read.js'
import validate from '../presets/validate.js'

/** Validate spec files; missing files and folders become `read` findings. */
export async function validateFiles(paths: string[]): Promise<VFile[]> {
  const files: VFile[] = []
  for (const specPath of paths) {
    const checked = new VFile({path: specPath})
    if (!(await checkFile(checked))) {
      files.push(checked)
      continue
    }
    if (await findConfig(path.dirname(path.resolve(specPath)))) {
      const {runEngine} = await import('../pipeline/engine.js')
      const {files: processed} = await runEngine({preset: validate, files: [specPath], silent: true, reporter: () => ''})
      files.push(...processed)
    } else {
      files.push(...(await runPreset(validate, [specPath])))
    }
  }
  return files
}
