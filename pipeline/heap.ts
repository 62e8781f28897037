/**
 * One full garbage collection before big inputs are parsed. V8 starts a process with a small limit for its old
 * generation; a command that parses and imports megabytes reaches it midway and stops for a full collection over
 * everything it has built so far. One made before the work, while the heap holds little more than the loaded CLI,
 * costs a few milliseconds and sets the limit from what survived it, so that the import runs without marking: `pipe
 * diff` of Stripe's 4 MB description and its edited copy ran ~30 ms faster and peaked 5 MB lower, Slack's 1.2 MB pair
 * ~8 ms faster; two inputs of 0.5 MB, which never reached the limit, took ~3 ms longer with it (bench/NOTES.md).
 * Below a mebibyte the collection is not worth its cost, and is skipped. The CLI says how to collect
 * (`setFullCollection`); a program that uses apipe as a library keeps its own heap, and `collectBeforeBigInput` then
 * does nothing.
 */

/** Inputs this big (in bytes, all together) fill the old generation past V8's first limit. */
export const bigInputBytes = 1024 * 1024

let collect: (() => void) | undefined

/** Set by bin/pipe.js for `pipe diff` (the batch commands collect once after loading, whatever their inputs). */
export function setFullCollection(next: (() => void) | undefined): void {
  collect = next
}

/** A full collection, when the CLI has said how and `bytes` of input are about to be parsed (see above). */
export function collectBeforeBigInput(bytes: number): void {
  if (collect !== undefined && bytes >= bigInputBytes) collect()
}
