/**
 * import-asyncapi: an AsyncAPI 2.x or 3.x document becomes a catalogue of the events the application publishes
 * (2.x `subscribe` operations, 3.0 `send` operations; what it receives is left out and counted in a note). Each is
 * an `EVENT` endpoint: the channel address as the path, channel parameters as `path` params and the messages'
 * headers as `header` params (with `x-correlation-id`, where a reply finds the message's correlation id), the
 * message payload as the response type (a union when there are several messages), the first tag as the group
 * (else `default`), the operation's security, else the first server's, as `auth`. `meta` comes from `info` and the
 * first server.
 */
import type {VFile} from 'vfile'
import {translatePaths} from '../../pipeline/position.js'
import {hasErrors, type AsyncApiTree, type CatalogueTree} from '../../pipeline/data.js'
import {ruleSet, source, type RuleSetting} from '../../pipeline/rule.js'
import type {Processor} from 'unified'
import {importRule, note} from '../shared/import-findings.js'
import type {Catalogue, Endpoint, Group, Param} from '../../schemas/types/endpoints.js'
import {authKinds, authSchemes} from './auth.js'
import {describe} from '../shared/describe.js'
import {bindingsOf, publishedOperations, withTraits, type Published} from './operations.js'
import {pascal, record as asRecord, text as str} from '../shared/readers.js'
import {SchemaTypes} from '../shared/schema-types.js'
import {separateIds} from '../shared/separate-ids.js'
import {JsonRefs} from '../shared/json-refs.js'
import {brokenRefFindings} from '../shared/broken-refs.js'
import {addJsonOutput} from '../../pipeline/outputs.js'

/** Rule `asyncapi` (error): the document cannot be imported (no `asyncapi` field, AsyncAPI 1.x or an unknown version). */
export const asyncapiDocument = importRule<AsyncApiTree>({id: 'asyncapi', severity: 'error'})

/** Rule `asyncapi-empty` (warning): every operation of the document is one the application receives: nothing to list. */
export const asyncapiEmpty = importRule<AsyncApiTree>({id: 'asyncapi-empty', severity: 'warn'})

/** Rule `asyncapi-ref` (warning): a `$ref` that cannot be followed; what it names is left out, said how. */
export const asyncapiRef = importRule<AsyncApiTree>({id: 'asyncapi-ref', severity: 'warn'})

/** The versions whose every field the importer knows; another 2.x or 3.x is read as the last of its major. */
const knownVersion = /^(?:2\.[0-6]|3\.[01])\.\d+$/

