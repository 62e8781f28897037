/**
 * The catalogues a document asks about, from the `catalogue` setting: one path, a list of paths, or names mapped to
 * paths. Each is read, validated and turned into sentences by the same plugins as the `catalogue` preset.
 */
import path from 'node:path'
import type {Settings} from 'unified'
import type {VFile} from 'vfile'
import {ApipeError, show} from '../../pipeline/errors.js'
import {createProcessor, transformFile} from '../../pipeline/process.js'
import {readInput} from '../../pipeline/read.js'
import parse from '../parse.js'
import sentenceGenerate from '../sentence-generate.js'
import validateCatalogue from '../validate-catalogue/index.js'
import type {CatalogueTree} from '../../pipeline/data.js'

/** The `catalogue` setting. */
export type CatalogueSetting = string | string[] | Record<string, string>

/** A catalogue to load: the name templates use (`catalogues.<name>`) and its path. */
export interface CatalogueRef {
  name: string
  path: string
}

/** A loaded catalogue: its vfile (with findings and `data.endpoints`) and its spec. */
export interface LoadedCatalogue extends CatalogueRef {
  file: VFile
  tree?: CatalogueTree
}

/** Normalise the setting; throws an `APIPE_ERR_OPTION` for a value of the wrong shape. */
export function catalogueRefs(setting: unknown): CatalogueRef[] {
  if (setting === undefined) return []
  const named = (file: string) => ({name: nameOf(file), path: file})
  if (typeof setting === 'string') return [named(setting)]
  if (Array.isArray(setting) && setting.every((item) => typeof item === 'string')) return setting.map(named)
  if (setting && typeof setting === 'object' && Object.values(setting).every((item) => typeof item === 'string')) {
    return Object.entries(setting as Record<string, string>).map(([name, file]) => ({name, path: file}))
  }
  throw new ApipeError('APIPE_ERR_OPTION', [show(setting), 'catalogue', 'a path, a list of paths, or names mapped to paths'])
}

/** `shop.endpoints.json` -> `shop`. */
function nameOf(file: string): string {
  return path.basename(file).replace(/(\.endpoints)?\.(json|ya?ml)$/i, '')
}

/**
 * Read, validate and compute the sentences of each catalogue (paths relative to `cwd`), with the calling processor's
 * `settings`, so that a rule turned off for the document is off for the catalogues it reads.
 */
export async function loadCatalogues(refs: CatalogueRef[], cwd: string, settings: Settings = {}): Promise<LoadedCatalogue[]> {
  const processor = createProcessor({plugins: [[parse], [validateCatalogue], [sentenceGenerate]]}, settings)
  return Promise.all(
    refs.map(async (ref) => {
      const file = await readInput(ref.path, cwd)
      const tree = (await transformFile(processor, file)) as CatalogueTree | undefined
      return {...ref, file, tree: tree?.type === 'catalogue' ? tree : undefined}
    })
  )
}
