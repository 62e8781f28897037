/**
 * The size of the biggest input read so far, for the CLI: bin/pipe.js sizes V8's heap for batch commands by it (a
 * bigger young generation and an old generation let grow further for documents of megabytes, whose catalogue and
 * page are built of objects that outlive many collections; see the measurements there). A program that uses apipe
 * as a library keeps its own V8 flags.
 */

let hook: ((bytes: number) => void) | undefined
let biggest = 0

/** Set by bin/pipe.js for the batch commands: told the size of each input bigger than every one read before. */
export function setInputSizeHook(next: ((bytes: number) => void) | undefined): void {
  hook = next
  biggest = 0
}

/** Told the size of each input file read. */
export function inputRead(bytes: number): void {
  if (hook === undefined || bytes <= biggest) return
  biggest = bytes
  hook(bytes)
}