/** Import AsyncAPI trees into catalogue trees, and add `<name>.endpoints.json` as an output. */
export default function importAsyncapi(this: Processor | void) {
  const settings = (this ? this.data('settings')?.rules : undefined) as Record<string, RuleSetting> | undefined
  const rules = ruleSet([asyncapiDocument, asyncapiEmpty, asyncapiRef], {}, settings)
  // The notes of what was left out belong to rule `asyncapi`: turned off, it says nothing.
  const quiet = ruleSet([asyncapiDocument], {}, settings) === undefined
  const inform = (file: VFile, reason: string) => {
    if (!quiet) file.info(reason, {ruleId: 'asyncapi', source})
  }
  return (tree: AsyncApiTree, file: VFile): CatalogueTree | undefined => {
    if (tree.type !== 'asyncapi') {
      note(file, 'asyncapi', 'Unexpected document without an `asyncapi` field, expected an AsyncAPI 2.x or 3.x document (a file that other documents reference is not one)')
      rules?.(tree, file)
      return undefined
    }
    if (!/^[23]\./.test(tree.version)) {
      const hint = /^1\./.test(tree.version) ? ': AsyncAPI 1.x is not supported (the AsyncAPI converter turns it into 2.x)' : ''
      note(file, 'asyncapi', `Unexpected AsyncAPI version \`${tree.version}\`, expected 2.x or 3.x${hint}`, ['asyncapi'])
      rules?.(tree, file)
      return undefined
    }
    if (!knownVersion.test(tree.version)) {
      inform(file, `AsyncAPI \`${tree.version}\` is not a version this importer knows: read as ${tree.version.startsWith('2.') ? '2.6' : '3.1'}, the last it knows of ${tree.version[0]}.x`)
    }
    const {spec, received, unknownActions} = asyncapiCatalogue(tree, file, (reason) => inform(file, reason))
    for (const key of unknownActions) {
      const action = asRecord(asRecord(tree.document.operations)[key]).action
      note(file, 'asyncapi', `Unexpected \`action\` ${JSON.stringify(action) ?? 'missing'} of operation \`${key}\`, expected \`send\` or \`receive\`; the operation is left out`, ['operations', key, 'action'])
    }
    const nothing = unknownActions.length > 0 ? undefined : nothingToImport(tree, spec, received)
    if (nothing) {
      note(file, 'asyncapi', nothing.reason, nothing.path)
      rules?.(tree, file)
      return undefined
    }
    if (received > 0 && spec.endpoints.length === 0) {
      const operations = tree.version.startsWith('3.') ? 'operations' : 'channels'
      note(file, 'asyncapi-empty', `The catalogue is empty: the document's ${received} operation(s) are what the application receives, and it sends nothing (3.0: \`action: send\` or a \`reply\`; 2.x: a channel's \`subscribe\`); the catalogue lists the events an application publishes, which the document of the application that sends them describes`, [operations])
    } else if (received > 0) inform(file, `Left out ${received} operation(s) the application receives; the catalogue lists what it publishes`)
    // Beside operations 3.0 reads, a channel still in 2.x's form: its `publish`/`subscribe` is left out, and said.
    const oldForm = oldFormChannels(tree)
    if (oldForm.length > 0) {
      inform(file, `Left out \`publish\`/\`subscribe\` of ${oldForm.length} channel(s), the first \`${oldForm[0]}\`: AsyncAPI 3.0 reads operations under \`operations\` only`)
    }
    const bindings = bindingsOf(tree.document)
    if (bindings.count > 0) {
      const protocols = bindings.protocols.length > 0 ? ` (${bindings.protocols.join(', ')})` : ''
      inform(file, `Left out the protocol bindings${protocols} of ${bindings.count} server(s), channel(s), operation(s) or message(s): the catalogue has no place for them`)
    }
    const stem = (file.stem ?? 'asyncapi').replace(/(-asyncapi|\.asyncapi)$/, '')
    rules?.(tree, file)
    // An operation of no known action is an error: the document is not one to trust a catalogue of.
    if (hasErrors(file)) return undefined
    addJsonOutput(file, `${stem}.endpoints.json`, spec)
    // Catalogue paths have no place in this source: findings about them carry none.
    translatePaths(file, () => undefined)
    return {type: 'catalogue', spec}
  }
}

/**
 * Why a document gives the catalogue nothing, or undefined when it gives something (or receives only: rule
 * `asyncapi-empty` says so). AsyncAPI 3.0 moved operations out of the channels: a 3.0 document written in 2.x's form
 * (`channels.x.subscribe`) has none to read.
 */
function nothingToImport(tree: AsyncApiTree, spec: Catalogue, received: number): {reason: string; path: string[]} | undefined {
  if (spec.endpoints.length > 0) return undefined
  const oldForm = oldFormChannels(tree)
  if (oldForm.length > 0) {
    const where = oldForm.length === 1 ? 'channel' : `${oldForm.length} channels, the first`
    return {reason: `Unexpected \`publish\`/\`subscribe\` in ${where} \`${oldForm[0]}\` of an AsyncAPI ${tree.version} document: 3.0 lists operations under \`operations\` (\`action: send\` or \`receive\`), and the 2.x form is not read`, path: ['channels', oldForm[0]!]}
  }
  if (received > 0) return undefined
  return {reason: "Unexpected document without operations, expected at least one operation the application sends (3.0: `operations` with `action: send`; 2.x: a channel's `subscribe`)", path: [tree.version.startsWith('3.') ? 'operations' : 'channels']}
}

