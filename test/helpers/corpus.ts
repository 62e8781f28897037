/**
 * The shared corpus of real API descriptions (`../shared/corpus`). Tests that read it skip, saying so, when it is
 * absent (a user's fresh clone); in CI (`APIPE_CI=1`) its absence fails the run.
 */
import {existsSync, readFileSync} from 'node:fs'
import path from 'node:path'
import {root} from './fixtures.js'

export const corpusDir = path.resolve(root, '..', 'shared', 'corpus')

/** Why corpus tests cannot run here, or undefined when they can. */
export function corpusMissing(): string | undefined {
  if (existsSync(path.join(corpusDir, 'MANIFEST.tsv'))) return undefined
  if (process.env.APIPE_CI === '1') throw new Error(`CI needs the corpus at ${corpusDir}`)
  return `no corpus at ${corpusDir}`
}

/** Rows of MANIFEST.tsv as objects keyed by its header. */
export function manifest(): Array<Record<string, string>> {
  const [header, ...rows] = readFileSync(path.join(corpusDir, 'MANIFEST.tsv'), 'utf8').trimEnd().split('\n')
  const keys = header.split('\t')
  return rows.map((row) => Object.fromEntries(row.split('\t').map((value, index) => [keys[index], value])))
}
