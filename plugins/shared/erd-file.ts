/**
 * The ERD a catalogue names in `meta.erd`: an output of the same run when there is one (`pipe map` writes
 * `api.erd.json` beside the catalogue it maps), else the file at that path relative to the catalogue. Read once per
 * file, for the `unknown-table` rule and the page's entity panel alike.
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import type {VFile} from 'vfile'
import {loadValidator} from '../../pipeline/schemas.js'
import type {Catalogue} from '../../schemas/types/endpoints.js'
import type {Erd} from '../../schemas/types/erd.js'

/** The ERD, or why it cannot be read. */
export type ErdLookup = {erd: Erd; problem?: undefined} | {erd?: undefined; problem: string}

const cache = new WeakMap<VFile, ErdLookup | undefined>()

/** The ERD that `spec.meta.erd` names, undefined when it names none. */
export function erdFile(spec: Catalogue, file: VFile): ErdLookup | undefined {
  if (cache.has(file)) return cache.get(file)
  const relative = spec.meta?.erd
  const lookup = typeof relative === 'string' && relative !== '' ? load(relative, file) : undefined
  cache.set(file, lookup)
  return lookup
}

function load(relative: string, file: VFile): ErdLookup {
  const output = file.data.outputs?.find((candidate) => path.basename(candidate.path) === path.basename(relative) && candidate.data.json !== undefined)
  if (output) return checked(output.data.json, relative)
  if (!file.path) return {problem: `Cannot read ERD \`${relative}\`: the catalogue has no folder to resolve it from`}
  const full = path.resolve(file.cwd, path.dirname(file.path), relative)
  try {
    return checked(JSON.parse(readFileSync(full, 'utf8')) as unknown, relative)
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as NodeJS.ErrnoException).code === 'EISDIR' ? 'a folder' : (error as Error).message
    return {problem: `Cannot read ERD \`${relative}\`: ${reason}`}
  }
}

/** The ERD when it keeps its contract (`schemas/erd.schema.json`), else what is wrong with it. */
function checked(value: unknown, relative: string): ErdLookup {
  const validate = loadValidator('erd')
  if (validate(value)) return {erd: value as Erd}
  const [first] = validate.errors ?? []
  return {problem: `Unexpected ERD \`${relative}\`, expected a spec of schemas/erd.schema.json (${first ? `${first.instancePath || '/'} ${first.message ?? ''}`.trim() : 'invalid'})`}
}
