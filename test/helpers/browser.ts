/**
 * Headless Chromium for page tests: Debian's `chromium` driven by playwright-core. Without it the tests skip and
 * say why, except in CI (`APIPE_CI=1`), where a missing browser fails the run.
 */
import {existsSync} from 'node:fs'
import type {Browser} from 'playwright-core'

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Why browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  if (existsSync(chromiumPath)) return undefined
  const reason = `no Chromium at ${chromiumPath} (apt-get install chromium)`
  if (process.env.APIPE_CI === '1') throw new Error(`CI needs the browser tests: ${reason}`)
  return reason
}

/** Launch headless Chromium with the flags this closed network needs. */
export async function launch(): Promise<Browser> {
  const {chromium} = await import('playwright-core')
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
  })
}
