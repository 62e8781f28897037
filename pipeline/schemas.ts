/** Access to the JSON Schemas in `schemas/`, from the sources (tsx) and from `dist/` alike. */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
// `pipeline/` in the sources, `dist/pipeline/` when built: the package root is one or two levels up.
const root = path.basename(path.dirname(here)) === 'dist' ? path.resolve(here, '../..') : path.resolve(here, '..')

/** The package root (where package.json is). */
export const packageRoot = root

/** Read `schemas/<name>.schema.json`. */
export function loadSchema(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(root, 'schemas', `${name}.schema.json`), 'utf8'))
}
