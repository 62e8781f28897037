/**
 * `$ref` resolution for AsyncAPI documents: local pointers (`#/components/messages/x`) and relative files
 * (`../common/messages.yaml#/userSignedUp`), loaded once each. A resolved node remembers the last segment of its
 * pointer as its name, so a referenced schema keeps its name as the type. Cycles and missing targets end in
 * `undefined`, never a loop.
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {yaml} from '../../pipeline/lazy.js'

/** A node after resolution: its value, its name (when it came through a `$ref`) and the file it lives in. */
export interface Resolved {
  value: unknown
  name?: string
  file: string
  /** A reference to a URL, which is not fetched (the import stays offline). */
  external?: string
}

/** Resolves references against a root document and the files it names. */
export class RefResolver {
  private readonly documents = new Map<string, unknown>()
  private readonly homes = new WeakMap<object, string>()

  constructor(root: unknown, rootFile: string) {
    this.documents.set(path.resolve(rootFile), root)
  }

  /** The file an object was loaded from (for refs relative to it). */
  fileOf(node: unknown, fallback: string): string {
    return node && typeof node === 'object' ? (this.homes.get(node) ?? fallback) : fallback
  }

  /** Follow `$ref`s from `node` (found in `file`) to a value. */
  resolve(node: unknown, file: string, seen = new Set<string>()): Resolved {
    if (!node || typeof node !== 'object' || typeof (node as {$ref?: unknown}).$ref !== 'string') return {value: node, file}
    const ref = (node as {$ref: string}).$ref
    if (/^[a-z][\w+.-]*:\/\//i.test(ref)) {
      return {value: undefined, name: decodeURIComponent(ref.split(/[#/]/).filter(Boolean).pop() ?? '').replace(/\.\w+$/, '') || undefined, file, external: ref}
    }
    const [target, pointer = ''] = ref.split('#')
    const targetFile = target ? path.resolve(path.dirname(file), target) : path.resolve(file)
    const key = `${targetFile}#${pointer}`
    if (seen.has(key)) return {value: undefined, file: targetFile}
    seen.add(key)
    const value = this.at(this.load(targetFile), pointer)
    if (value && typeof value === 'object') this.homes.set(value, targetFile)
    const name = decodeURIComponent(pointer.split('/').pop() ?? '').replace(/~1/g, '/').replace(/~0/g, '~') || undefined
    const next = this.resolve(value, targetFile, seen)
    return {...next, name: next.name ?? name ?? (target ? path.basename(target).replace(/\.\w+$/, '') : undefined)}
  }

  private load(file: string): unknown {
    if (!this.documents.has(file)) {
      let document: unknown
      try {
        document = yaml().parse(readFileSync(file, 'utf8'), {uniqueKeys: false, strict: false})
      } catch {
        document = undefined
      }
      this.documents.set(file, document)
    }
    return this.documents.get(file)
  }

  private at(document: unknown, pointer: string): unknown {
    let node = document
    for (const raw of pointer.split('/').slice(1)) {
      const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~')
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined
    }
    return node
  }
}
