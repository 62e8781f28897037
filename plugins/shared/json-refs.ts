/**
 * JSON references (`$ref`) for importers, followed on demand wherever they sit: local pointers
 * (`#/components/schemas/Pet`), relative files (`./schemas/thing.yaml#/Thing`, `../../shared/x.yml#/Y`, resolved
 * against the file that holds the ref), each file read once (JSON or YAML, parsed with the fast parsers; any other
 * extension, such as a Markdown description, is its text). A resolved node keeps a name for its type: the last
 * segment of its pointer, or for a whole-file ref the schema's `title` when it is a usable name, else the file's
 * name. Cycles and missing targets end in `undefined` and are remembered in `broken` at every place such a ref is
 * written, with its file and node; a ref to a URL is named but never fetched (imports stay offline).
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import type {VFile} from 'vfile'
import type {JsonPath} from '../../pipeline/json-path.js'
import {loadData} from './load-data.js'
import {isTreeShaped} from './tree-shaped.js'

declare module 'vfile' {
  interface DataMap {
    /**
     * How to read the files a document's `$ref`s lead to (absolute paths), when not from disk: a document read from
     * git reads them from the same revision (see pipeline/git.ts).
     */
    readRef: (file: string) => string
  }
}

type Node = Record<string, unknown>

/** A node after resolution. */
export interface Resolved {
  /** The target object, or undefined for a cycle, a missing target, a URL or a scalar. */
  value: Node | undefined
  /** The name of the last ref followed (`Pet`; a file's schema title or the file's name for a whole-file ref). */
  name?: string
  /** The URL of a ref that was not fetched. */
  external?: string
  /** A ref that led nowhere (a missing file or pointer, or a cycle of refs). */
  missing?: string
}

/** A ref that leads nowhere, where it is written. */
export interface BrokenRef {
  ref: string
  /** Absolute path of the file that holds the ref. */
  file: string
  /** Why it cannot be followed. */
  reason: string
  /** The object holding `$ref`. */
  node: object
}

/** One `$ref` followed: the node it points at and the name it gives, or why it leads nowhere. */
interface Step {
  node: unknown
  name: string | undefined
  reason?: string
  /** Whether the node is in the root file where a walk through its structure arrives (see `followAll`). */
  walkedInRoot: boolean
}

/** Where a chain of refs ends: what `resolve` answers, and the target whatever it is. */
interface Followed extends Resolved {
  target: unknown
  /** Whether the target is in the root file where a walk through its structure arrives (see `followAll`). */
  walkedInRoot?: boolean
}

const urlPattern = /^[a-z][\w+.-]*:\/\//i
const usableName = /^[A-Za-z_][\w.-]*$/

/** Follows `$ref`s from a root document. */
export class JsonRefs {
  /** Refs that lead nowhere, by the object that holds each (every place a broken ref is written), in the order met. */
  readonly broken = new Map<object, BrokenRef>()
  private readonly documents = new Map<string, unknown>()
  private readonly texts = new Map<string, string>()
  private readonly homes = new WeakMap<object, string>()
  /** The target and name of each pointer followed so far, by file: big documents point at the same schemas thousands of times. */
  private readonly targets = new Map<string, Map<string, Step>>()
  private readonly followed = new Map<object, Followed>()
  /**
   * Where each ref written in the root file leads, when it leads somewhere: big documents write the same ref
   * thousands of times (Stripe: ~3,500 refs to ~1,100 places), each its own object to follow. A ref that leads
   * nowhere is followed again, so that `broken` holds every place it is written.
   */
  private readonly rootChains = new Map<string, Followed>()
  /** The refs being followed right now: a pointer through one of them to itself is a cycle. */
  private readonly pending = new Set<object>()
  private readonly files = new Map<string, string>()
  readonly rootFile: string

  /** @param read reads another file (absolute path) as text; throws when it cannot (default: from disk). */
  constructor(
    root: unknown,
    rootFile: string | undefined,
    private readonly read: (file: string) => string = readText
  ) {
    this.rootFile = path.resolve(rootFile ?? 'document.json')
    this.documents.set(this.rootFile, root)
  }

