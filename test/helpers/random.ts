/** A deterministic generator of numbers in [0, 1), so that a failure of a test that draws from it can be run again. */
export function random(seed: number): () => number {
  let state = seed
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648
}
