/**
 * parse-graphql: a GraphQL schema, as SDL (`schema.graphql`) or as an introspection result (JSON with `__schema`,
 * bare or under `data`), becomes `{type: 'graphql', schema, document}`. Syntax errors and types used but never
 * defined are fatal `parse` findings with line:column. A name defined twice (as in GitHub's published schema) or an
 * extension of a type never defined is a `graphql-schema` warning, which import-graphql reports: the schema is built
 * as the SDL reads, the last definition of a name counting.
 */
import {isUtf8} from 'node:buffer'
import {
  buildASTSchema,
  buildClientSchema,
  GraphQLError,
  isTypeDefinitionNode,
  isTypeExtensionNode,
  isTypeSystemDefinitionNode,
  isTypeSystemExtensionNode,
  Kind,
  parse,
  specifiedScalarTypes,
  type ASTNode,
  type DocumentNode,
  type GraphQLSchema,
  type IntrospectionQuery,
  type NameNode,
  type TypeNode
} from 'graphql'
import type {Processor} from 'unified'
import type {Node, Point} from 'unist'
import type {VFile} from 'vfile'
import {parseJsonText} from '../pipeline/json-text.js'
import {fatalFinding} from '../pipeline/rule.js'
import {notUtf8} from './shared/encoding.js'
import {noteAt} from './shared/import-findings.js'

/** A GraphQL schema, ready to import. */
export interface GraphqlTree extends Node {
  type: 'graphql'
  schema: GraphQLSchema
}

/** Set the processor's parser to read GraphQL schemas. */
export default function parseGraphql(this: Processor) {
  this.parser = (text: string, file: VFile): GraphqlTree => ({type: 'graphql', schema: readSchema(text, file)})
}

function readSchema(text: string, file: VFile): GraphQLSchema {
  // Bytes that are not UTF-8 reach the parser as U+FFFD, which graphql-js would call an unexpected character.
  if (file.value instanceof Uint8Array && !isUtf8(file.value)) throw notUtf8(text, file.value, file)
  if (text.trim() === '') fail(file, 'Unexpected empty file, expected GraphQL SDL or an introspection result', {line: 1, column: 1})
  const sdl = file.extname === '.graphql' || file.extname === '.gql' || file.extname === '.graphqls'
  if (!sdl && (text.trimStart()[0] === '{' || file.extname === '.json')) return fromIntrospection(text, file)
  try {
    const document = parse(text)
    const definitions = document.definitions.filter((node) => isTypeSystemDefinitionNode(node) || isTypeSystemExtensionNode(node))
    if (definitions.length === 0) {
      const place = document.definitions[0]?.loc?.startToken
      fail(file, 'Unexpected GraphQL operation document, expected a schema with type definitions (SDL) or an introspection result', {line: place?.line ?? 1, column: place?.column ?? 1})
    }
    checkDefinitions(document, file)
    return buildSchema(document, file)
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error
    fail(file, `Cannot parse GraphQL: ${firstLine(error.message)}`, placeOf(error))
  }
}

/** The schema as the SDL reads, checked above; what graphql-js still cannot build is a `parse` finding, not a crash. */
function buildSchema(document: DocumentNode, file: VFile): GraphQLSchema {
  try {
    return buildASTSchema(document, {assumeValidSDL: true})
  } catch (error) {
    if (error instanceof GraphQLError) throw error
    fail(file, `Cannot build the GraphQL schema: ${firstLine((error as Error).message)}`, {line: 1, column: 1})
  }
}

/**
 * What graphql-js, told that the SDL is valid, would settle without a word: a type, field, argument or enum value
 * defined twice (the last definition counts), an extension of a type never defined (left out): `graphql-schema`
 * warnings; and a type used but never defined, which it cannot build: fatal `parse` findings, all of them. Directives
 * need no definition: published SDL often leaves them out (`@key` of federation). graphql-js's own SDL validation
 * finds these and more, but walks every node of the document once for each of its 15 rules: ~165 ms on GitHub's
 * 1.2 MB schema, run once as the CLI runs it, where this loop over the definitions takes ~25 (parsing ~145, building
 * the schema ~115).
 */
