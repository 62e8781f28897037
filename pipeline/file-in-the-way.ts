/**
 * A folder that could not be made because a file stands on its path (`mkdir`'s EEXIST or ENOTDIR: `docs/x.html` where
 * `docs` is a file, a database under `README.md/`): which file, so that a finding can say so in the user's terms.
 */
import {statSync} from 'node:fs'
import path from 'node:path'

/** The file on the way to `folder`, when `error` (of making it) is one that a file there causes; else undefined. */
export function fileInTheWay(error: unknown, folder: string): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code !== 'EEXIST' && code !== 'ENOTDIR') return undefined
  for (let at = path.resolve(folder); ; at = path.dirname(at)) {
    if (statSync(at, {throwIfNoEntry: false})?.isFile()) return at
    if (path.dirname(at) === at) return undefined
  }
}
