/**
 * Whether any apipe configuration applies to a folder: a `.piperc*` file or a `pipe` field in a package.json, in the
 * folder or above it. Single-file commands use this to load the configuration engine (unified-engine, which costs
 * ~170 ms to import) only when there is configuration to load; the result is the same either way.
 */
import {readdir, readFile} from 'node:fs/promises'
import path from 'node:path'

/** Names unified-engine looks for with `rcName: '.piperc'`. */
const rcNames = new Set(['.piperc', '.piperc.json', '.piperc.js', '.piperc.cjs', '.piperc.mjs', '.piperc.yaml', '.piperc.yml'])

/** The first config file found from `directory` upwards, or undefined. */
export async function findConfig(directory: string): Promise<string | undefined> {
  for (let current = path.resolve(directory); ; current = path.dirname(current)) {
    const names = await readdir(current).catch(() => [] as string[])
    const rc = names.find((name) => rcNames.has(name))
    if (rc) return path.join(current, rc)
    if (names.includes('package.json')) {
      const manifest = await readFile(path.join(current, 'package.json'), 'utf8').catch(() => '{}')
      try {
        if (Object.hasOwn(JSON.parse(manifest), 'pipe')) return path.join(current, 'package.json')
      } catch {
        // A broken package.json is not configuration of ours.
      }
    }
    if (path.dirname(current) === current) return undefined
  }
}
