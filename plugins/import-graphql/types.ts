/**
 * GraphQL types in the catalogue's notation: `[Pet!]!` is `Pet[]` (list marks kept, non-null marks dropped because
 * `required` says it), and named types become catalogue types by kind.
 */
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isSpecifiedScalarType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLNamedType,
  type GraphQLType
} from 'graphql'
import type {Field, Param, TypeDefinition} from '../../schemas/types/endpoints.js'
import {describe} from '../shared/describe.js'

/** `Pet`, `Pet[]`, `Pet[][]` for a GraphQL type. */
export function typeExpression(type: GraphQLType): string {
  if (isNonNullType(type)) return typeExpression(type.ofType)
  if (isListType(type)) return `${typeExpression(type.ofType)}[]`
  return type.name
}

/**
 * Whether the items of a list type may be null (`[Pet]`, `[[Pet!]]`: at any depth), which the catalogue's `Pet[]`
 * does not say: `x-items-nullable`.
 */
export function itemsNullable(type: GraphQLType): boolean {
  const list = isNonNullType(type) ? type.ofType : type
  if (!isListType(list)) return false
  return !isNonNullType(list.ofType) || itemsNullable(list.ofType)
}

/** Whether a value of this type is always present. */
export function isRequired(type: GraphQLType): boolean {
  return isNonNullType(type)
}

/** The named types a named type refers to: field types and the types of their arguments, union members, interfaces. */
export function referencedTypes(type: GraphQLNamedType): GraphQLNamedType[] {
  if (isObjectType(type) || isInterfaceType(type)) {
    const fields = Object.values(type.getFields())
    return [...fields.flatMap((field) => [getNamedType(field.type), ...field.args.map((arg) => getNamedType(arg.type))]), ...type.getInterfaces()]
  }
  if (isInputObjectType(type)) return Object.values(type.getFields()).map((field) => getNamedType(field.type))
  if (isUnionType(type)) return [...type.getTypes()]
  return []
}

/** Whether a named type belongs in the catalogue: not introspection, not a built-in scalar. */
export function isCatalogued(type: GraphQLNamedType): boolean {
  return !type.name.startsWith('__') && !(isScalarType(type) && isSpecifiedScalarType(type))
}

/** The catalogue type for a named GraphQL type. */
export function typeDefinition(type: GraphQLNamedType): TypeDefinition {
  const base: TypeDefinition = {name: type.name}
  const {summary} = describe(type.description)
  if (type.description) base.description = type.description.trim() || summary
  if (isObjectType(type)) {
    const object: TypeDefinition = {...base, kind: 'object', fields: fieldsOf(type.getFields())}
    // The interfaces it implements, which a field returning one of them may hold it for.
    if (type.getInterfaces().length > 0) object['x-implements'] = type.getInterfaces().map((face) => face.name)
    return object
  }
  if (isInterfaceType(type)) {
    const face: TypeDefinition = {...base, kind: 'interface', fields: fieldsOf(type.getFields())}
    // An interface may implement others (`interface Entity implements Node`, GraphQL since 2020).
    if (type.getInterfaces().length > 0) face['x-implements'] = type.getInterfaces().map((other) => other.name)
    return face
  }
  if (isInputObjectType(type)) return {...base, kind: 'input', fields: fieldsOf(type.getFields())}
  if (isEnumType(type)) {
    const values = type.getValues()
    const enumType: TypeDefinition = {...base, kind: 'enum', values: values.map((value) => value.name)}
    // Values marked `@deprecated`, which clients should stop sending and expect to go.
    const deprecated = values.filter((value) => value.deprecationReason != null).map((value) => value.name)
    if (deprecated.length > 0) enumType['x-deprecated-values'] = deprecated
    return enumType
  }
  if (isUnionType(type)) return {...base, kind: 'union', members: type.getTypes().map((member) => member.name)}
  return {...base, kind: 'scalar'}
}

/** A default value of an argument or input field as JSON (enum values are their names), when it has one. */
export function jsonDefault(value: unknown): unknown {
  if (value === undefined) return undefined
  try {
    return JSON.parse(JSON.stringify(value)) as unknown
  } catch {
    return undefined
  }
}

/**
 * A GraphQL argument as a catalogue param (`in: arg`), of an operation or of a field of an object type. A non-null
 * argument with a default may be left out, as the GraphQL spec says: it is not `required`, and `x-non-null` says
 * that it may not be sent as null.
 */
export function argumentParam(arg: GraphQLArgument): Param {
  const fallback = jsonDefault(arg.defaultValue)
  const param: Param = {name: arg.name, in: 'arg', type: typeExpression(arg.type), required: isRequired(arg.type) && arg.defaultValue === undefined}
  if (isRequired(arg.type) && arg.defaultValue !== undefined) param['x-non-null'] = true
  if (itemsNullable(arg.type)) param['x-items-nullable'] = true
  if (arg.description?.trim()) param.description = arg.description.trim()
  if (fallback !== undefined) param.default = fallback
  return param
}

/**
 * Fields as catalogue fields. A field of an object or interface type may take arguments (`posts(first: Int)`): they
 * are its `x-args`, params as an operation's are; a deprecated field has `x-deprecated` (and its reason).
 */
function fieldsOf(fields: Record<string, GraphQLField<unknown, unknown> | GraphQLInputField>): Field[] {
  return Object.values(fields).map((field) => {
    // An input field with a default may be left out (the default applies), though not sent as null: `x-non-null`.
    const defaulted = 'defaultValue' in field && field.defaultValue !== undefined
    const result: Field = {name: field.name, type: typeExpression(field.type), required: isRequired(field.type) && !defaulted}
    if (defaulted && isRequired(field.type)) result['x-non-null'] = true
    if (itemsNullable(field.type)) result['x-items-nullable'] = true
    if (field.description?.trim()) result.description = field.description.trim()
    const fallback = defaulted ? jsonDefault(field.defaultValue) : undefined
    if (fallback !== undefined) result.default = fallback
    if ('args' in field && field.args.length > 0) result['x-args'] = field.args.map(argumentParam)
    if (field.deprecationReason != null) {
      result['x-deprecated'] = true
      if (field.deprecationReason) result['x-deprecation-reason'] = field.deprecationReason
    }
    return result
  })
}