  /** The refs of `document`, the content of `file`: resolved from its path, other files read as `file.data.readRef` says. */
  static of(document: unknown, file: VFile): JsonRefs {
    return new JsonRefs(document, file.path ? path.resolve(file.cwd, file.path) : undefined, file.data.readRef)
  }

  /**
   * The object behind `node`, following chains of refs. Asked for nearly every schema of a document, several times
   * each: a ref's answer is made once and kept, and a node without a ref needs no lookup.
   */
  resolve(node: unknown): Resolved {
    if (!node || typeof node !== 'object') return nothing
    if (typeof (node as Node).$ref !== 'string') return Array.isArray(node) ? nothing : {value: node as Node}
    return this.follow(node)
  }

  /** Whatever `node` leads to, following chains of refs: an object, a list, a scalar, or undefined when nothing. */
  target(node: unknown): unknown {
    return this.follow(node).target
  }

  /** The text behind `node`: a string, or a ref to one (a description kept in a Markdown file). */
  text(node: unknown): string | undefined {
    const {target} = this.follow(node)
    return typeof target === 'string' && target.trim() !== '' ? target : undefined
  }

  /** The file (absolute path) a node was read from. */
  fileOf(node: object): string {
    return this.homes.get(node) ?? this.rootFile
  }

  /** A `$ref` to `ref` as if written beside `node`, in its file (a discriminator's mapping names targets as strings). */
  refBeside(node: object, ref: string): Node {
    const holder = {$ref: ref}
    this.homes.set(holder, this.fileOf(node))
    return holder
  }

  /**
   * The parsed documents read so far, by absolute path (the root first). A file that could not be read is not
   * among them: GitHub's description names three YAML files it does not ship, and it is still one file to check.
   */
  loaded(): Map<string, unknown> {
    return new Map([...this.documents].filter(([, document]) => document !== undefined))
  }

  /** The source text of a file read so far (not the root's). */
  sourceOf(file: string): string | undefined {
    return this.texts.get(file)
  }

  /** The JSON path of `node` inside its file (only for findings; for several nodes, {@link pathsOf} walks once). */
  pathOf(node: object): JsonPath {
    return this.pathsOf([node])[0]
  }

  /**
   * The JSON path of each of `nodes` inside its file (`[]` for one not found), by one walk of each file that holds
   * some of them, which stops once it has met them all. Only findings ask, a few places at a time: an index of every
   * node's path, built for three broken refs of GitHub's 14 MB description, took ~140 ms and most of its garbage.
   */
  pathsOf(nodes: object[]): JsonPath[] {
    const wanted = new Map<string, Set<object>>()
    for (const node of nodes) {
      const file = this.fileOf(node)
      if (!wanted.has(file)) wanted.set(file, new Set())
      wanted.get(file)!.add(node)
    }
    const found = new Map<object, JsonPath>()
    for (const [file, targets] of wanted) {
      const document = this.documents.get(file)
      findPaths(document, targets, found, isTreeShaped(document) ? undefined : new Set())
    }
    return nodes.map((node) => found.get(node) ?? [])
  }

  /**
   * Follow every ref of the root document and of each file it leads to, once each, so that `broken` lists them all:
   * the root's refs in the order they are written, and those of what a ref leads to elsewhere (another file, an
   * `x-` extension) when that ref is met.
   */
  followAll(): void {
    const root = this.documents.get(this.rootFile)
    // What a ref leads to is walked once, with a record of its nodes. A tree-shaped root's own walk needs none (each
    // node is met once), nor does a ref into it walk what that walk reaches anyway: the record took half the time
    // of this walk through Kubernetes' 27,000 objects and lists.
    const tree = isTreeShaped(root)
    const swagger2 = isSwagger2(root)
    const walked = new Set<object>()
    const walk = (node: unknown, recorded: boolean, context: WalkContext = 'plain'): void => {
      if (typeof node !== 'object' || node === null) return
      if (recorded) {
        if (walked.has(node)) return
        walked.add(node)
      }
      if (Array.isArray(node)) {
        for (const item of node) walk(item, recorded)
        return
      }
      const record = node as Node
      if (typeof record.$ref === 'string') {
        const {target, walkedInRoot} = this.follow(record)
        // What a reference to an example leads to is an example: its value is data there too.
        if (!(tree && walkedInRoot)) walk(target, true, context)
        // Beside a `$ref`, only `$defs` is read (the schemas that bind a `$dynamicRef` of its target, OpenAPI 3.1).
        if (record.$defs && typeof record.$defs === 'object') walk(record.$defs, recorded)
        return
      }
      for (const key in record) {
        const value = record[key]
        // Most values are text, numbers and flags, which hold no ref: not asked about where the walk would go.
        if (typeof value !== 'object' || value === null) continue
        const next = nextContext(context, key, value, swagger2)
        if (next !== undefined) walk(value, recorded, next)
      }
    }
    walk(root, !tree)
  }

