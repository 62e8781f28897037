/**
 * Progress of long multi-file runs: on a terminal, `12/240 files` rewritten in place on stderr and cleared at the end;
 * when stderr is piped or a file, nothing at all, so logs and captured output stay exactly the report.
 */

/** Inputs below this count finish before progress would help. */
const minimum = 20

/** A callback to call after each file, or undefined when no progress is shown. */
export function progress(stream: NodeJS.WritableStream & {isTTY?: boolean}, total: number): ((done: number) => void) | undefined {
  if (!stream.isTTY || total < minimum) return undefined
  return (done) => {
    stream.write(done < total ? `\r${done}/${total} files` : '\r\u001b[2K')
  }
}
