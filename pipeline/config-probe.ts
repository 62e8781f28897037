/**
 * Whether any apipe configuration applies to a folder: a `.piperc*` file or a `pipe` field in a package.json, in the
 * folder or above it. Single-file commands use this to load the configuration engine (unified-engine, which costs
 * ~170 ms to import) only when there is configuration to load; the result is the same either way.
 */
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'

/** Names unified-engine looks for with `rcName: '.piperc'`. */
const rcNames = new Set(['.piperc', '.piperc.json', '.piperc.js', '.piperc.cjs', '.piperc.mjs', '.piperc.yaml', '.piperc.yml'])

/** The first config file found from `directory` upwards, or undefined. */
export function findConfig(directory: string): string | undefined {
  for (let current = path.resolve(directory); ; current = path.dirname(current)) {
    const names = listing(current)
    const rc = names.find((name) => rcNames.has(name))
    if (rc) return path.join(current, rc)
    if (names.includes('package.json')) {
      try {
        if (Object.hasOwn(JSON.parse(readFileSync(path.join(current, 'package.json'), 'utf8')), 'pipe')) return path.join(current, 'package.json')
      } catch {
        // An unreadable or broken package.json is not configuration of ours.
      }
    }
    if (path.dirname(current) === current) return undefined
  }
}

/** The names in a folder; none when it cannot be read. */
function listing(directory: string): string[] {
  try {
    return readdirSync(directory)
  } catch {
    return []
  }
}