  /** `follow`, once per object holding a `$ref`: importers ask for the same node several times. */
  private follow(node: unknown): Followed {
    if (!node || typeof node !== 'object' || typeof (node as Node).$ref !== 'string') return {target: node, value: objectOrNothing(node)}
    let result = this.followed.get(node)
    if (!result) {
      // A pointer that passes through this very ref on the way to its target (`schemas: {$ref: '#/x/schemas/A'}`
      // inside `x`) never arrives.
      if (this.pending.has(node)) return this.fail(node as Node, (node as Node).$ref as string, this.fileOf(node), 'it leads back to itself', undefined)
      this.pending.add(node)
      result = this.followChain(node as Node)
      this.pending.delete(node)
      this.followed.set(node, result)
    }
    return result
  }

  /**
   * The node at `pointer` in `document`, following the refs it passes through: split descriptions keep whole maps
   * in other files (`components: {schemas: {$ref: schemas/_index.yaml}}`), and `#/components/schemas/Pet` still
   * names a schema there, as every mainstream tool reads it.
   */
  private pointAt(document: unknown, pointer: string): {node: unknown; walked: boolean} {
    let node = document
    // Whether a walk of the document through its own structure (`followAll`) arrives there too: not through
    // examples or extensions (and, to keep it simple, through no map of examples either).
    let walked = true
    let context: WalkContext = 'plain'
    const swagger2 = isSwagger2(document)
    for (const raw of pointer.split('/').slice(1)) {
      if (!node || typeof node !== 'object') return {node: undefined, walked: false}
      const key = unescape(raw)
      if (typeof (node as Node).$ref === 'string') {
        walked = false
        if (!Object.prototype.hasOwnProperty.call(node, key)) node = this.follow(node).target
      }
      if (!node || typeof node !== 'object') return {node: undefined, walked: false}
      const value = Object.prototype.hasOwnProperty.call(node, key) ? (node as Node)[key] : undefined
      const next: WalkContext | undefined = Array.isArray(node) ? 'plain' : nextContext(context, key, value, swagger2)
      if (next === undefined || next === 'examples' || next === 'example') walked = false
      context = next ?? 'plain'
      node = value
    }
    return {node: node ?? undefined, walked}
  }

  private followChain(node: Node): Followed {
    const inRoot = this.fileOf(node) === this.rootFile
    const known = inRoot ? this.rootChains.get(node.$ref as string) : undefined
    if (known) return known
    const result = this.chainFrom(node)
    if (inRoot && result.missing === undefined) this.rootChains.set(node.$ref as string, result)
    return result
  }

  private chainFrom(node: Node): Followed {
    let current: unknown = node
    let name: string | undefined
    let walkedInRoot = false
    let first: Step | undefined
    let seen: Set<Step> | undefined
    while (current && typeof current === 'object' && typeof (current as Node).$ref === 'string') {
      const holder = current as Node
      const ref = holder.$ref as string
      if (urlPattern.test(ref)) {
        return {target: undefined, value: undefined, name: name ?? (lastSegment(ref.split('#')[1] ?? '') || urlName(ref.split('#')[0])), external: ref}
      }
      const home = this.fileOf(holder)
      const step = this.stepOf(ref, home)
      // Most chains are one ref long: the steps are recorded from the second on.
      if (first === undefined) first = step
      else {
        seen ??= new Set([first])
        if (seen.has(step)) return this.fail(holder, ref, home, 'it leads back to itself', name)
        seen.add(step)
      }
      if (step.reason) return this.fail(holder, ref, home, step.reason, step.name ?? name)
      name = step.name ?? name
      current = step.node
      walkedInRoot = step.walkedInRoot
    }
    return {target: current, value: objectOrNothing(current), name, walkedInRoot}
  }

