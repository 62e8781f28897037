/**
 * resolve-refs: follow every `$ref` of an OpenAPI document once (local ones and refs to other files, nested across
 * folders; URLs are never fetched) and check the document against the OpenAPI/Swagger schema of its version. A ref
 * that cannot be followed is one `openapi-ref` warning at its place, in the file that holds it; schema violations
 * are `openapi-schema` warnings at the place they point to: real documents often break a rule or two and still
 * import well. The importer then reuses the same follower (`file.data.refs`), so no ref is read or reported twice.
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import type {Processor} from 'unified'
import {VFile} from 'vfile'
import type {ParsedTree} from './parse.js'
import {ruleSet, defineRule, type RuleSetting} from '../pipeline/rule.js'
import {checkDocument, type DocumentProblem} from './import-openapi/parser-adapter.js'
import type {OpenApiTree} from '../pipeline/data.js'
import {JsonRefs, type BrokenRef} from './shared/json-refs.js'

/** Options of resolve-refs. */
export interface Options {
  /** Check the document against the OpenAPI/Swagger schemas (default: true). */
  check?: boolean
  /**
   * Follow every ref up front, so that each broken one is an `openapi-ref` finding (default: true). Without it the
   * importer follows the refs it needs on demand and broken ones are not reported (`pipe diff`, which prints changes).
   */
  followAll?: boolean
}

declare module 'vfile' {
  interface DataMap {
    /** The refs of an OpenAPI document, followed once by resolve-refs and reused by the importer. */
    refs: JsonRefs
    /** Problems the schema check found. */
    schemaProblems: DocumentProblem[]
  }
}

/** Rule `openapi-ref` (warning): a `$ref` that cannot be followed; types behind it stay unknown (and `dangling-ref` says where they are used). */
export const openapiRef = defineRule<OpenApiTree>({id: 'openapi-ref', severity: 'warn'}, (_tree, file, report) => {
  const refs = file.data.refs
  if (!refs) return
  const related = new Map<string, VFile>()
  for (const broken of refs.broken.values()) {
    const at = broken.file === refs.rootFile ? undefined : relatedFile(file, refs, broken, related)
    report(`Cannot follow \`$ref\` \`${broken.ref}\`: ${broken.reason}; what it names is left out (a type behind it is \`object\`)`, {path: [...refs.pathOf(broken.node), '$ref'], file: at})
  }
})

/** Rule `openapi-schema` (warning): the document breaks the OpenAPI or Swagger schema. */
export const openapiSchema = defineRule<OpenApiTree>({id: 'openapi-schema', severity: 'warn'}, (_tree, file, report) => {
  for (const problem of file.data.schemaProblems ?? []) report(problem.reason, {path: problem.path})
})

/** Follow the refs of OpenAPI trees and check them. */
export default function resolveRefs(this: Processor, options: Options = {}) {
  const rules = ruleSet([openapiRef, openapiSchema], {}, this.data('settings')?.rules as Record<string, RuleSetting> | undefined)
  return async (tree: ParsedTree, file: VFile) => {
    if (tree.type !== 'openapi') return
    const refs = new JsonRefs(tree.document, file.path ? path.resolve(file.cwd, file.path) : undefined)
    if (options.followAll !== false) refs.followAll()
    file.data.refs = refs
    if (options.check !== false) {
      try {
        const problems = await checkDocument(withFollowedRefs(tree.document, refs), file.path ? path.resolve(file.cwd, file.path) : undefined)
        file.data.schemaProblems = [...problems.errors, ...problems.warnings]
      } catch (error) {
        // Only the fallback parser (a version without a compiled schema) throws, on a ref it cannot follow: that ref
        // is an `openapi-ref` finding already.
        file.data.schemaProblems = refs.broken.size > 0 ? [] : [{reason: `The document was not checked: ${String((error as Error).message).split('\n')[0]}`, path: []}]
      }
    }
    rules?.(tree, file)
  }
}

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/**
 * The document as the importer reads it, for the schema check: path items, operations and webhooks that are `$ref`s
 * (legal or not, every mainstream tool follows them) and descriptions that are `$ref`s to Markdown files are
 * replaced by what they point to, so that the check does not flag what is followed. A shallow copy: the document
 * itself is not changed.
 */
function withFollowedRefs(document: Record<string, unknown>, refs: JsonRefs): Record<string, unknown> {
  const followItems = (items: unknown) => {
    if (!items || typeof items !== 'object' || Array.isArray(items)) return items
    const copy: Record<string, unknown> = {}
    for (const [key, raw] of Object.entries(items)) {
      const item = refs.resolve(raw).value
      if (!item) {
        copy[key] = raw
        continue
      }
      const followed: Record<string, unknown> = {...item}
      for (const method of methods) if (followed[method] !== undefined) followed[method] = refs.resolve(followed[method]).value ?? followed[method]
      copy[key] = followed
    }
    return copy
  }
  const copy: Record<string, unknown> = {...document, paths: followItems(document.paths)}
  if (document.webhooks !== undefined) copy.webhooks = followItems(document.webhooks)
  const info = document.info && typeof document.info === 'object' ? (document.info as Record<string, unknown>) : undefined
  if (info && typeof info.description === 'object') copy.info = {...info, description: refs.text(info.description) ?? info.description}
  if (Array.isArray(document.tags)) {
    copy.tags = document.tags.map((tag: unknown) => (tag && typeof tag === 'object' && typeof (tag as Record<string, unknown>).description === 'object' ? {...tag, description: refs.text((tag as Record<string, unknown>).description)} : tag))
  }
  return copy
}

/** The file that holds a broken ref, as a related file of the one imported (findings there point into it). */
function relatedFile(file: VFile, refs: JsonRefs, broken: BrokenRef, related: Map<string, VFile>): VFile {
  let at = related.get(broken.file)
  if (!at) {
    at = new VFile({path: path.relative(file.cwd, broken.file), cwd: file.cwd, value: refs.sourceOf(broken.file) ?? safeRead(broken.file)})
    at.data.syntax = /\.json$/i.test(broken.file) ? 'json' : 'yaml'
    at.data.relatedTo = file.path
    ;(file.data.related ??= []).push(at)
    related.set(broken.file, at)
  }
  return at
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}
