/**
 * Hot loops and V8's optimising compiler. Batch commands hand a function to TurboFan only after six times V8's
 * default budget of bytecode run (bin/pipe.js): most of a command's code runs too briefly to repay a compile that
 * takes the second of two cores. A reader's loop over every line of a big file is the exception, and runs with V8's
 * own budget, so that its few hot functions are compiled while most of the file is still to read (Stripe's 3 MB
 * YAML, read inside `pipe map`: median 102 -> 96 ms; bench/NOTES.md). The CLI says how (`setHotCode`); a program
 * that uses apipe as a library keeps its own V8 flags, and `hotCode` then only runs what it is given.
 */

/** What the CLI does around a hot loop: `enter` before it, `leave` after it. */
export interface HotCodeHooks {
  enter(): void
  leave(): void
}

let hooks: HotCodeHooks | undefined

/** Set by bin/pipe.js for the batch commands. */
export function setHotCode(next: HotCodeHooks | undefined): void {
  hooks = next
}

/** `run()`, with the CLI's hooks around it when it has set some. */
export function hotCode<T>(run: () => T): T {
  if (hooks === undefined) return run()
  hooks.enter()
  try {
    return run()
  } finally {
    hooks.leave()
  }
}
