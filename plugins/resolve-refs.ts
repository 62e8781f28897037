/**
 * resolve-refs: follow every `$ref` of an OpenAPI document once (local ones and refs to other files, nested across
 * folders; URLs are never fetched) and check the document against the OpenAPI/Swagger schema of its version. A ref
 * that cannot be followed is one `openapi-ref` warning at its place, in the file that holds it; schema violations
 * are `openapi-schema` warnings at the place they point to, in the file that holds it (what other files hold is
 * checked where refs put it): real documents often break a rule or two and still import well. The importer then reuses the same follower (`file.data.refs`), so no ref is read twice or reported twice at one place.
 */
import path from 'node:path'
import type {Processor} from 'unified'
import type {VFile} from 'vfile'
import type {ParsedTree} from './parse.js'
import {ruleSet, defineRule, type RuleSetting} from '../pipeline/rule.js'
import {checkDocument, type DocumentProblem} from './import-openapi/parser-adapter.js'
import type {OpenApiTree} from '../pipeline/data.js'
import {bundleForCheck} from './shared/bundle-refs.js'
import {JsonRefs} from './shared/json-refs.js'
import {brokenRefFindings, relatedFile} from './shared/broken-refs.js'

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
  if (!file.data.refs) return
  for (const finding of brokenRefFindings(file, file.data.refs)) report(finding.reason, {path: finding.path, file: finding.file})
})

/** Rule `openapi-schema` (warning): the document breaks the OpenAPI or Swagger schema. */
export const openapiSchema = defineRule<OpenApiTree>({id: 'openapi-schema', severity: 'warn'}, (_tree, file, report) => {
  const refs = file.data.refs
  const related = new Map<string, VFile>()
  for (const problem of file.data.schemaProblems ?? []) {
    const at = refs && problem.file && problem.file !== refs.rootFile ? relatedFile(file, refs, problem.file, related) : undefined
    report(problem.reason, {path: problem.path, file: at})
  }
})

/** Follow the refs of OpenAPI trees and check them. */
export default function resolveRefs(this: Processor, options: Options = {}) {
  const rules = ruleSet([openapiRef, openapiSchema], {}, this.data('settings')?.rules as Record<string, RuleSetting> | undefined)
  return async (tree: ParsedTree, file: VFile) => {
    if (tree.type !== 'openapi') return
    const refs = JsonRefs.of(tree.document, file)
    if (options.followAll !== false) refs.followAll()
    file.data.refs = refs
    if (options.check !== false) {
      try {
        file.data.schemaProblems = await schemaCheck(tree.document, refs, options.followAll === false || refs.loaded().size > 1, file.path ? path.resolve(file.cwd, file.path) : undefined)
      } catch (error) {
        // Only the fallback parser (a version without a compiled schema) throws, on a ref it cannot follow: that ref
        // is an `openapi-ref` finding already.
        file.data.schemaProblems = refs.broken.size > 0 ? [] : [{reason: `The document was not checked: ${String((error as Error).message).split('\n')[0]}`, path: []}]
      }
    }
    rules?.(tree, file)
  }
}

/**
 * The schema problems of `document` where they are written. The document is checked with its path items and
 * operations in place, refs elsewhere as written (so that a ref where OpenAPI allows none is a problem); when it
 * has other files, it is checked again with everything they hold in place, for the problems inside them. Each
 * problem is reported once, in the file that holds it (a file that many refs lead to is checked at every place).
 */
async function schemaCheck(document: Record<string, unknown>, refs: JsonRefs, multiFile: boolean, filePath: string | undefined): Promise<DocumentProblem[]> {
  const kept = new Map<string, DocumentProblem>()
  const check = async (deep: boolean) => {
    const bundled = bundleForCheck(document, refs, deep)
    const {errors, warnings} = await checkDocument(bundled.document, filePath)
    for (const problem of [...errors, ...warnings]) {
      const {file, path: at} = bundled.locate(problem.path)
      if (deep && file === refs.rootFile) continue
      kept.set(`${file}\0${JSON.stringify(at)}\0${problem.reason}`, {...problem, path: at, file})
    }
  }
  await check(false)
  if (multiFile) await check(true)
  return [...kept.values()]
}