/** The channels of a 3.x document that hold 2.x's `publish`/`subscribe`, which 3.0 does not read. */
function oldFormChannels(tree: AsyncApiTree): string[] {
  if (!tree.version.startsWith('3.')) return []
  const channels = asRecord(tree.document.channels)
  return Object.keys(channels).filter((name) => ['publish', 'subscribe'].some((key) => key in asRecord(channels[name])))
}

/**
 * The catalogue of an AsyncAPI document, how many received operations were left out, and the operations of an
 * unknown `action`. What is left out on the way is told to `inform`; refs that lead nowhere are `asyncapi-ref`
 * findings.
 */
export function asyncapiCatalogue(tree: AsyncApiTree, file: VFile, inform: (reason: string) => void): {spec: Catalogue; received: number; unknownActions: string[]} {
  const document = tree.document
  const refs = JsonRefs.of(document, file)
  // Every ref followed once up front, so that each broken one is said, used by a published operation or not.
  refs.followAll()
  // What a payload schema says that no catalogue type can (`not`, `if`, a tuple) is a note, not a silent loss.
  const payloads = new SchemaTypes(refs, (reason) => inform(reason))
  const {published, received, unknownActions} = publishedOperations(document, refs)
  const info = asRecord(document.info)
  const groups = new Map<string, Group>()
  const tagDescriptions = new Map<string, string>()
  for (const tag of [...asArray(document.tags), ...asArray(info.tags)]) {
    const record = asRecord(refs.resolve(tag).value)
    if (str(record.name) && str(record.description)) tagDescriptions.set(String(record.name), String(record.description))
  }
  const ids = new Set<string>()
  const unlisted = new Set<object>()
  const endpoints = published.map((operation) => {
    const endpoint = eventEndpoint(operation, document, refs, payloads, ids, unlisted)
    const group = endpoint.group ?? 'default'
    if (!groups.has(group)) groups.set(group, {id: group, ...(tagDescriptions.has(group) ? {description: tagDescriptions.get(group)} : {})})
    return endpoint
  })
  if (unlisted.size > 0) inform(`Left out the headers of ${unlisted.size} message(s): their schema lists no properties to keep as header params`)
  for (const finding of brokenRefFindings(file, refs)) note(file, 'asyncapi-ref', finding.reason, finding.path, finding.file)
  const meta: Catalogue['meta'] = {title: str(info.title) ?? file.stem ?? 'Events'}
  if (str(info.version)) meta.version = String(info.version)
  const baseUrl = serverUrl(document, refs)
  if (baseUrl) meta.base_url = baseUrl
  if (str(info.description)) meta.description = String(info.description).trim()
  const schemes = authSchemes(document, refs)
  if (schemes) meta['x-auth-schemes'] = schemes
  const spec: Catalogue = {schema_version: 1, diagram_type: 'endpoints', meta, groups: [...groups.values()].filter((group) => group.id !== 'default' || endpoints.some((endpoint) => !endpoint.group)), endpoints, types: [...payloads.types.values()]}
  // Operation keys, tags and payload names may coincide (`systemStatus` all over): one name space for the three.
  separateIds(spec)
  return {spec, received, unknownActions}
}

/**
 * The EVENT endpoint of a published operation. `unlisted` collects the messages whose `headers` schema lists no
 * properties (the importer notes them).
 */
