/**
 * OpenAPI schemas as catalogue types. A referenced schema keeps its name; an inline object is named after where it
 * sits (`CreatePetRequest`, `PetOwner`). object -> `object` with fields (`allOf` merged); string enum -> `enum`;
 * `oneOf`/`anyOf` -> `union`; a named primitive (`Timestamp: {type: string, format: date-time}`) -> `scalar`.
 * Arrays are `X[]`; an unnamed primitive is its JSON type. Each schema object is one type, visited once (so cycles
 * end), and two schemas never share a name. "An X or null" around one schema is X (the field gets `x-nullable`);
 * `allOf` members merge their properties and their `required`. A map (`additionalProperties` with a schema) keeps
 * its values' type as `x-map-values`, on its type or, written inline, on the field. A `$dynamicRef` (JSON Schema
 * 2020-12's generics) is the schema that a `$dynamicAnchor` around it binds (see {@link SchemaTypes.boundType}). The
 * AsyncAPI import uses it for message payloads, which are JSON Schema too.
 */
import type {Field, TypeDefinition} from '../../schemas/types/endpoints.js'
import {urlName, type JsonRefs, type Resolved} from './json-refs.js'
import {pascal, record, text, typeName as catalogueName} from './readers.js'

type Schema = Record<string, unknown>

/** Enum values, default and example of a field or param. */
export interface SchemaFacts {
  enum?: Array<string | number | boolean | null>
  default?: unknown
  example?: unknown
  /** A scalar's `format` (`date-time`, `uuid`, `binary`…): the page shows it and builds sample values from it. */
  'x-format'?: string
}

/** Collects types while the importer asks for the type of each schema it meets. */
export class SchemaTypes {
  readonly types = new Map<string, TypeDefinition>()
  /** The type name given to each schema object, so that one schema is one type and two schemas never share a name. */
  private readonly names = new Map<object, string>()
  /** The type of each outside schema (a `$ref` to a URL), by URL. */
  private readonly externals = new Map<string, string>()
  private readonly reported = new WeakSet<object>()
  /** The last number `freeName` put after each wanted name. */
  private readonly lastSuffix = new Map<string, number>()
  /** The inline types by the last two words of their names and their shape (see `shapeOf` and {@link shared}). */
  private readonly inlineByShape = new Map<string, {types: InlineType[]; byBody?: Map<string, InlineType>}>()
  /** The inline types others merged with, for {@link sharedNames}. */
  private readonly merged = new Set<InlineType>()
  /**
   * The dynamic anchors bound around the schema being typed, outermost first: each entry is what one referring schema
   * binds (`$defs: {itemType: {$dynamicAnchor: itemType, $ref: Planet}}` beside its `$ref`), anchor -> schema.
   */
  private readonly dynamicScope: Array<Map<string, unknown>> = []
  /** The type of each schema that binds anchors for its `$ref`'s target, by its `$id` (else by the schema itself). */
  private readonly boundTypes = new Map<unknown, string>()
  /** The binding each schema that a `$ref` points at makes or leads to (null: none), by that schema. */
  private readonly bindings = new Map<object, Binding | null>()
  /** The inline schemas named while anchors were bound: their types hold what was bound, so no other place reuses them. */
  private readonly boundInline: Schema[] = []
  /** The inline schemas whose types are being built, and those of them met again inside themselves. */
  private readonly building = new Set<Schema>()
  private readonly reentered = new Set<Schema>()

  /**
   * @param onDropped told about a schema whose kind the catalogue cannot express (`not`, `if`/`then`/`else`), which is
   *   typed `object` or by what else it says; the importer makes it a finding.
   * @param options `dynamicRefs`: the document's schemas are JSON Schema 2020-12 (OpenAPI 3.1), whose `$dynamicRef`s are
   *   bound by `$dynamicAnchor`s; `unknownTypes`, `mergeInline`: see {@link reportUnknownTypes} and {@link shared}.
   */
  constructor(
    private readonly refs: JsonRefs,
    private readonly onDropped?: (reason: string, schema: object) => void,
    private readonly options: {unknownTypes?: boolean; mergeInline?: boolean; dynamicRefs?: boolean} = {}
  ) {}

