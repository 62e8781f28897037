/**
 * JSON references (`$ref`) for importers, followed on demand: local pointers (`#/components/schemas/Pet`) and
 * relative files (`./schemas/thing.yaml#/Thing`), each file read once (JSON or YAML). A resolved node keeps the
 * last segment of its pointer as its name, so a referenced schema keeps its name as the type. Every object of a
 * loaded file remembers that file, so refs inside it resolve against it. Cycles and missing targets end in
 * `undefined`; a ref to a URL is named but never fetched (imports stay offline).
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {yaml} from '../../pipeline/lazy.js'

type Node = Record<string, unknown>

/** A node after resolution. */
export interface Resolved {
  /** The target, or undefined for a cycle, a missing target or a URL. */
  value: Node | undefined
  /** The last pointer segment of the last ref followed (`Pet`), or the file's name for a whole-file ref. */
  name?: string
  /** The URL of a ref that was not fetched. */
  external?: string
  /** A ref that led nowhere (a missing file or pointer, or a cycle of refs). */
  missing?: string
}

/** Follows `$ref`s from a root document. */
export class JsonRefs {
  private readonly documents = new Map<string, unknown>()
  private readonly homes = new WeakMap<object, string>()
  /** The target and name of each `file#pointer` followed so far: big documents point at the same schemas thousands of times. */
  private readonly targets = new Map<string, {node: unknown; name: string | undefined}>()
  private readonly rootFile: string

  constructor(root: unknown, rootFile: string | undefined) {
    this.rootFile = path.resolve(rootFile ?? 'document.json')
    this.documents.set(this.rootFile, root)
  }

  /** The value behind `node`, following chains of refs. */
  resolve(node: unknown): Resolved {
    let current = node
    let name: string | undefined
    let seen: Set<string> | undefined
    while (current && typeof current === 'object' && typeof (current as Node).$ref === 'string') {
      const ref = (current as {$ref: string}).$ref
      if (/^[a-z][\w+.-]*:\/\//i.test(ref)) {
        return {value: undefined, name: name ?? (lastSegment(ref.split('#')[1] ?? '') || path.basename(ref.split('#')[0]).replace(/\.\w+$/, '')), external: ref}
      }
      const [target, pointer = ''] = ref.split('#')
      const file = target ? path.resolve(path.dirname(this.homes.get(current as object) ?? this.rootFile), target) : (this.homes.get(current as object) ?? this.rootFile)
      const key = `${file}#${pointer}`
      seen ??= new Set()
      if (seen.has(key)) return {value: undefined, name, missing: ref}
      seen.add(key)
      let step = this.targets.get(key)
      if (!step) {
        step = {node: this.at(this.load(file), pointer), name: lastSegment(pointer) || (target ? path.basename(target).replace(/\.\w+$/, '') : undefined)}
        this.targets.set(key, step)
      }
      name = step.name ?? name
      current = step.node
      if (current === undefined || current === null) return {value: undefined, name, missing: ref}
    }
    return {value: current && typeof current === 'object' ? (current as Node) : undefined, name}
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
      this.remember(document, file)
    }
    return this.documents.get(file)
  }

  private remember(node: unknown, file: string) {
    if (!node || typeof node !== 'object' || this.homes.has(node)) return
    this.homes.set(node, file)
    for (const child of Object.values(node)) this.remember(child, file)
  }

  private at(document: unknown, pointer: string): unknown {
    let node = document
    for (const raw of pointer.split('/').slice(1)) node = node && typeof node === 'object' ? (node as Node)[unescape(raw)] : undefined
    return node
  }
}

function lastSegment(pointer: string): string {
  return unescape(pointer.split('/').pop() ?? '')
}

function unescape(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~')
}