function eventEndpoint(published: Published, document: Record<string, unknown>, refs: JsonRefs, payloads: SchemaTypes, ids: Set<string>, unlisted: Set<object>): Endpoint {
  const {operation} = published
  // A message ref that leads nowhere is an `asyncapi-ref` finding, and the message is left out.
  const messages = published.messages.map(({message, key}) => ({resolved: refs.resolve(message), key})).filter(({resolved}) => resolved.missing === undefined)
  const id = unique(published.id ?? lowerFirst(pascal(`publish ${published.address}`)), ids)
  // Each message with its traits applied, and the name its inline types are named after.
  const carried = messages.map(({resolved, key}) => {
    const message = withTraits(asRecord(resolved.value), refs)
    return {message, source: resolved.value, name: pascal(str(message.name) ?? str(message.messageId) ?? resolved.name ?? key ?? id)}
  })
  const endpoint: Endpoint = {id, method: 'EVENT', path: published.address}
  const tags = asArray(operation.tags).map((tag) => str(asRecord(refs.resolve(tag).value).name)).filter((tag): tag is string => tag !== undefined)
  if (tags[0]) endpoint.group = tags[0]
  // One message's words describe the event only when it is the one message: of six, the first is not the channel.
  const onlyMessage = carried.length === 1 ? carried[0].message : {}
  const {channel} = published
  const description = str(operation.description) ?? str(onlyMessage.description) ?? str(channel.description)
  // Without a summary or title anywhere, the description's first line or sentence says what the event is, as a
  // GraphQL description's does (events on one address differ by little else on the page).
  const given = str(operation.summary) ?? str(onlyMessage.summary) ?? str(onlyMessage.title) ?? str(channel.summary) ?? str(channel.title)
  const words = given === undefined ? describe(description) : {summary: given, description}
  if (words.summary) endpoint.summary = words.summary.trim().replace(/\s+/g, ' ')
  if (words.description) endpoint.description = words.description.trim()
  const [auth, ...alternatives] = authKinds(document, operation, refs)
  if (auth) endpoint.auth = auth
  if (alternatives.length > 0) endpoint['x-auth-alternatives'] = alternatives
  const params = Object.entries(published.parameters).map(([name, raw]) => {
    const parameter = asRecord(refs.resolve(raw).value)
    const schema = asRecord(refs.resolve(parameter.schema).value)
    const param: Param = {name, in: 'path', type: str(schema.type) ?? 'string', required: true}
    if (str(parameter.description)) param.description = String(parameter.description).trim()
    if (Array.isArray(parameter.enum ?? schema.enum)) param.enum = (parameter.enum ?? schema.enum) as Param['enum']
    if ((parameter.default ?? schema.default) !== undefined) param.default = parameter.default ?? schema.default
    if (Array.isArray(parameter.examples) && parameter.examples.length > 0) param.example = parameter.examples[0]
    return param
  })
  params.push(...headerParams(carried, refs, payloads, unlisted))
  if (params.length > 0) endpoint.params = params
  // Where a reply finds the id that ties it to this message (`$message.header#/correlationId`).
  const correlation = carried.map(({message}) => str(asRecord(refs.resolve(message.correlationId).value).location)).find((location) => location !== undefined)
  if (correlation) endpoint['x-correlation-id'] = correlation
  const responses = carried.map(({message, name}) => payloads.bodyTypeOf(dataOf(schemaOf(message.payload, refs), refs), `${name}Payload`))
  // Of several messages, none speaks for the event: each one's words go to its payload type, where the page shows
  // them (Slack's real-time API sends 46 kinds of message on one socket), unless the schema has its own.
  if (carried.length > 1) {
    carried.forEach(({message}, index) => {
      const type = payloads.types.get(responses[index])
      const words = str(message.description) ?? str(message.summary) ?? str(message.title)
      if (!type || !words || type.description) return
      const {name, kind, ...rest} = type
      payloads.types.set(name, {name, ...(kind ? {kind} : {}), description: words.trim(), ...rest})
    })
  }
  // The first message's first example payload (2.x and 3.x: `examples: [{payload}]`), shown as the payload's example.
  const examples = messages.map(({resolved}) => asRecord(resolved.value).examples).find((list) => Array.isArray(list) && list.length > 0) as unknown[] | undefined
  const example = examples ? asRecord(refs.resolve(examples[0]).value).payload : undefined
  if (example !== undefined) endpoint.request_example = example
  const distinct = [...new Set(responses)]
  if (distinct.length === 1) endpoint.response = distinct[0]
  else if (distinct.length > 1) {
    const union = `${pascal(id)}Message`
    payloads.types.set(union, {name: union, kind: 'union', members: distinct})
    endpoint.response = union
  }
  if (tags.length > 1) endpoint.tags = tags.slice(1)
  return endpoint
}