  /**
   * With `unknownTypes` (OpenAPI 3.1, whose document check leaves schemas to JSON Schema): a `type` JSON Schema does
   * not have (`strin`, `date`) is read as any value, and the importer is told, once a schema.
   */
  private reportUnknownTypes(schema: Schema): void {
    const unknown = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type) => type !== undefined && !(typeof type === 'string' && jsonTypes.has(type)))
    if (unknown.length === 0 || !this.onDropped || this.reported.has(schema)) return
    this.reported.add(schema)
    const written = unknown.map((type) => `\`${typeof type === 'string' ? type : JSON.stringify(type)}\``).join(', ')
    this.onDropped(`Read this schema as any value: ${written} is no JSON Schema type (${[...jsonTypes].join(', ')})`, schema)
  }

  /**
   * The type expression of `node`; `fallback` names it when it is an inline object, enum or union (a function, so
   * that the name is only built when needed: most properties are primitives or refs).
   */
  typeOf(node: unknown, fallback: string | (() => string)): string {
    return this.typeAndNullability(node, fallback).type
  }

  /**
   * The type of a request or response body, or of an event's payload: `typeOf`, but a map written inline
   * (`{type: object, additionalProperties: {…}}` without properties) is a type of its own, named `fallback`, with its
   * values' type as `x-map-values`, and a list of such maps a list of that type: a field says a map's values beside
   * its `object`, and a body has no field to.
   */
  bodyTypeOf(node: unknown, fallback: string | (() => string)): string {
    const bound = this.bindingOf(node)
    if (bound) return this.boundType(bound, fallback).type
    const resolved = this.refs.resolve(node)
    const schema = resolved.value
    // A list of such maps written inline is a list of that type (`<fallback>Item[]`).
    if (resolved.name === undefined && schema?.type === 'array' && this.isInlineMapNode(schema.items)) return `${this.bodyTypeOf(schema.items, `${pascal(spelled(fallback))}Item`)}[]`
    if (resolved.name !== undefined || !schema || !isInlineMap(schema)) return this.typeOfResolved(resolved, fallback).type
    const known = this.known(schema)
    if (known) return known
    this.leaveOutUnsupported(schema, fallback)
    return this.objectType(schema, undefined, fallback)
  }

  /** Whether `node` is a map written inline (no `$ref`, see `isInlineMap`). */
  private isInlineMapNode(node: unknown): boolean {
    const resolved = this.refs.resolve(node)
    return resolved.name === undefined && resolved.value !== undefined && isInlineMap(resolved.value)
  }

  /** `typeOf`, and whether the schema also allows `null` (`nullable`, `anyOf: [X, {type: 'null'}]`, `type: [x, 'null']`). */
  typeAndNullability(node: unknown, fallback: string | (() => string)): {type: string; nullable: boolean} {
    return this.typeOfNode(node, this.refs.resolve(node), fallback)
  }

  /** `typeAndNullability` of `node`, resolved already (`resolved`): the bound type when `node` binds dynamic anchors. */
  private typeOfNode(node: unknown, resolved: Resolved, fallback: string | (() => string)): {type: string; nullable: boolean} {
    const bound = this.bindingOf(node)
    return bound ? this.boundType(bound, fallback) : this.typeOfResolved(resolved, fallback)
  }

  /**
   * The binding of `node`: its `$defs` entries with a `$dynamicAnchor` (JSON Schema 2020-12) when it holds a `$ref`,
   * or those of the schema its `$ref` leads to (`$ref: '#/components/schemas/PaginatedPlanets'`, itself `{$defs: …,
   * $ref: PaginatedResource}`: following the chain to its end would pass them by). Undefined for other schemas, and
   * for documents of other dialects (not read there).
   */
  private bindingOf(node: unknown): Binding | undefined {
    if (!this.options.dynamicRefs || !node || typeof node !== 'object' || typeof (node as Schema).$ref !== 'string') return undefined
    const anchors = anchorsIn(node as Schema)
    if (anchors) return {holder: node as Schema, anchors}
    const step = this.refs.followOnce(node)
    if (!step || !step.node || typeof step.node !== 'object') return undefined
    let found = this.bindings.get(step.node)
    if (found === undefined) {
      // A cycle of refs back here finds none.
      this.bindings.set(step.node, null)
      const further = this.bindingOf(step.node)
      found = further === undefined ? null : {...further, name: further.name ?? step.name}
      this.bindings.set(step.node, found)
    }
    return found ?? undefined
  }

  /**
   * The type of a schema that binds dynamic anchors around a `$ref` (`{$defs: {itemType: {$dynamicAnchor: itemType,
   * $ref: Planet}}, $ref: PaginatedResource}`, JSON Schema 2020-12's `PaginatedResource<Planet>`): the target, typed
   * with those anchors bound, so that its `$dynamicRef: '#itemType'` is `Planet`. A type of its own, named as a
   * referenced schema is (`components/schemas/PaginatedPlanets`), else by its `$id` (`…/schemas/PaginatedPlanets`),
   * else its title, else its place; one per `$id`. The target's
   * inline schemas are typed anew for each binding; a named schema it reaches through another `$ref` keeps its one
   * type.
   */
  private boundType({holder: node, anchors, name}: Binding, fallback: string | (() => string)): {type: string; nullable: boolean} {
    const resolved = this.refs.resolve(node)
    const target = resolved.value
    if (!target) return this.typeOfResolved(resolved, fallback)
    const key = typeof node.$id === 'string' && node.$id !== '' ? node.$id : node
    let typeName = this.boundTypes.get(key)
    if (typeName === undefined) {
      // Named before it is built: a binding that its own type holds again (a folder's page of folders) is that type.
      const claimed = this.freeName((name === undefined ? undefined : catalogueName(name)) ?? idName(node.$id) ?? (typeof node.title === 'string' && /[A-Za-z]/.test(node.title) ? pascal(node.title) : pascal(spelled(fallback))))
      this.boundTypes.set(key, claimed)
      const named = this.boundInline.length
      this.dynamicScope.push(anchors)
      try {
        // A copy of the target, which is one type as written and another as bound here.
        typeName = this.named({...target}, claimed, fallback)
      } finally {
        this.dynamicScope.pop()
        for (const schema of this.boundInline.splice(named)) this.names.delete(schema)
      }
      // A target that is no object (a list) is a type expression of its own.
      this.boundTypes.set(key, typeName)
    }
    return {type: typeName, nullable: allowsNull(node) || allowsNull(target)}
  }

  /**
   * The schema that the anchors bound around it give a `$dynamicRef` (`#itemType`). The nearest binding wins: with
   * JSON Schema's outermost one, `PaginatedPlanets` met inside `PaginatedMoons` would hold moons, and a type would say
   * what the first place it is met binds.
   */
  private dynamicTarget(ref: string): unknown {
    if (!ref.startsWith('#')) return undefined
    const anchor = ref.slice(1)
    for (let index = this.dynamicScope.length - 1; index >= 0; index--) if (this.dynamicScope[index].has(anchor)) return this.dynamicScope[index].get(anchor)
    return undefined
  }

  /** `typeAndNullability` of a node already resolved (a field's property is resolved once for its type and its words). */
  private typeOfResolved(resolved: Resolved, fallback: string | (() => string)): {type: string; nullable: boolean} {
    const schema = resolved.value
    const name = resolved.name === undefined ? undefined : catalogueName(resolved.name)
    if (resolved.external && name) {
      // One type per outside URL: two URLs with one file name (`…/v2.1.0/collection.json`, `…/v2.0.0/collection.json`)
      // are two types (`collection`, `collection2`).
      let typeName = this.externals.get(resolved.external)
      if (typeName === undefined) {
        typeName = this.freeName(name)
        this.externals.set(resolved.external, typeName)
        this.types.set(typeName, {name: typeName, kind: 'scalar', description: `Defined outside this document, at ${resolved.external}`})
      }
      return {type: typeName, nullable: false}
    }
    // No schema at all (an array without `items`, a boolean schema `true`) is any value.
    if (!schema) return {type: 'any', nullable: false}
    if (this.dynamicScope.length > 0 && typeof schema.$dynamicRef === 'string') {
      const bound = this.dynamicTarget(schema.$dynamicRef)
      if (bound !== undefined) return this.typeAndNullability(bound, fallback)
    }
    // "An X or null" (`nullable` beside `allOf: [X]`, `anyOf`/`oneOf` of X and null, or of X alone) is X, not a new
    // type; but a named schema that only extends another (`SimplifiedShow: {allOf: [ShowBase]}`, or a `oneOf` of it)
    // is a type of its own, by its name.
    const wrapped = wrappedSchema(schema)
    const alias = name !== undefined && (Array.isArray(schema.allOf) || Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) && !allowsNull(schema)
    if (wrapped !== undefined && !alias) return {type: this.typeOf(wrapped, fallback), nullable: allowsNull(schema)}
    return {type: this.named(schema, name, fallback), nullable: allowsNull(schema)}
  }

  /** Register every named schema of the document (`--all-types`). */
  addAll(schemas: Record<string, unknown>, refPrefix: string) {
    for (const name of Object.keys(schemas)) this.typeOf({$ref: `${refPrefix}${name.replace(/~/g, '~0').replace(/\//g, '~1')}`}, name)
  }

  // Called for nearly every schema of a document: it builds no closure, and a name only when it needs one.
  private named(schema: Schema, name: string | undefined, fallback: string | (() => string)): string {
    this.leaveOutUnsupported(schema, name ?? fallback)
    // A named array's items are named after it (`Tags: {type: array, items: {…}}` holds `TagsItem`).
    if (schema.type === 'array' || ((schema.items || schema.prefixItems) && !schema.properties)) {
      const arrayName = name ?? spelled(fallback)
      const items = this.itemsOf(schema, arrayName)
      // A named list of maps written inline (`Counts: {type: array, items: {additionalProperties: …}}`) is a list of
      // a type of its own, which says the maps' values: no field beside it could.
      if (name !== undefined && this.isInlineMapNode(items)) return `${this.bodyTypeOf(items, `${arrayName}Item`)}[]`
      return `${this.typeOf(items, `${arrayName}Item`)}[]`
    }
    // An unnamed primitive is its JSON type: answer before building a name for it.
    // `type: [string, integer]` is a union of the two, as `oneOf` would write it.
    const primitives = Array.isArray(schema.type) ? schema.type.filter((type) => type !== 'null') : undefined
    if (primitives && primitives.length > 1 && primitives.every((type) => typeof type === 'string' && scalarTypes.has(type)) && !schema.enum && !('const' in schema)) {
      const known = this.known(schema)
      if (known) return known
      const typeName = this.claimType(schema, name, fallback)
      const type = Object.assign(typeHead(typeName, 'union', schema), {members: [...new Set(primitives as string[])]})
      this.types.set(typeName, type)
      return name ? typeName : this.shared(schema, type)
    }
    if (this.options.unknownTypes) this.reportUnknownTypes(schema)
    const simple = typeof schema.type === 'string' ? jsonType(schema.type) : Array.isArray(schema.type) ? nonNullType(schema.type) : schema.type === undefined && 'const' in schema ? untypedType(schema) : schema.type === undefined ? enumType(schema.enum) : undefined
    if (!name && simple && simple !== 'object' && simple !== 'array' && !schema.enum && !schema.oneOf && !schema.anyOf && !schema.allOf) return simple
    const known = this.known(schema)
    if (known) return known
    const constants = constantsOf(schema)
    if (constants) return this.enumerated(schema, constants, name)
    const variants = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined
    if (Array.isArray(variants) && variants.length > 0 && !variants.every((variant) => constraintOnly(this.refs.resolve(variant).value))) {
      const typeName = this.claimType(schema, name, fallback)
      const type = Object.assign(typeHead(typeName, 'union', schema), {members: [] as string[]})
      this.types.set(typeName, type)
      if (!name) this.building.add(schema)
      const kept = variants.filter((variant) => !isNullSchema(this.refs.resolve(variant).value))
      // Inline members are named by their titles when each has its own (`Card`, `Bank Account`), else by place.
      const titles = kept.map((variant) => {
        const title = (this.refs.resolve(variant).value as {title?: unknown} | undefined)?.title
        return typeof title === 'string' && /[A-Za-z]/.test(title) ? pascal(title) : undefined
      })
      const titled = titles.every((title) => title !== undefined) && new Set(titles).size === titles.length
      const members = kept.map((variant, index) => this.typeOf(variant, titled ? `${typeName}${titles[index]}` : `${typeName}Option${index + 1}`))
      type.members = [...new Set(members)]
      this.discriminated(type, schema)
      return name ? typeName : this.shared(schema, type)
    }
    if (Array.isArray(schema.enum) && schema.enum.length > 0 && (schema.type === 'string' || schema.enum.every((item) => typeof item === 'string' || item === null)) && name) {
      const typeName = this.claim(schema, name)
      this.types.set(typeName, Object.assign(typeHead(typeName, 'enum', schema), {values: schema.enum.filter((item) => item !== null).map(String)}))
      return typeName
    }
    if (schema.type === 'object' || schema.properties || schema.allOf || schema.additionalProperties) {
      if (!schema.properties && !schema.allOf && !name) return 'object'
      return this.objectType(schema, name, fallback)
    }
    const primitive = simple ?? (schema.type === undefined ? untypedType(schema) : 'object')
    if (name) {
      const typeName = this.claim(schema, name)
      this.types.set(typeName, scalarType(typeName, schema, primitive))
      return typeName
    }
    return primitive
  }

  /** The object type of `schema`: its fields (`allOf` merged), its map values, its discriminator. */
  private objectType(schema: Schema, name: string | undefined, fallback: string | (() => string)): string {
    const typeName = this.claimType(schema, name, fallback)
    const type = Object.assign(typeHead(typeName, 'object', schema), {fields: [] as Field[]})
    this.types.set(typeName, type)
    if (!name) this.building.add(schema)
    type.fields = this.fieldsOf(schema, typeName)
    const values = this.mapValues(schema, `${typeName}Value`)
    if (values) type['x-map-values'] = values
    this.discriminated(type, schema)
    return name ? typeName : this.shared(schema, type)
  }

  /** The type name `schema` has already, if any (one met inside its own type, which is being built, is marked so). */
  private known(schema: Schema): string | undefined {
    const known = this.names.get(schema)
    if (known !== undefined && this.building.has(schema)) this.reentered.add(schema)
    return known
  }

  /**
   * The name of the inline type just built for `schema` (with `mergeInline`): two inline schemas that say the same
   * (the same fields with the same types, words and facts; the same members) and whose places' names end in the same
   * words are one type, as code generators merge identical inline models, named at the end by those words (see
   * {@link sharedNames}). Descriptions that write every operation's error body inline (loket.nl: one `401` body in
   * each of 661 operations) would otherwise list hundreds of copies. Inner types are merged first, so their names
   * already agree. A type named after its schema (`components/schemas`, a file) is never merged, nor merges away one
   * that a type built inside it names (its name is taken by then: in Microsoft Graph's beta description, `Site`
   * names the `createdByUser` union of `Drive`, which the union's members reach).
   */
  private shared(schema: Schema, type: TypeDefinition): string {
    this.building.delete(schema)
    if (!this.options.mergeInline) return type.name
    const name = type.name
    // Places whose names share no name for the type stay apart (`CommentPost` and `UserPostsItem`, both "a Post or
    // its key"): either name would mislead at the other place. Two places share a name when their last two words
    // are the same and the last is no number (see `sharedName`), so these two words pick the one type to merge with.
    const words = nameWordsOf(name)
    if (words.length < 2 || /^\d/.test(words[words.length - 1])) return name
    const ending = `${words[words.length - 2]} ${words[words.length - 1]}`
    // Types are compared only with those of their shape and ending: most inline types with none, some with a few,
    // by their JSON without building it; a few hundred with a hundred at most (loket.nl's error bodies, which differ
    // in their descriptions), by their JSON as keys.
    const key = `${ending}\n${shapeOf(type)}`
    let place = this.inlineByShape.get(key)
    let body: string | undefined
    const same = place === undefined ? undefined : place.byBody ? place.byBody.get((body = bodyOf(type))) : place.types.find((candidate) => sameBody(candidate.type, type))
    // A type that a type built inside it names stays (others may still merge with it).
    if (same !== undefined && this.reentered.has(schema)) return name
    if (same === undefined) {
      const entry = {name, words, type}
      if (place === undefined) this.inlineByShape.set(key, (place = {types: []}))
      place.types.push(entry)
      if (place.byBody) place.byBody.set(body!, entry)
      else if (place.types.length > comparedInPlace) place.byBody = new Map(place.types.map((candidate) => [bodyOf(candidate.type), candidate]))
      return name
    }
    same.words = commonTail(same.words, words)
    this.merged.add(same)
    this.types.delete(name)
    this.names.set(schema, same.name)
    return same.name
  }

  /**
   * The names of the merged inline types, once every type is known: the words that the names of all its places end
   * with (`CommentListResponseMeta` and `PostListResponseMeta` share `ListResponseMeta`, see {@link sharedName}), when
   * no other type has them; else the first place's name stays. Old name -> new name, for `renameTypes`.
   */
  sharedNames(): Map<string, string> {
    const renamed = new Map<string, string>()
    const taken = new Set(this.types.keys())
    for (const {name, words} of this.merged) {
      const better = sharedName(words)
      if (better === undefined || better === name || taken.has(better) || jsonTypes.has(better)) continue
      taken.add(better)
      renamed.set(name, better)
    }
    return renamed
  }

  /**
   * A schema that lists its values as `oneOf` constants (see {@link constantsOf}) is the enum it would be written as
   * `enum`: named, a string enum type (else a scalar, as a named number enum is); unnamed, the values' JSON type, and
   * the field or param lists the values (see `factsOf`).
   */
  private enumerated(schema: Schema, values: Array<string | number | boolean>, name: string | undefined): string {
    const primitive = enumType(values)!
    if (!name) return primitive
    const typeName = this.claim(schema, name)
    if (primitive === 'string') this.types.set(typeName, Object.assign(typeHead(typeName, 'enum', schema), {values: [...new Set(values.map(String))]}))
    else this.types.set(typeName, scalarType(typeName, schema, primitive))
    return typeName
  }

  /**
   * What a field or param of type `type` says beside its type, for the page's reference: its enum values (unless the
   * type is a named enum, which lists them itself; an array's are its items'), its default and its example. `holder`
   * is the schema as written: a `default` or `example` beside a `$ref` (3.1) wins over the target's, and "an X or
   * null" says what X says.
   */
  factsOf(holder: unknown, type: string): SchemaFacts {
    const target = this.refs.resolve(holder).value
    const facts: SchemaFacts = {}
    this.addFacts(facts, holder, type, target, this.unwrapped(target))
    return facts
  }

  /**
   * `factsOf`, written into `facts` (a field), with `holder` resolved (`target`) and its value schema (`value`, see
   * `valueSchema`) at hand.
   */
  private addFacts(facts: SchemaFacts, holder: unknown, type: string, target: Schema | undefined, value: Schema | undefined): void {
    const written = record(holder)
    const resolved = target ?? {}
    const schema = value ?? {}
    const item = type.endsWith('[]') ? this.valueSchema(schema.items) : undefined
    // A `const` is an enum of one value (a discriminator's `type: {const: created}` tells the members of a union apart).
    const source = item ?? schema
    const values = source.enum ?? ('const' in source ? [source.const] : constantsOf(source))
    if (Array.isArray(values) && values.length > 0 && !this.types.get(type.replace(/(\[\])+$/, ''))?.values && values.every(isEnumValue)) facts.enum = values as SchemaFacts['enum']
    const fallback = written.default ?? resolved.default ?? schema.default
    if (fallback !== undefined) facts.default = fallback
    const example = written.example ?? resolved.example ?? schema.example ?? (Array.isArray(schema.examples) ? schema.examples[0] : undefined)
    if (example !== undefined) facts.example = example
    if (typeof source.format === 'string' && source.format && source.type !== 'object' && source.type !== 'array') facts['x-format'] = source.format
  }

  /**
   * The fields an object schema describes (`allOf` merged, `required` from every member), without making it a type:
   * an AsyncAPI message's `headers` are the event's header params, not a type of their own. Inline objects inside are
   * named `<owner><Field>`. Empty for a schema without properties.
   */
  fieldsOfSchema(node: unknown, owner: string): Field[] {
    const schema = this.refs.resolve(node).value
    return schema ? this.fieldsOf(schema, owner) : []
  }

  /** Whether the items of the array `node` is may be null (`items: {type: string, nullable: true}`): `x-items-nullable`. */
  itemsNullable(node: unknown): boolean {
    return this.itemsNullableIn(this.valueSchema(node))
  }

  /** `itemsNullable` of a value schema already at hand. */
  private itemsNullableIn(value: Schema | undefined): boolean {
    const items = value?.items
    return items !== null && typeof items === 'object' && !Array.isArray(items) && allowsNull(this.refs.resolve(items).value ?? {})
  }

  /** The schema that says what a value is: `node` resolved, and "an X or null" (`anyOf: [X, null]`, …) is X. */
  private valueSchema(node: unknown): Schema | undefined {
    return this.unwrapped(this.refs.resolve(node).value)
  }

  /** `valueSchema` of a node already resolved. */
  private unwrapped(resolved: Schema | undefined): Schema | undefined {
    let schema = resolved
    // A few levels at most: wrappers of wrappers are rare, and a cycle of them must end.
    for (let depth = 0; schema && depth < 8; depth++) {
      const wrapped = wrappedSchema(schema)
      if (wrapped === undefined) break
      schema = this.refs.resolve(wrapped).value
    }
    return schema
  }

  /**
   * The type of the values of a map (`additionalProperties` with a schema: keys of any name, each such a value), which
   * the catalogue keeps as `x-map-values` beside `object`; none for a free-form object (`true`, `{}`).
   */
  private mapValues(schema: Schema, fallback: string): string | undefined {
    const values = mapValuesSchema(schema)
    return values === undefined ? undefined : this.typeOf(values, fallback)
  }

  /**
   * A discriminator (`{propertyName: kind, mapping: {cat: Cat}}`) says which value of a property means which type:
   * the types its mapping names are imported (subtypes that extend a base type are often reached no other way), and
   * the type keeps it as `x-discriminator` (`{property, mapping: {value: type name}}`).
   */
  private discriminated(type: TypeDefinition, schema: Schema): void {
    const discriminator = record(schema.discriminator)
    const property = text(discriminator.propertyName)
    if (!property) return
    const mapping: Record<string, string> = {}
    const nowhere: string[] = []
    for (const [value, target] of Object.entries(record(discriminator.mapping))) {
      if (typeof target !== 'string' || target === '') continue
      // A mapping names a schema by a ref, or by its name under `components/schemas`.
      const ref = /[#/.]/.test(target) ? target : `#/components/schemas/${target}`
      const holder = this.refs.refBeside(schema, ref)
      const {missing} = this.refs.resolve(holder)
      if (missing === undefined) mapping[value] = this.typeOf(holder, () => pascal(value))
      else nowhere.push(`\`${value}\` (\`${target}\`: ${this.refs.broken.get(holder)?.reason ?? 'not found'})`)
    }
    // A mapping to nothing says nothing of the subtype: left out, and said, at the mapping.
    if (nowhere.length > 0) this.onDropped?.(`Left out discriminator mapping ${nowhere.join(', ')}`, discriminator.mapping as object)
    type['x-discriminator'] = Object.keys(mapping).length > 0 ? {property, mapping} : {property}
  }

  /**
   * `not` and `if`/`then`/`else` have no catalogue equivalent, nor has a `$dynamicRef` (JSON Schema 2020-12's generics:
   * `items: {$dynamicRef: '#itemType'}`) that no `$dynamicAnchor` around it binds (a bound one never gets here, see
   * {@link boundType}): the importer is told, once a schema, and the rest of the schema is kept (a schema of only a
   * `$dynamicRef` is any value). Asked of every schema typed and of each `allOf` member whose fields it takes.
   */
  private leaveOutUnsupported(schema: Schema, name: string | (() => string)): void {
    if (schema.not === undefined && schema.if === undefined && schema.$dynamicRef === undefined) return
    if (!this.onDropped || this.reported.has(schema)) return
    this.reported.add(schema)
    const unsupported = unsupportedKeywords.filter((keyword) => schema[keyword] !== undefined)
    const dynamic = typeof schema.$dynamicRef === 'string' && this.options.dynamicRefs ? `: nothing that refers to it binds \`${schema.$dynamicRef.replace(/^#/, '')}\` with a \`$dynamicAnchor\`` : undefined
    if (unsupported.length === 1 && dynamic) this.onDropped(`Read \`$dynamicRef\` of schema \`${spelled(name)}\` as any value${dynamic}`, schema)
    else this.onDropped(`Left out \`${unsupported.join('`, `')}\` of schema \`${spelled(name)}\`: the catalogue has no ${lacking[unsupported[0]]}`, schema)
  }

  /**
   * The schema of an array's items. A tuple — a list of schemas by position, `prefixItems` in OpenAPI 3.1 (JSON
   * Schema 2020-12) or a list under `items` as JSON Schema draft 4 wrote it (invalid in OpenAPI) — has no catalogue
   * equivalent: its first entry stands for the items, and the importer is told.
   */
  private itemsOf(schema: Schema, name: string): unknown {
    const keyword = Array.isArray(schema.prefixItems) && schema.prefixItems.length > 0 ? 'prefixItems' : Array.isArray(schema.items) ? 'items' : undefined
    if (keyword === undefined) return schema.items
    if (this.onDropped && !this.reported.has(schema)) {
      this.reported.add(schema)
      this.onDropped(`Read \`${keyword}\` of schema \`${name}\` as its first entry: a list of item schemas (a tuple) has no catalogue equivalent`, schema)
    }
    return (schema[keyword] as unknown[])[0]
  }

  /**
   * A name for `schema`: `wanted`, or `wanted2`, `wanted3`… when another schema has it (two files named `Item.yml`) or
   * it is the name of a JSON type (Twilio's schema `string`: every plain string would read as that type).
   */
  private claim(schema: Schema, wanted: string): string {
    const candidate = this.freeName(wanted)
    this.names.set(schema, candidate)
    return candidate
  }

  /**
   * `claim` for a type named `name` if it has a name, else after its place (`fallback`); an inline schema named while
   * dynamic anchors are bound is noted, and forgotten once they are not (see {@link boundType}).
   */
  private claimType(schema: Schema, name: string | undefined, fallback: string | (() => string)): string {
    const typeName = this.claim(schema, name ?? pascal(spelled(fallback)))
    if (name === undefined && this.dynamicScope.length > 0) this.boundInline.push(schema)
    return typeName
  }

  /**
   * `wanted`, or `wanted2`, `wanted3`… when a type has it or it is the name of a JSON type. The search for a numbered
   * name starts after the last one given for `wanted`: types are only ever added, so the names before it are taken
   * (n inline params of one name, `created` in each of Stripe's list operations, would otherwise try n²/2 names).
   */
  private freeName(wanted: string): string {
    if (!this.types.has(wanted) && !jsonTypes.has(wanted)) return wanted
    let counter = this.lastSuffix.get(wanted) ?? 1
    let candidate: string
    do candidate = `${wanted}${++counter}`
    while (this.types.has(candidate) || jsonTypes.has(candidate))
    this.lastSuffix.set(wanted, counter)
    return candidate
  }

  private fieldsOf(schema: Schema, owner: string): Field[] {
    // Most object schemas have no `allOf`: their fields are their properties, each once, in order.
    if (!Array.isArray(schema.allOf)) return this.ownFields(schema, owner)
    const fields = new Map<string, Field>()
    const required = new Set<string>()
    this.collectFields(schema, owner, fields, required, new Set())
    // `required` may sit in another `allOf` member than the property it names: it counts wherever it is.
    const list = [...fields.values()]
    for (const field of list) if (required.has(field.name)) field.required = true
    return list
  }

  /** The fields of a schema without `allOf` (see `fieldsOf`), without the bookkeeping of merging members. */
  private ownFields(schema: Schema, owner: string): Field[] {
    const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : undefined
    const properties = record(schema.properties)
    const fields: Field[] = []
    for (const name in properties) {
      if (!isFieldName(properties, name)) continue
      const field = this.fieldOf(name, properties[name], owner)
      if (required?.includes(name)) field.required = true
      fields.push(field)
    }
    return fields
  }

  private collectFields(schema: Schema, owner: string, fields: Map<string, Field>, required: Set<string>, visiting: Set<Schema>): void {
    if (visiting.has(schema)) return
    visiting.add(schema)
    if (Array.isArray(schema.allOf)) {
      for (const part of schema.allOf) {
        const resolved = this.refs.resolve(part)
        const member = resolved.value ?? {}
        this.leaveOutUnsupported(member, () => (resolved.name === undefined ? owner : catalogueName(resolved.name)))
        this.collectFields(member, owner, fields, required, visiting)
      }
    }
    if (Array.isArray(schema.required)) for (const name of schema.required) if (typeof name === 'string') required.add(name)
    const properties = record(schema.properties)
    for (const name in properties) {
      if (!isFieldName(properties, name)) continue
      const property = properties[name]
      const field = this.fieldOf(name, property, owner)
      // A later member refines an earlier one's field (the last definition wins, as in a merged schema).
      const earlier = fields.get(name)
      if (!earlier) {
        fields.set(name, field)
        continue
      }
      // A member that only annotates a field (`sender_id: {readOnly: true}`) says nothing of its type: it keeps the
      // earlier definition's, with the annotation's words.
      if (annotationOnly(record(property))) {
        fields.set(name, {...earlier, ...(field.description ? {description: field.description} : {}), ...(field['x-deprecated'] ? {'x-deprecated': true} : {}), ...(field['x-read-only'] ? {'x-read-only': true} : {})})
        continue
      }
      const merged = {...earlier, ...field}
      // `allOf` asks a value to meet every member: it may be null only if every definition of the field allows it.
      if (!(earlier['x-nullable'] && field['x-nullable'])) delete merged['x-nullable']
      if (!(earlier['x-items-nullable'] && field['x-items-nullable'])) delete merged['x-items-nullable']
      fields.set(name, merged)
    }
  }

  /** The field that property `name` (its schema as written: `property`) of a type named `owner` is, not yet `required`. */
  private fieldOf(name: string, property: unknown, owner: string): Field {
    const resolved = this.refs.resolve(property)
    const {type, nullable} = this.typeOfNode(property, resolved, () => `${owner}${pascal(name)}`)
    const field: Field = {name, type, required: false}
    // A description beside a `$ref` (OpenAPI 3.1 allows it) says what this property is: it wins over the target's.
    const target = resolved.value ?? {}
    // What the property holds ("an X or null" is X): its words, its items, its map values and facts are read there.
    const value = this.unwrapped(resolved.value)
    const description = text(record(property).description) ?? annotatedDescription(property) ?? text(target.description) ?? text(value?.description)
    if (description) field.description = description.trim()
    if (nullable) field['x-nullable'] = true
    if (type.endsWith('[]') && this.itemsNullableIn(value)) field['x-items-nullable'] = true
    if (record(property).deprecated === true || target.deprecated === true) field['x-deprecated'] = true
    // Sent by the server only (`readOnly`): a request leaves it out, even when `required` lists it.
    if (record(property).readOnly === true || target.readOnly === true) field['x-read-only'] = true
    // A map written inline (`{type: object, additionalProperties: {type: integer}}`) is typed `object`, a list of
    // them `object[]`; the type of the values is said beside.
    const map = type === 'object' ? value : type === 'object[]' ? this.valueSchema(value?.items) : undefined
    const values = map ? this.mapValues(map, `${owner}${pascal(name)}Value`) : undefined
    if (values) field['x-map-values'] = values
    this.addFacts(field, property, type, resolved.value, value)
    return field
  }
}