  /** Where `ref` (no URL), written in the file `home`, points: kept per file and pointer, for every ref written alike. */
  private stepOf(ref: string, home: string): Step {
    const hash = ref.indexOf('#')
    const target = hash === -1 ? ref : ref.slice(0, hash)
    const pointer = hash === -1 ? '' : ref.slice(hash + 1)
    const file = target ? this.fileAt(home, target) : home
    let steps = this.targets.get(file)
    if (!steps) this.targets.set(file, (steps = new Map()))
    let step = steps.get(pointer)
    if (!step) {
      const document = this.load(file)
      const {node: found, walked} = document === undefined ? {node: undefined, walked: false} : this.pointAt(document, pointer)
      const reason = document === undefined ? `cannot read \`${path.relative(path.dirname(home), file) || file}\`` : found === undefined ? `\`#${pointer}\` is not in ${target ? `\`${target}\`` : 'the document'}` : undefined
      step = {node: found, name: lastSegment(pointer) || (target ? fileName(found, target) : undefined), reason, walkedInRoot: walked && file === this.rootFile}
      steps.set(pointer, step)
    }
    return step
  }

  /**
   * What the `$ref` of `node` points at, that one ref followed (not the chain on from there), and the name it gives;
   * undefined for a node without one, a URL and a ref that leads nowhere (`resolve` says why).
   */
  followOnce(node: object): {node: unknown; name: string | undefined} | undefined {
    const ref = (node as Node).$ref
    if (typeof ref !== 'string' || urlPattern.test(ref)) return undefined
    const step = this.stepOf(ref, this.fileOf(node))
    return step.reason === undefined ? {node: step.node, name: step.name} : undefined
  }

  /** The absolute path of `target` seen from `home`, resolved once per pair (split descriptions repeat refs a lot). */
  private fileAt(home: string, target: string): string {
    const key = `${home}\0${target}`
    let file = this.files.get(key)
    if (file === undefined) {
      file = path.resolve(path.dirname(home), safeDecode(target))
      this.files.set(key, file)
    }
    return file
  }

  private fail(holder: Node, ref: string, file: string, reason: string, name: string | undefined) {
    if (!this.broken.has(holder)) this.broken.set(holder, {ref, file, reason, node: holder})
    return {target: undefined, value: undefined, name, missing: ref}
  }

  private load(file: string): unknown {
    if (!this.documents.has(file)) {
      let document: unknown
      try {
        const text = this.read(file)
        this.texts.set(file, text)
        document = /\.(json|ya?ml)$/i.test(file) ? loadData(text, /\.json$/i.test(file) ? 'json' : 'yaml') : text
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
}

function readText(file: string): string {
  return readFileSync(file, 'utf8')
}

/** A whole file's name: its schema's `title` when that is a usable type name, else the file's name. */
function fileName(found: unknown, target: string): string {
  const title = found && typeof found === 'object' ? (found as Node).title : undefined
  return typeof title === 'string' && usableName.test(title.trim()) ? title.trim() : fileStem(target)
}

/**
 * A name for the schema at a URL: its file name, with as many folders before it as it takes to start with a letter
 * (`…/schemas/2.0.0.json` -> `schemas-2.0.0`, `…/schema/2024-10-18` -> `schema-2024-10-18`).
 */
export function urlName(url: string): string {
  const segments = url.replace(/^[a-z][\w+.-]*:\/\/[^/]*/i, '').split(/[/?]/).filter(Boolean)
  let name = fileStem(segments.pop() ?? url)
  while (!/^[A-Za-z_]/.test(name) && segments.length > 0) name = `${segments.pop()}-${name}`
  return name
}

function fileStem(target: string): string {
  return path.basename(safeDecode(target)).replace(/\.\w+$/, '')
}

/** What `resolve` answers for anything that is not an object. */
const nothing: Resolved = Object.freeze({value: undefined})

function objectOrNothing(value: unknown): Node | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : undefined
}

/**
 * Where a walk for refs stands: anywhere (`plain`), in a schema's `properties` (`names`: a property may be called
 * `example`), in an OpenAPI 3 map of examples (`examples`), in one Example object (`example`).
 */
export type WalkContext = 'plain' | 'names' | 'examples' | 'example'

/**
 * Whether, and how, a walk for refs (`followAll`, the check's bundle) goes into `value`, held under `key` by an
 * object where it stands in `context`: undefined where it holds data, not OpenAPI: `example`, a schema's list of
 * `examples`, Swagger 2.0's examples by media type, an Example object's `value` (`dataValue` in 3.2: "embedded literal
 * example"; only a whole example may be a reference, as Redocly and Swagger's tools read it), and `x-` extensions
 * (refs there, such as Azure's `x-ms-examples`, are not followed).
 */
export function nextContext(context: WalkContext, key: string, value: unknown, swagger2: boolean): WalkContext | undefined {
  if (key.startsWith('x-')) return undefined
  if (context === 'examples') return 'example'
  if (context === 'example') return key === 'value' || key === 'dataValue' ? undefined : 'plain'
  if (context === 'names') return 'plain'
  if (key === 'example') return undefined
  if (key === 'examples') return Array.isArray(value) || swagger2 ? undefined : 'examples'
  return key === 'properties' || key === 'patternProperties' ? 'names' : 'plain'
}

/**
 * Where a walk for refs stands at `path` (of a node it met, such as a broken ref's holder), by {@link nextContext}
 * over its keys; list positions are `plain`. `example` is inside an example (a whole example that is a reference).
 */
export function contextAt(path: JsonPath): WalkContext | undefined {
  let context: WalkContext | undefined = 'plain'
  for (const key of path) context = context === undefined ? undefined : typeof key === 'number' ? 'plain' : nextContext(context, key, undefined, false)
  return context
}

/** Whether `document` is a Swagger 2.0 one (its `examples` are data by media type, not Example objects). */
export function isSwagger2(document: unknown): boolean {
  return Boolean(document) && typeof (document as Node).swagger === 'string'
}

function lastSegment(pointer: string): string {
  return unescape(pointer.split('/').pop() ?? '')
}

/** A pointer segment: percent-decoded (a malformed escape such as `100%` is kept as written), then `~1` and `~0`. */
function unescape(segment: string): string {
  const decoded = safeDecode(segment)
  return decoded.includes('~') ? decoded.replace(/~1/g, '/').replace(/~0/g, '~') : decoded
}

function safeDecode(value: string): string {
  if (!value.includes('%')) return value
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/**
 * Record in `found` the path of each of `targets` met in a walk from `node` (where `at` is), and take it from
 * `targets`; the walk ends when none is left. One path array is pushed and popped on the way, and copied only where a
 * target is met. `visited` (for documents that may hold one object at several places) keeps the first place met.
 */
function findPaths(node: unknown, targets: Set<object>, found: Map<object, JsonPath>, visited: Set<object> | undefined, at: Array<string | number> = []): void {
  if (!node || typeof node !== 'object' || targets.size === 0) return
  if (visited) {
    if (visited.has(node)) return
    visited.add(node)
  }
  if (targets.delete(node)) found.set(node, [...at])
  if (Array.isArray(node)) {
    for (let position = 0; position < node.length && targets.size > 0; position++) {
      at.push(position)
      findPaths(node[position], targets, found, visited, at)
      at.pop()
    }
    return
  }
  for (const key in node) {
    if (targets.size === 0) return
    at.push(key)
    findPaths((node as Record<string, unknown>)[key], targets, found, visited, at)
    at.pop()
  }
}
