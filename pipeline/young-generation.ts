/**
 * V8's young generation for big inputs. Batch commands keep it at its first size, 1 MB a semi-space (bin/pipe.js),
 * which holds their peak memory down on the documents of a few megabytes that most APIs are. A bigger document's
 * catalogue and page are built of objects that outlive many collections of so small a space, and each collection
 * copies them again:
 *
 * - from 5 MB, the young generation is made 4 MB a semi-space, once: `pipe map` of loket.nl's 6 MB description took
 *   ~79 ms less for ~7 MB more, GitHub's 13 MB one ~70 ms less for ~9 MB more (8 MB a semi-space: no faster, more
 *   memory); below that size the trade is worse (Kubernetes' 4 MB: −24 ms for +10 MB, Stripe's 4 MB: nothing for
 *   +8 MB);
 * - from 16 MB, it is let grow as V8 would: Microsoft Graph's 20 MB description made 848 scavenges (538 ms, a fifth
 *   of the run); let grow, 54, and the run took 341 ms less for 41 MB more (its 47 MB beta: −912 ms, +30 MB), where
 *   `redocly build-docs` peaks at 867 MB.
 *
 * The measurements are in bench/NOTES.md. The CLI says how (`setLargeInput`); a program that uses apipe as a library
 * keeps its own V8 flags.
 */

/** The size from which an input counts as big. */
export const bigInputBytes = 5 * 1024 * 1024

/** The size from which an input counts as very large. */
export const largeInputBytes = 16 * 1024 * 1024

/** How big the biggest input read so far is. */
export type InputSize = 'big' | 'large'

let hook: ((size: InputSize) => void) | undefined
let reached: InputSize | undefined

/** Set by bin/pipe.js for the batch commands: what to do when the first big, then the first very large input is read. */
export function setLargeInput(next: ((size: InputSize) => void) | undefined): void {
  hook = next
  reached = undefined
}

/** Told the size of each input file read. */
export function inputRead(bytes: number): void {
  if (hook === undefined || reached === 'large' || bytes < bigInputBytes) return
  const size = bytes >= largeInputBytes ? 'large' : 'big'
  if (size === reached) return
  reached = size
  hook(size)
}