/**
 * A schema that binds dynamic anchors for the target of its `$ref` (see `SchemaTypes.boundType`): the schema, anchor ->
 * the `$defs` entry that declares it, and the name a `$ref` to the schema gives it, when one led there.
 */
interface Binding {
  holder: Schema
  anchors: Map<string, unknown>
  name?: string
}

/** The `$defs` entries of `schema` with a `$dynamicAnchor`, by anchor; undefined when it has none. */
function anchorsIn(schema: Schema): Map<string, unknown> | undefined {
  const definitions = schema.$defs
  if (!definitions || typeof definitions !== 'object') return undefined
  let anchors: Map<string, unknown> | undefined
  for (const definition of Object.values(definitions)) {
    const anchor = record(definition).$dynamicAnchor
    if (typeof anchor === 'string' && anchor !== '') (anchors ??= new Map()).set(anchor, definition)
  }
  return anchors
}

/** The words of a PascalCase name: `GetPet401Response` -> Get, Pet, 401, Response. */
const nameWords = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g

/** An inline type that others may merge with: its name, the words all its places end with, and the type. */
interface InlineType {
  name: string
  words: string[]
  type: TypeDefinition
}

/** A type's kind, fields' names and types, and members: what two types that say the same share first. */
function shapeOf(type: TypeDefinition): string {
  let shape = type.kind ?? ''
  for (const field of type.fields ?? []) shape += `\n${field.name}\t${field.type}`
  return type.members ? `${shape}\n${type.members.join('|')}` : shape
}

