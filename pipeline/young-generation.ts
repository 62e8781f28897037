/**
 * V8's young generation for very large inputs. Batch commands keep it at its first size, 1 MB a semi-space
 * (bin/pipe.js), which holds their peak memory down on the documents of a few megabytes that most APIs are. On a
 * document of 16 MB or more, its catalogue and page are built of objects that outlive many collections of so small a
 * space: `pipe map` of Microsoft Graph's 20 MB description made 848 scavenges (538 ms, a fifth of the run); with the
 * young generation let grow, 54, and the run took 341 ms less for 41 MB more (its 47 MB beta: −912 ms, +30 MB), where
 * `redocly build-docs` peaks at 867 MB. Below that size the trade is worse: GitHub's 13 MB description −33 ms for
 * +47 MB, past half of redocly's memory; loket.nl's 6 MB, nothing for +30 MB (bench/NOTES.md). The CLI says how
 * (`setLargeInput`); a program that uses apipe as a library keeps its own V8 flags.
 */

/** The size from which an input counts as very large. */
export const largeInputBytes = 16 * 1024 * 1024

let grow: (() => void) | undefined

/** Set by bin/pipe.js for the batch commands: what to do once, when the first very large input is read. */
export function setLargeInput(hook: (() => void) | undefined): void {
  grow = hook
}

/** Told the size of each input file read. */
export function inputRead(bytes: number): void {
  if (bytes < largeInputBytes || grow === undefined) return
  grow()
  grow = undefined
}
