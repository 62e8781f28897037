/** Run the `validate` preset through the engine (so `.piperc*` rule settings apply) and collect the vfiles. */
import {VFile} from 'vfile'
import {checkFile} from '../pipeline/read.js'
import {runEngine} from '../pipeline/engine.js'
import {presets} from '../presets/index.js'

/** Validate spec files; missing files and folders become `read` findings. */
export async function validateFiles(paths: string[]): Promise<VFile[]> {
  const files: VFile[] = []
  for (const specPath of paths) {
    const checked = new VFile({path: specPath})
    if (!(await checkFile(checked))) {
      files.push(checked)
      continue
    }
    const {files: processed} = await runEngine({preset: presets.validate, files: [specPath], silent: true, reporter: () => ''})
    files.push(...processed)
  }
  return files
}