/** Inline types of one shape and ending compared with each other; past this many, found by their JSON. */
const comparedInPlace = 8

/** Whether two types say the same but for their names: whether their JSON would be, without `name`. */
function sameBody(a: TypeDefinition, b: TypeDefinition): boolean {
  return sameJson(a, b, 'name')
}

/** All that a type says but its name, as JSON (a type's name is its first key: cut from its JSON, not copied out). */
function bodyOf(type: TypeDefinition): string {
  const json = JSON.stringify(type)
  const head = `{"name":${JSON.stringify(type.name)}`
  if (json.startsWith(head)) return json.slice(head.length)
  const {name: _name, ...body} = type
  return JSON.stringify(body)
}

/**
 * Whether `JSON.stringify(a) === JSON.stringify(b)` for values made of JSON's data (as parsed, or built from it),
 * without building either text: the same keys in the same order with the same values, members whose value JSON
 * leaves out (`undefined`) skipped, and at the top, the member `except`.
 */
function sameJson(a: unknown, b: unknown, except?: string): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false
    // An array's `undefined` item is written `null`.
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index] ?? null, b[index] ?? null)) return false
    return true
  }
  if (Array.isArray(b)) return false
  const left = a as Record<string, unknown>
  const right = b as Record<string, unknown>
  const rightKeys = Object.keys(right)
  let at = nextKey(right, rightKeys, 0, except)
  for (const key in left) {
    if (key === except || left[key] === undefined) continue
    if (rightKeys[at] !== key || !sameJson(left[key], right[key])) return false
    at = nextKey(right, rightKeys, at + 1, except)
  }
  return at === rightKeys.length
}

