/**
 * resolve-refs: check that every `$ref` of an OpenAPI document resolves (local ones and refs to other files, as in
 * `petstore-separate`; URLs are never fetched) and that the document meets the OpenAPI/Swagger schemas. A ref that
 * cannot be followed is an `openapi-ref` warning; schema violations are `openapi-schema` warnings at the place they
 * point to: real documents often break a rule or two and still import well. Where nothing usable comes out, the
 * importer and the catalogue check say so with errors. The importer then follows refs itself (plugins/shared/json-refs.ts),
 * which keeps each referenced schema's name and ends cycles.
 */
import path from 'node:path'
import type {Processor} from 'unified'
import type {VFile} from 'vfile'
import type {ParsedTree} from './parse.js'
import {ruleSet, defineRule, type RuleSetting} from '../pipeline/rule.js'
import {checkDocument, type DocumentProblem} from './import-openapi/parser-adapter.js'
import type {OpenApiTree} from '../pipeline/data.js'

/** Options of resolve-refs. */
export interface Options {
  /** Check the document against the OpenAPI/Swagger schemas (default: true). */
  check?: boolean
}

const problemsOf = new WeakMap<VFile, DocumentProblem[]>()
const refProblems = new WeakMap<VFile, string>()

/** Rule `openapi-ref` (warning): a `$ref` that cannot be followed; types behind it stay unknown (and `dangling-ref` says where they are used). */
export const openapiRef = defineRule<OpenApiTree>({id: 'openapi-ref', severity: 'warn'}, (_tree, file, report) => {
  const reason = refProblems.get(file)
  if (reason) report(reason, {path: []})
})

/** Rule `openapi-schema` (warning): the document breaks the OpenAPI or Swagger schema. */
export const openapiSchema = defineRule<OpenApiTree>({id: 'openapi-schema', severity: 'warn'}, (_tree, file, report) => {
  for (const problem of problemsOf.get(file) ?? []) report(problem.reason, {path: problem.path})
})

/** Bundle and check OpenAPI trees. */
export default function resolveRefs(this: Processor, options: Options = {}) {
  const rules = ruleSet([openapiRef, openapiSchema], {}, this.data('settings')?.rules as Record<string, RuleSetting> | undefined)
  return async (tree: ParsedTree, file: VFile) => {
    if (tree.type !== 'openapi') return
    if (options.check === false) return
    let problems
    try {
      problems = await checkDocument(tree.document, file.path ? path.resolve(file.cwd, file.path) : undefined)
    } catch (error) {
      refProblems.set(file, `Cannot follow a reference, so the document was not checked: ${String((error as Error).message).split('\n')[0]}`)
      problems = {errors: [], warnings: []}
    }
    problemsOf.set(file, [...problems.errors, ...problems.warnings])
    rules?.(tree, file)
  }
}