function checkDefinitions(document: DocumentNode, file: VFile): void {
  const defined = new Map<string, NameNode>()
  /** Member names (fields, input fields, enum values) met so far, per type, over its definition and extensions. */
  const members = new Map<string, Map<string, NameNode>>()
  const used: NameNode[] = []
  const extended: NameNode[] = []
  const warn = (reason: string, at: ASTNode) => noteAt(file, 'graphql-schema', reason, placeOf(at))
  const once = (seen: Map<string, NameNode>, name: NameNode, what: string) => {
    const first = seen.get(name.value)
    if (first) warn(`${what} is defined twice (first at ${placeText(first)}); the last definition counts`, name)
    seen.set(name.value, name)
  }
  for (const definition of document.definitions) {
    if (definition.kind === Kind.DIRECTIVE_DEFINITION) {
      for (const argument of definition.arguments ?? []) used.push(namedType(argument.type))
    } else if (definition.kind === Kind.SCHEMA_DEFINITION || definition.kind === Kind.SCHEMA_EXTENSION) {
      for (const operation of definition.operationTypes ?? []) used.push(operation.type.name)
    } else if (isTypeDefinitionNode(definition) || isTypeExtensionNode(definition)) {
      const type = definition.name.value
      if (isTypeDefinitionNode(definition)) once(defined, definition.name, `Type \`${type}\``)
      else extended.push(definition.name)
      // A type defined again starts over: the earlier definition's members are gone, not repeated.
      const seen = (isTypeDefinitionNode(definition) ? undefined : members.get(type)) ?? new Map<string, NameNode>()
      members.set(type, seen)
      if ('interfaces' in definition) for (const implemented of definition.interfaces ?? []) used.push(implemented.name)
      if ('types' in definition) for (const member of definition.types ?? []) used.push(member.name)
      if ('values' in definition) for (const value of definition.values ?? []) once(seen, value.name, `Enum value \`${type}.${value.name.value}\``)
      if ('fields' in definition) {
        for (const field of definition.fields ?? []) {
          once(seen, field.name, `Field \`${type}.${field.name.value}\``)
          const fieldArguments = ('arguments' in field ? field.arguments : undefined) ?? []
          const seenArguments = fieldArguments.length > 1 ? new Map<string, NameNode>() : undefined
          for (const argument of fieldArguments) {
            if (seenArguments) once(seenArguments, argument.name, `Argument \`${argument.name.value}\` of \`${type}.${field.name.value}\``)
            used.push(namedType(argument.type))
          }
          used.push(namedType(field.type))
        }
      }
    }
  }
  for (const name of extended) if (!defined.has(name.value)) warn(`Unexpected extension of type \`${name.value}\`, which the schema never defines; it is left out`, name)
  const unknown = used.filter((name) => !defined.has(name.value) && !builtInScalars.has(name.value))
  for (const name of unknown.slice(0, -1)) fatalFinding(file, unknownType(name), 'parse', placeOf(name))
  if (unknown.length > 0) fail(file, unknownType(unknown.at(-1)!), placeOf(unknown.at(-1)!))
}

const builtInScalars = new Set(specifiedScalarTypes.map((type) => type.name))

function unknownType(name: NameNode): string {
  return `Unknown type \`${name.value}\`, expected a type the schema defines or a built-in scalar`
}

function namedType(type: TypeNode): NameNode {
  return type.kind === Kind.NAMED_TYPE ? type.name : namedType(type.type)
}

function placeOf(at: GraphQLError | ASTNode): Point {
  if (at instanceof GraphQLError) {
    const [first] = at.locations ?? []
    return first ? {line: first.line, column: first.column} : {line: 1, column: 1}
  }
  return at.loc ? {line: at.loc.startToken.line, column: at.loc.startToken.column} : {line: 1, column: 1}
}

function placeText(at: ASTNode): string {
  const {line, column} = placeOf(at)
  return `${line}:${column}`
}

function fromIntrospection(text: string, file: VFile): GraphQLSchema {
  // A broken file is one `parse` finding at its line and column, as every JSON reader says it.
  const data = parseJsonText(text, file) as {data?: IntrospectionQuery; __schema?: unknown}
  const introspection = (data?.data ?? data) as IntrospectionQuery
  if (!introspection || typeof introspection !== 'object' || !('__schema' in introspection)) {
    fail(file, 'Unexpected JSON, expected an introspection result with `__schema` (or `data.__schema`)', {line: 1, column: 1})
  }
  try {
    return buildClientSchema(introspection, {assumeValid: true})
  } catch (error) {
    fail(file, `Cannot read the introspection result: ${firstLine((error as Error).message)}`, {line: 1, column: 1})
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0]
}

function fail(file: VFile, reason: string, place: Point): never {
  throw fatalFinding(file, reason, 'parse', place)
}