/** The index of the first of `keys` from `at` on that JSON writes (see {@link sameJson}). */
function nextKey(value: Record<string, unknown>, keys: string[], at: number, except: string | undefined): number {
  while (at < keys.length && (keys[at] === except || value[keys[at]] === undefined)) at++
  return at
}

function nameWordsOf(name: string): string[] {
  return name.match(nameWords) ?? []
}

/** The words that both `a` and `b` end with. */
function commonTail(a: string[], b: string[]): string[] {
  let count = 0
  while (count < a.length && count < b.length && a[a.length - 1 - count] === b[b.length - 1 - count]) count++
  return a.slice(a.length - count)
}

/**
 * A type name made of the words that the names of a merged type's places end with, from the last number among them,
 * or undefined for fewer than two words. A name starts with a letter: the number goes last (the `401Response` of
 * `GetPet401Response` and `ListPets401Response` is `Response401`; words before it are the places' own).
 */
function sharedName(tail: string[]): string | undefined {
  const number = tail.findLastIndex((word) => /^\d/.test(word))
  if (number === -1) return tail.length >= 2 ? tail.join('') : undefined
  const words = tail.slice(number + 1)
  return words.length > 0 ? [...words, tail[number]].join('') : undefined
}

/** Whether `schema` is a map (`additionalProperties` with a schema) and nothing more: no properties, no members. */
function isInlineMap(schema: Schema): boolean {
  return mapValuesSchema(schema) !== undefined && (schema.type === 'object' || schema.type === undefined) && !schema.properties && !schema.allOf && !schema.oneOf && !schema.anyOf && !schema.items
}

