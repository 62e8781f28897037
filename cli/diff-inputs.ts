/**
 * The inputs of `pipe diff`: each is a catalogue, an OpenAPI, GraphQL or AsyncAPI document (imported first with its
 * preset, page off), read from a file or from git (`<revision>:<path>`, through `git show`), with the configuration
 * nearest to it. Then diff-catalogues compares the two catalogues with the same settings.
 */
import {existsSync} from 'node:fs'
import path from 'node:path'
import type {Preset} from 'unified'
import type {Node} from 'unist'
import {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import type {CatalogueTree} from '../pipeline/data.js'
import {processorFor, createProcessor, transformFile, transformTree} from '../pipeline/process.js'
import {readInput} from '../pipeline/read.js'
import {documentKind} from './document-kind.js'
import {fatalFinding} from '../pipeline/rule.js'
import diffCatalogues from '../plugins/diff-catalogues/index.js'
import {parseSource} from '../plugins/parse.js'

/** What a diff found: the two input files (with their own findings), and the changes (breaking ones are fatal). */
export interface DiffResult {
  old: VFile
  new: VFile
  /** Undefined when an input could not be turned into a catalogue (its findings say why). */
  changes: VFileMessage[] | undefined
  /** The two catalogues' `meta.api_kind` (`rest`, `graphql`, `events`), when they say. */
  kinds?: {old?: string; new?: string}
}

/** Compare `oldInput` with `newInput` (paths, or `<revision>:<path>` for git). */
export async function diffInputs(oldInput: string, newInput: string, cwd = process.cwd()): Promise<DiffResult> {
  const [before, after] = await Promise.all([readAny(oldInput, cwd), readAny(newInput, cwd)])
  // One after the other: the old document's tree is garbage before the new one is parsed, and the new one's takes the
  // pages it leaves (fewer pages touched for the first time, see bin/pipe.js).
  const oldImport = await importCatalogue(before, cwd)
  const newImport = await importCatalogue(after, cwd)
  if (!oldImport.tree || !newImport.tree) return {old: before, new: after, changes: undefined}
  after.data.previous = oldImport.tree.spec
  const processor = createProcessor({plugins: [[diffCatalogues]]}, newImport.processor.data('settings'))
  const start = after.messages.length
  await transformTree(processor, newImport.tree, after)
  const changes = after.messages.slice(start)
  // A crash of the comparison is the new file's finding, not a change.
  if (changes.some((message) => message.ruleId === 'crash' || message.ruleId === 'diff')) return {old: before, new: after, changes: undefined}
  return {old: before, new: after, changes, kinds: {old: oldImport.tree.spec.meta?.api_kind, new: newImport.tree.spec.meta?.api_kind}}
}

/** Whether `input` names a file in git (`main:api/openapi.yaml`) rather than on disk. */
export function isGitInput(input: string, cwd: string): boolean {
  return /^[^:]+:[^\\/]/.test(input) && !/^[A-Za-z]:[\\/]/.test(input) && !existsSync(path.resolve(cwd, input)) && !/^[a-z][a-z+.-]*:\/\//i.test(input)
}

async function readAny(input: string, cwd: string): Promise<VFile> {
  if (!isGitInput(input, cwd)) return readInput(input, cwd)
  // Loaded only for a git input: node:child_process brings net, dgram and their streams (~1 ms of every diff).
  const {gitFileReader, locateGitFile, nearbyGitInput, showGitFile} = await import('../pipeline/git.js')
  // Named as written until it is read (a finding then names what the user typed), then by its path from `cwd`.
  const file = new VFile({path: input.slice(input.indexOf(':') + 1), cwd})
  file.data.gitRevision = input.slice(0, input.indexOf(':'))
  try {
    const located = locateGitFile(input, cwd)
    file.value = await showGitFile(located)
    file.path = path.relative(cwd, path.join(located.top, located.name))
    // The files its `$ref`s lead to, from the same revision.
    file.data.readRef = gitFileReader(located.revision, located.top, path.dirname(path.join(located.top, located.name)))
  } catch (error) {
    const nearby = nearbyGitInput(input, cwd)
    const hint = nearby ? `; did you mean \`${nearby}\`? After \`${file.data.gitRevision}:\` a path is from the repository's top folder, as git reads it` : ''
    fatalFinding(file, `Cannot read \`${input}\` from git: ${(error as Error).message}${hint}`, 'read')
  }
  return file
}

/** Import or check one input into a catalogue tree, with the preset its content asks for. */
async function importCatalogue(file: VFile, cwd: string): Promise<{tree: CatalogueTree | undefined; processor: ReturnType<typeof createProcessor>}> {
  // The kind from the file's start; the parser reads the bytes themselves (plugins/parse.ts).
  const head = typeof file.value === 'string' ? file.value.slice(0, 4096) : new TextDecoder().decode(file.value?.subarray(0, 4096))
  let kind: 'graphql' | 'openapi' | 'asyncapi' | 'validate' = 'graphql'
  let tree: Node | undefined
  const graphqlSource = documentKind(file.path, head) === 'graphql'
  if (!graphqlSource && file.value !== undefined) {
    try {
      tree = parseSource(file.value, file)
    } catch {
      // The parse finding is on the file.
    }
    kind = tree?.type === 'openapi' ? 'openapi' : tree?.type === 'asyncapi' ? 'asyncapi' : 'validate'
  }
  // Only the preset this input needs is loaded (the GraphQL one loads graphql-js, ~60 ms).
  const [preset, {diffInput}, {pageOff}] = await Promise.all([presetOf(kind), import('../presets/diff-input.js'), import('../presets/page-off.js')])
  const off = kind === 'validate' ? pageOff : diffInput
  const processor = await processorFor({plugins: [...(preset.plugins ?? []), ...(off.plugins ?? [])]}, file.data.gitRevision ? undefined : file.path, {config: true, cwd})
  const result = tree ? await transformTree(processor, tree, file) : await transformFile(processor, file)
  const ok = result?.type === 'catalogue' && !file.messages.some((message) => message.fatal === true)
  return {tree: ok ? (result as CatalogueTree) : undefined, processor}
}

async function presetOf(kind: 'graphql' | 'openapi' | 'asyncapi' | 'validate'): Promise<Preset> {
  if (kind === 'openapi') return (await import('../presets/openapi.js')).default
  if (kind === 'asyncapi') return (await import('../presets/asyncapi.js')).default
  if (kind === 'graphql') return (await import('../presets/graphql.js')).default
  return (await import('../presets/validate.js')).default
}
