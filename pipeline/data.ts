/**
 * What plugins hand each other through `file.data` and `processor.data()`, typed by interface merging.
 */
import type {VFile} from 'vfile'
import type {Node} from 'unist'
import type {Catalogue} from '../schemas/types/endpoints.js'
import type {RuleSetting} from './rule.js'

/** The catalogue tree: one spec, as parsed. */
export interface CatalogueTree extends Node {
  type: 'catalogue'
  spec: Catalogue
}

/** An OpenAPI 3.x or Swagger 2.0 document, as parsed. */
export interface OpenApiTree extends Node {
  type: 'openapi'
  document: Record<string, unknown>
  /** The `openapi` or `swagger` field, e.g. `3.1.0` or `2.0`. */
  version: string
}

/** An AsyncAPI 2.x or 3.0 document, as parsed. */
export interface AsyncApiTree extends Node {
  type: 'asyncapi'
  document: Record<string, unknown>
  /** The `asyncapi` field, e.g. `2.6.0` or `3.0.0`. */
  version: string
}

declare module 'vfile' {
  interface DataMap {
    /** Files a plugin produced from this one (a page, sentences, a migration); written only when this file has no error. */
    outputs: VFile[]
    /** The syntax the source was parsed as. */
    syntax: 'json' | 'yaml'
    /**
     * Other files a plugin read for this one (the definitions a project file names), with their own findings. The
     * engine and `runPreset` report them like inputs.
     */
    related: VFile[]
    /** Set on a related file: it was read by a plugin of another file and needs no processing of its own. */
    relatedTo: string
    /**
     * Set on a JSON output (`addJsonOutput`): the value it holds. Its text is made only when `value` is read; writing
     * streams it to disk in pieces instead.
     */
    json: unknown
    /** The git revision an input was read from (`pipe diff main:api.yaml …`); reports name the file after it. */
    gitRevision: string
  }
}

declare module 'unified' {
  interface Settings {
    /** Severity (and options) per rule id, e.g. `{summary: 'off', size: ['warn', {max: 120}]}`. */
    rules?: Record<string, RuleSetting>
    /** Directory that outputs are written to (default: beside the input). */
    output?: string
  }
}

declare module 'vfile-message' {
  interface VFileMessage {
    /** The JSON path of the field at fault, as users read it (`endpoints[2].group`). */
    jsonPath?: string
  }
}

/** Add a produced file to `file.data.outputs`. */
export function addOutput(file: VFile, output: VFile): void {
  ;(file.data.outputs ??= []).push(output)
}

/** Whether `file` has an error: outputs of such a file are never written, and later stages may skip it. */
export function hasErrors(file: VFile): boolean {
  return file.messages.some((message) => message.fatal === true)
}

/** Each file followed by the files its plugins read for it (`file.data.related`), as reports list them. */
export function withRelated(files: VFile[]): VFile[] {
  return files.flatMap((file) => [file, ...(file.data.related ?? [])])
}