/** The schema of a map's values (`additionalProperties` with a schema); none for a free-form object (`true`, `{}`). */
function mapValuesSchema(schema: Schema): Schema | undefined {
  const values = schema.additionalProperties
  return values && typeof values === 'object' && !Array.isArray(values) && Object.keys(values).length > 0 ? (values as Schema) : undefined
}

/** Whether key `name` of `properties` is a field: its own, and not "" (a field's name cannot be empty). */
function isFieldName(properties: Record<string, unknown>, name: string): boolean {
  return name !== '' && Object.hasOwn(properties, name)
}

/**
 * The type name a schema's `$id` gives, as an outside ref's URL names its type (`…/schemas/PaginatedPlanets`,
 * `schemas/page.json` -> `Page`), or undefined for none or one without a letter.
 */
function idName(id: unknown): string | undefined {
  if (typeof id !== 'string' || id === '') return undefined
  const name = urlName(id.replace(/#.*$/, ''))
  return /[A-Za-z]/.test(name) ? pascal(catalogueName(name)) : undefined
}

/** A name given as is or as a function that builds it. */
function spelled(name: string | (() => string)): string {
  return typeof name === 'function' ? name() : name
}

/** What the catalogue has not, for each keyword `leaveOutUnsupported` tells of. */
const lacking: Record<string, string> = {not: 'negated types', if: 'conditional types', $dynamicRef: 'dynamic references'}
const unsupportedKeywords = Object.keys(lacking)

/** The JSON types of single values. */
const scalarTypes = new Set(['string', 'integer', 'number', 'boolean'])

/** The type names a catalogue gives unnamed values: a schema of one of these names must be called otherwise. */
const jsonTypes = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'])

/**
 * A schema's `type` as the catalogue writes it: a JSON type (and Swagger 2's `file`), else `any`: a type the
 * schema language does not have (`strin`, `date`) names nothing, and the document check says where it is written.
 */
function jsonType(type: string): string {
  return jsonTypes.has(type) || type === 'file' ? type : 'any'
}

/** Keywords that only constrain the object a schema stands beside: which of its fields must come, and how many. */
const constraintKeywords = new Set(['required', 'minProperties', 'maxProperties', 'dependentRequired', 'not', 'description', 'title'])

/**
 * Whether a `oneOf`/`anyOf` member only constrains the object beside it (`anyOf: [{required: [state]}, {required:
 * [reason]}]`, as GitHub writes "one of these fields"): the object keeps its fields, none of them required, instead of
 * becoming a union of shapes that are not there.
 */
function constraintOnly(schema: Record<string, unknown> | undefined): boolean {
  return schema !== undefined && Object.keys(schema).every((key) => constraintKeywords.has(key) || key.startsWith('x-'))
}

/** The keywords that say what values a schema allows; a schema without any of them only annotates (`readOnly`, `description`). */
const typeKeywords = ['$ref', 'type', 'properties', 'items', 'required', 'enum', 'const', 'allOf', 'anyOf', 'oneOf', 'additionalProperties', 'not']

function annotationOnly(schema: Schema): boolean {
  return !typeKeywords.some((keyword) => schema[keyword] !== undefined)
}

/** The description an `allOf` member that only annotates gives its schema (`allOf: [{$ref: X}, {description: …}]`). */
function annotatedDescription(schema: unknown): string | undefined {
  const members = record(schema).allOf
  if (!Array.isArray(members)) return undefined
  return members.map(record).filter(annotationOnly).map((member) => text(member.description)).find((description) => description !== undefined)
}

/** A value the page can list as one of a field's values. */
function isEnumValue(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
}

/** The one schema that `schema` only wraps to allow null or add words: `allOf: [X]`, `anyOf`/`oneOf: [X]` or `[X, null]`. */
function wrappedSchema(schema: Schema): unknown {
  // `required` beside `allOf: [X]` asks more of X (the fields a request must send): a type of its own.
  if (schema.properties || schema.items || (Array.isArray(schema.required) && schema.required.length > 0)) return undefined
  if (schema.type !== undefined && schema.type !== 'object' && !Array.isArray(schema.type)) return undefined
  // Members that only annotate (`allOf: [{$ref: X}, {description: …}]`) leave X as it is.
  const allOf = Array.isArray(schema.allOf) ? schema.allOf.filter((member) => !annotationOnly(record(member))) : undefined
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined
  if (allOf && allOf.length === 1 && !variants) return allOf[0]
  if (variants && !allOf) {
    // A union of one schema (NSwag writes every `$ref` beside `nullable` as `oneOf: [X]`) is that schema.
    const kept = variants.filter((variant) => !isNullSchema(variant))
    if (kept.length === 1) return kept[0]
  }
  return undefined
}

/**
 * The values of an enum written as a union of constants, so that each value has its own words (`oneOf: [{const: 1,
 * title: GUILD}, {const: 2, title: DM}]`, or `enum`s of one value each; Discord and GitHub write them): every variant
 * inline, a `const` or an `enum` of values of one JSON type (a `null` among them makes the field nullable). Undefined
 * for any other schema.
 */
/** What a variant of a union of constants may say of its value (a `$ref`, `properties`… make it more). */
const constantKeywords = new Set(['type', 'enum', 'const'])

function constantsOf(schema: Schema): Array<string | number | boolean> | undefined {
  const variants = schema.oneOf ?? schema.anyOf
  if (!Array.isArray(variants) || variants.length < 2 || schema.properties || schema.allOf) return undefined
  const values: Array<string | number | boolean> = []
  for (const variant of variants) {
    const member = record(variant)
    if (member !== variant || typeKeywords.some((keyword) => !constantKeywords.has(keyword) && member[keyword] !== undefined)) return undefined
    if (isNullSchema(member)) continue
    const own = Array.isArray(member.enum) ? member.enum : 'const' in member ? [member.const] : undefined
    if (!own) return undefined
    for (const value of own) {
      if (value === null) continue
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined
      values.push(value)
    }
  }
  return values.length > 0 && enumType(values) !== undefined ? values : undefined
}

function isNullSchema(schema: unknown): boolean {
  const node = record(schema)
  return node.type === 'null' || (Array.isArray(node.enum) && node.enum.length === 1 && node.enum[0] === null) || ('const' in node && node.const === null)
}

function allowsNull(schema: Schema): boolean {
  if (schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null'))) return true
  const variants = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined
  return variants !== undefined && variants.some(isNullSchema)
}

function nonNullType(types: unknown[]): string {
  return jsonType(String(types.find((type) => type !== 'null') ?? 'null'))
}

/** A named scalar's description: the schema's words, then its JSON type and format (`Unix time — integer (int64)`). */
function scalarDescription(schema: Schema, primitive: string): string {
  const format = text(schema.format)
  return [text(schema.description)?.trim(), `${primitive}${format ? ` (${format})` : ''}`].filter(Boolean).join(' — ')
}

/**
 * A type's first keys, in the catalogue's order: its name and kind, its schema's description, and `x-deprecated`
 * when the schema is deprecated. Set one by one: thousands of types are made per import, and spreads of small
 * objects cost more than the keys.
 */
function typeHead(name: string, kind: NonNullable<TypeDefinition['kind']>, schema: Schema): TypeDefinition {
  const type: TypeDefinition = {name, kind}
  const description = text(schema.description)?.trim()
  if (description) type.description = description
  if (schema.deprecated === true) type['x-deprecated'] = true
  return type
}

/** A named scalar: its words, JSON type and format as its description (see `scalarDescription`), and `x-deprecated`. */
function scalarType(name: string, schema: Schema, primitive: string): TypeDefinition {
  const type: TypeDefinition = {name, kind: 'scalar', description: scalarDescription(schema, primitive)}
  if (schema.deprecated === true) type['x-deprecated'] = true
  return type
}

/** The JSON type of the values of an enum written without `type` (`enum: [text, checkbox]` -> `string`), if they share one. */
function enumType(values: unknown): string | undefined {
  if (!Array.isArray(values)) return undefined
  const kinds = new Set(values.filter((value) => value !== null).map((value) => (typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value)))
  if (kinds.has('number')) kinds.delete('integer')
  const [kind] = kinds
  return kinds.size === 1 && ['string', 'integer', 'number', 'boolean'].includes(kind) ? kind : undefined
}

/** Keywords that say what kind of value a schema without `type` holds; a schema with none of them holds any value. */
const kindKeywords = ['properties', 'additionalProperties', 'patternProperties', 'required', 'items', 'prefixItems', 'allOf', 'anyOf', 'oneOf', 'enum', 'not', 'if']

/** The formats of numbers; any other `format` (`date-time`, `uuid`, `binary`…) is a string's. */
const numberFormats: Record<string, string> = {int32: 'integer', int64: 'integer', float: 'number', double: 'number'}

/**
 * The JSON type of a schema without `type`: what its `const` is (`const: book` -> `string`), what its `format` is a
 * format of, `any` when it says nothing of its value (`{}`, or only a description: JSON Schema's "any value"),
 * else `object`.
 */
function untypedType(schema: Schema): string {
  if ('const' in schema) {
    const value = schema.const
    if (value === null) return 'null'
    if (Array.isArray(value)) return 'array'
    if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
    return typeof value === 'string' || typeof value === 'boolean' ? typeof value : 'object'
  }
  if (kindKeywords.some((keyword) => schema[keyword] !== undefined)) return 'object'
  if (typeof schema.format === 'string') return numberFormats[schema.format] ?? 'string'
  return 'any'
}
