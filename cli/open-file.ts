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

/** What opening did: the opener used (undefined when there is none) and, when it failed, why. */
export interface Opened {
  opener: string | undefined
  failure?: string
}

/**
 * Open `file`; resolves once the opener has exited (xdg-open, open and start hand the file to the browser and exit),
 * with the reason when it could not be started or exited with a failure code.
 */
export function openFile(file: string): Promise<Opened> {
  const opener = findOpener()
  if (!opener) return Promise.resolve({opener})
  const child = opener === 'start' ? spawn('cmd', ['/c', 'start', '', file], {detached: true, stdio: 'ignore'}) : spawn(opener, [file], {detached: true, stdio: 'ignore'})
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({opener, failure: error.message}))
    child.on('exit', (code, signal) => resolve(code === 0 ? {opener} : {opener, failure: signal ? `stopped by ${signal}` : `exited with code ${code}`}))
  })
}
