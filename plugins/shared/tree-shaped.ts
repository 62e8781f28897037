/**
 * Documents known to be trees: each object and list in them is held at one place only, as `JSON.parse` and the
 * block-YAML reader build them. YAML's aliases can put one object at several places, even inside itself, so what
 * js-yaml and the `yaml` package build is not taken for one. A walk through a tree meets each node once and needs no
 * record of where it has been (see `JsonRefs.followAll`).
 */
const trees = new WeakSet<object>()

/** `document`, known from now on to be a tree. */
export function treeShaped<T>(document: T): T {
  if (typeof document === 'object' && document !== null) trees.add(document)
  return document
}

/** Whether `document` was built as a tree (see {@link treeShaped}). */
export function isTreeShaped(document: unknown): boolean {
  return typeof document === 'object' && document !== null && trees.has(document)
}
