/**
 * sentence-generate: the documentation sentences of a catalogue, as two sections in `file.data.endpoints`:
 *
 * - `operations`, one per endpoint, exactly
 *   `<METHOD> <path> — <summary>. It accepts <request type>. It returns <response type>.`
 *   The summary is attached as written (only surrounding whitespace is dropped); a period is added only when it does
 *   not already end in `.`, `!` or `?`. Without a summary: `<METHOD> <path>.` The accepts part only with a request
 *   type, the returns part only with a response type. GraphQL operations use their signature as the path, events
 *   their topic.
 * - `types`, one per type, by kind:
 *   `Pet is an object with fields id (integer, required), tag (string).` (also `an input`, `an interface`; one
 *   field reads `with field …`; none reads `with no fields`), `Status is an enum with values a, b.`,
 *   `SearchResult is a union of Pet, Owner.`, `DateTime is a scalar.` A type without `kind` is an object.
 *
 * Sentences are computed only for a catalogue without errors.
 */
import type {VFile} from 'vfile'
import type {ParsedTree} from './parse.js'
import {hasErrors} from '../pipeline/data.js'
import type {Endpoint, Field, TypeDefinition} from '../schemas/types/endpoints.js'

/** The sentence about one endpoint, with what templates filter and lay it out by. */
export interface OperationSentence {
  id: string
  method: string
  path: string
  /** Group id (default: `default`). */
  group: string
  tags: string[]
  summary: string | undefined
  text: string
}

/** The sentence about one type. */
export interface TypeSentence {
  name: string
  kind: NonNullable<TypeDefinition['kind']>
  text: string
}

/** The two sections of a catalogue. */
export interface EndpointSections {
  operations: OperationSentence[]
  types: TypeSentence[]
}

declare module 'vfile' {
  interface DataMap {
    /** The sentences of the catalogue in this file (set by sentence-generate). */
    endpoints: EndpointSections
  }
}

/** Compute the sentences of catalogue trees. */
export default function sentenceGenerate() {
  return (tree: ParsedTree, file: VFile) => {
    if (tree.type !== 'catalogue' || hasErrors(file)) return
    file.data.endpoints = {
      operations: tree.spec.endpoints.map(operationSentence),
      types: (tree.spec.types ?? []).map(typeSentence)
    }
  }
}

/** The operation sentence of an endpoint. */
export function operationSentence(endpoint: Endpoint): OperationSentence {
  const summary = endpoint.summary?.trim() || undefined
  let text = `${endpoint.method} ${endpoint.path}`
  text += summary ? ` — ${summary}${/[.!?]$/.test(summary) ? '' : '.'}` : '.'
  if (endpoint.request) text += ` It accepts ${endpoint.request}.`
  if (endpoint.response) text += ` It returns ${endpoint.response}.`
  return {
    id: endpoint.id,
    method: endpoint.method,
    path: endpoint.path,
    group: endpoint.group ?? 'default',
    tags: endpoint.tags ?? [],
    summary,
    text
  }
}

/** The type sentence of a type. */
export function typeSentence(type: TypeDefinition): TypeSentence {
  const kind = type.kind ?? 'object'
  return {name: type.name, kind, text: `${type.name} ${describeKind(type, kind)}.`}
}

function describeKind(type: TypeDefinition, kind: TypeSentence['kind']): string {
  switch (kind) {
    case 'enum':
      return `is an enum with ${listOf('value', 'values', type.values ?? [])}`
    case 'union':
      return (type.members ?? []).length > 0 ? `is a union of ${(type.members ?? []).join(', ')}` : 'is a union with no members'
    case 'scalar':
      return 'is a scalar'
    default:
      return `is ${kind === 'object' ? 'an object' : kind === 'input' ? 'an input' : 'an interface'} with ${listOf('field', 'fields', (type.fields ?? []).map(describeField))}`
  }
}

function describeField(field: Field): string {
  const notes = [field.type, field.required ? 'required' : undefined].filter(Boolean)
  return notes.length > 0 ? `${field.name} (${notes.join(', ')})` : field.name
}

function listOf(one: string, many: string, items: string[]): string {
  if (items.length === 0) return `no ${many}`
  return `${items.length === 1 ? one : many} ${items.join(', ')}`
}
