/**
 * Make a folder and the folders above it that are missing, one at a time. Node 20's own `mkdir` with `recursive`
 * never returns where the system refuses a folder whose parent exists with ENOENT, as under /proc (`pipe map x.json
 * --output /proc/x` ran at full CPU until killed): here that is the error it is, and the caller says it.
 */
import {mkdirSync, statSync} from 'node:fs'
import path from 'node:path'

export function makeFolder(folder: string): void {
  const missing: string[] = []
  let at = path.resolve(folder)
  let found
  while ((found = statSync(at, {throwIfNoEntry: false})) === undefined && path.dirname(at) !== at) {
    missing.push(at)
    at = path.dirname(at)
  }
  // A file where the folder itself should be: mkdir's EEXIST, as the recursive one says it (a file further up gives
  // ENOTDIR below, when the first missing folder is made in it).
  if (missing.length === 0 && !found?.isDirectory()) mkdirSync(at)
  for (const next of missing.reverse()) {
    try {
      mkdirSync(next)
    } catch (error) {
      // Made by someone else meanwhile: as good as made here.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(next, {throwIfNoEntry: false})?.isDirectory()) throw error
    }
  }
}
