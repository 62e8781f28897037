/**
 * Tests that need something this machine may lack (Chromium, ../shared/corpus, a database server, the full reliability
 * run): registered as skipped when it is missing, so uvu counts them under "Skipped", never under "Passed", and the
 * reason is printed once.
 */
import type {Callback, Test} from 'uvu'

/** Register `name` on `suite`, or as skipped with `missing` as the reason. */
export function testWhen<T>(suite: Test<T>, missing: string | undefined, name: string, run: Callback<T>): void {
  if (!missing) return suite(name, run)
  console.log(`  skipped "${name}": ${missing}`)
  suite.skip(name, run)
}
