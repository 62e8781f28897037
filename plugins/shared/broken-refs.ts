/**
 * Refs that lead nowhere, as findings at the place each is written, in the file that holds it (a file that a ref
 * read becomes a related file of the one imported): `openapi-ref` and `asyncapi-ref` report them.
 */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {VFile} from 'vfile'
import type {JsonPath} from '../../pipeline/json-path.js'
import {contextAt, type JsonRefs} from './json-refs.js'

/** Each ref of `refs` that leads nowhere as a finding at its place, in the file that holds it (OpenAPI and AsyncAPI). */
export function brokenRefFindings(file: VFile, refs: JsonRefs): Array<{reason: string; path: JsonPath; file?: VFile}> {
  const related = new Map<string, VFile>()
  const brokenRefs = [...refs.broken.values()]
  const places = refs.pathsOf(brokenRefs.map((broken) => broken.node))
  return brokenRefs.map((broken, index) => ({
    reason: `Cannot follow \`$ref\` \`${broken.ref}\`: ${broken.reason}; ${leftOutAt(places[index])}`,
    path: [...places[index], '$ref'],
    file: broken.file === refs.rootFile ? undefined : relatedFile(file, refs, broken.file, related)
  }))
}

/** Keys whose value is a schema, and keys whose values (by name or position) are schemas. */
const schemaKeys = new Set(['schema', 'payload', 'items', 'additionalProperties', 'additionalItems', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'])
const schemaListKeys = new Set(['properties', 'patternProperties', 'allOf', 'anyOf', 'oneOf', 'prefixItems', 'schemas', 'definitions', '$defs', 'dependentSchemas'])

/** What the import does without what a broken ref at `path` (the object that holds the `$ref`) names. */
function leftOutAt(path: JsonPath): string {
  if (contextAt(path) === 'example') return 'the example is left out'
  const key = path.at(-1)
  const container = path.at(-2)
  if (schemaKeys.has(String(key)) || schemaListKeys.has(String(container))) return 'what it names is left out (a type behind it is `any`)'
  if (key === 'requestBody' || container === 'requestBodies') return 'the request body is left out'
  if (container === 'parameters') return 'the parameter is left out'
  if (container === 'responses') return 'the response keeps only its status'
  if (container === 'headers') return 'the header keeps only its name'
  // AsyncAPI 3: an operation's channel and messages.
  if (key === 'channel') return 'the operation is left out'
  if (container === 'messages') return 'the message is left out'
  if (path.length === 2 && (container === 'paths' || container === 'webhooks' || container === 'x-webhooks')) return 'its operations are left out'
  return 'what it names is left out'
}

/** A file a `$ref` led to, as a related file of the one imported (findings there point into it). */
export function relatedFile(file: VFile, refs: JsonRefs, holder: string, related: Map<string, VFile>): VFile {
  let at = related.get(holder) ?? file.data.related?.find((candidate) => path.resolve(candidate.cwd, candidate.path) === holder)
  if (!at) {
    at = new VFile({path: path.relative(file.cwd, holder), cwd: file.cwd, value: refs.sourceOf(holder) ?? safeRead(holder)})
    at.data.syntax = /\.json$/i.test(holder) ? 'json' : 'yaml'
    at.data.relatedTo = file.path
    ;(file.data.related ??= []).push(at)
  }
  related.set(holder, at)
  return at
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}
