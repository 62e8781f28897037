/** Open a file with the system's opener (`xdg-open`, `open`, `start`), if this machine has one. */
import {spawn} from 'node:child_process'
import {accessSync, constants} from 'node:fs'
import path from 'node:path'

/** The opener command for this platform, or undefined when none is installed. */
export function findOpener(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (process.platform === 'win32') return 'start'
  const name = process.platform === 'darwin' ? 'open' : 'xdg-open'
  for (const directory of (env.PATH ?? '').split(path.delimiter)) {
    try {
      accessSync(path.join(directory, name), constants.X_OK)
      return name
    } catch {
      // Not in this directory.
    }
  }
  return undefined
}

/** Open `file`; resolves to the opener used, or undefined when there is none. */
export function openFile(file: string): string | undefined {
  const opener = findOpener()
  if (!opener) return undefined
  const child = opener === 'start' ? spawn('cmd', ['/c', 'start', '', file], {detached: true, stdio: 'ignore'}) : spawn(opener, [file], {detached: true, stdio: 'ignore'})
  child.on('error', () => {})
  child.unref()
  return opener
}
