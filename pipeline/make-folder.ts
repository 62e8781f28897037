/**
 * Make a folder and the folders above it that are missing, one at a time. Node 20's own `mkdir` with `recursive`
 * never returns where the system refuses a folder whose parent exists with ENOENT, as under /proc (`pipe map x.json
 * --output /proc/x` ran at full CPU until killed): here that is the error it is, and the caller says it.
 */
import {mkdirSync, statSync} from 'node:fs'
import path from 'node:path'

export function makeFolder(folder: string): void {
  const missing: string[] = []
  for (let at = path.resolve(folder); statSync(at, {throwIfNoEntry: false}) === undefined; at = path.dirname(at)) {
    missing.push(at)
    if (path.dirname(at) === at) break
  }
  for (const at of missing.reverse()) {
    try {
      mkdirSync(at)
    } catch (error) {
      // Made by someone else meanwhile: as good as made here.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(at, {throwIfNoEntry: false})?.isDirectory()) throw error
    }
  }
}