/**
 * The headers an event's messages carry (each message's `headers` schema, `allOf` merged), as `header` params: a
 * header is required when every message requires it; the first message that names it gives its type and words.
 */
function headerParams(carried: Array<{message: Record<string, unknown>; source: unknown; name: string}>, refs: JsonRefs, payloads: SchemaTypes, unlisted: Set<object>): Param[] {
  const params = new Map<string, Param>()
  const requiredBy = new Map<string, number>()
  for (const {message, source, name} of carried) {
    if (message.headers === undefined) continue
    const fields = payloads.fieldsOfSchema(schemaOf(message.headers, refs), `${name}Headers`)
    if (fields.length === 0 && source && typeof source === 'object') unlisted.add(source)
    for (const {name: header, type, required, description, ...facts} of fields) {
      if (required) requiredBy.set(header, (requiredBy.get(header) ?? 0) + 1)
      if (!params.has(header)) params.set(header, {name: header, in: 'header', type, required: false, ...(description ? {description} : {}), ...facts})
    }
  }
  for (const param of params.values()) param.required = requiredBy.get(param.name) === carried.length
  return [...params.values()]
}

/** The first server as a URL: 2.x `url`, 3.0 `host` + `pathname`, with the protocol and variables' defaults. */
function serverUrl(document: Record<string, unknown>, refs: JsonRefs): string | undefined {
  const first = Object.values(asRecord(document.servers))[0]
  if (!first) return undefined
  const server = asRecord(refs.resolve(first).value)
  let url = str(server.url) ?? `${str(server.host) ?? ''}${str(server.pathname) ?? ''}`
  if (!url) return undefined
  for (const [name, variable] of Object.entries(asRecord(server.variables))) {
    const fallback = str(asRecord(refs.resolve(variable).value).default)
    if (fallback !== undefined) url = url.split(`{${name}}`).join(fallback)
  }
  const protocol = str(server.protocol)
  return protocol && !/^[a-z][\w+.-]*:\/\//i.test(url) ? `${protocol}://${url}` : url
}

function unique(id: string, ids: Set<string>): string {
  let candidate = id
  for (let counter = 2; ids.has(candidate); counter++) candidate = `${id}${counter}`
  ids.add(candidate)
  return candidate
}

function lowerFirst(text: string): string {
  return text[0].toLowerCase() + text.slice(1)
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}

/** The schema of a payload: AsyncAPI 3 multi-format payloads (`{schemaFormat, schema}`) are read through. */
function schemaOf(payload: unknown, refs: JsonRefs): unknown {
  const resolved = refs.resolve(payload).value
  return resolved && resolved.schemaFormat !== undefined && resolved.schema !== undefined ? resolved.schema : payload
}

/**
 * The event's own data in a payload: a CloudEvents envelope in structured mode (`specversion` and `data` among its
 * properties, the same for every event) carries it in `data`, which is what the catalogue lists; any other payload
 * is its own.
 */
function dataOf(payload: unknown, refs: JsonRefs): unknown {
  const properties = asRecord(asRecord(refs.resolve(payload).value).properties)
  return properties.specversion !== undefined && properties.data !== undefined ? properties.data : payload
}
