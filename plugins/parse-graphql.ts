/**
 * parse-graphql: a GraphQL schema, as SDL (`schema.graphql`) or as an introspection result (JSON with `__schema`,
 * bare or under `data`), becomes `{type: 'graphql', schema, document}`. Syntax and schema errors are fatal `parse`
 * findings with line:column.
 */
import {buildASTSchema, buildClientSchema, GraphQLError, isTypeSystemDefinitionNode, isTypeSystemExtensionNode, parse, type GraphQLSchema, type IntrospectionQuery} from 'graphql'
import type {Processor} from 'unified'
import type {Node, Point} from 'unist'
import type {VFile} from 'vfile'
import {fatalFinding} from '../pipeline/rule.js'

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
    // Directive definitions are often left out of published SDL (e.g. `@key` of federation); accept them unknown.
    return buildASTSchema(document, {assumeValidSDL: true})
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error
    const place = error instanceof GraphQLError && error.locations?.[0] ? {line: error.locations[0].line, column: error.locations[0].column} : {line: 1, column: 1}
    fail(file, `Cannot parse GraphQL: ${firstLine(String((error as Error).message))}`, place)
  }
}

function fromIntrospection(text: string, file: VFile): GraphQLSchema {
  let data: {data?: IntrospectionQuery; __schema?: unknown}
  try {
    data = JSON.parse(text)
  } catch (error) {
    fail(file, `Cannot parse JSON: ${(error as Error).message}`, {line: 1, column: 1})
  }
  const introspection = (data.data ?? data) as IntrospectionQuery
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
