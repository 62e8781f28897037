import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import importOpenapi, {openapiCatalogue} from '../plugins/import-openapi/index.js'
import {runPreset} from '../pipeline/process.js'
import {formatFindings} from '../pipeline/report.js'
import {pageOff, presets} from '../presets/index.js'
import {JsonRefs} from '../plugins/shared/json-refs.js'
import {isTreeShaped, treeShaped} from '../plugins/shared/tree-shaped.js'
import {parseSource} from '../plugins/parse.js'
import {VFile} from 'vfile'
import {importFixtureTests} from './helpers/import-fixtures.js'
import {root} from './helpers/fixtures.js'

importFixtureTests('import-openapi', presets.openapi, importOpenapi)

const importOnly = {plugins: [...(presets.openapi.plugins ?? []), ...(pageOff.plugins ?? [])]}
const brokenRef = path.join(root, 'fixtures', 'import-openapi', 'broken-ref', 'input.yaml')

test('a pointer is followed through the refs on its way, and one through its own ref ends as a cycle', () => {
  const document = {components: {schemas: {$ref: '#/x-schemas'}, parameters: {$ref: '#/components/parameters/Limit'}}, 'x-schemas': {Pet: {type: 'object'}}}
  const refs = new JsonRefs(document, path.join(root, 'document.json'))
  const pet = refs.resolve({$ref: '#/components/schemas/Pet'})
  assert.equal([pet.value, pet.name], [{type: 'object'}, 'Pet'])
  assert.is(refs.resolve({$ref: '#/components/parameters/Limit'}).value, undefined)
  assert.equal([...refs.broken.values()].map((broken) => broken.reason), ['it leads back to itself', '`#/components/parameters/Limit` is not in the document'])
})

test('followAll follows every ref once: a tree in the order written, with what refs lead to in `x-`; shared and cyclic nodes too', () => {
  const document = () => ({
    paths: {'/a': {get: {responses: {200: {schema: {$ref: '#/definitions/A'}}}}}, '/b': {$ref: '#/x-items/B'}},
    definitions: {A: {properties: {one: {$ref: '#/definitions/Missing1'}}}, Unused: {$ref: '#/definitions/Missing2'}},
    'x-items': {B: {get: {parameters: [{$ref: '#/definitions/Missing3'}]}}, C: {$ref: '#/definitions/Missing4'}}
  })
  const brokenOf = (refs: JsonRefs) => {
    refs.followAll()
    return [...refs.broken.values()].map((broken) => broken.ref)
  }
  // Parsed by JSON.parse or the block-YAML reader: the root is walked as written, and `x-items/B` when a ref leads there.
  assert.equal(brokenOf(new JsonRefs(treeShaped(document()), path.join(root, 'document.json'))), ['#/definitions/Missing3', '#/definitions/Missing1', '#/definitions/Missing2'])
  // YAML aliases can share a node between places and put one inside itself: each is walked once all the same.
  const shared = document() as Record<string, any>
  shared.paths['/c'] = shared.paths['/a']
  shared.definitions.A.properties.self = shared.definitions.A
  assert.equal(brokenOf(new JsonRefs(shared, path.join(root, 'document.json'))), ['#/definitions/Missing1', '#/definitions/Missing3', '#/definitions/Missing2'])
})

test('pathsOf finds the places of nodes in one walk (the first place of a shared node); a file that cannot be read is not loaded', () => {
  const document = {paths: {'/a': {get: {responses: {200: {schema: {$ref: 'missing.json#/A'}}}}}}, definitions: {A: {type: 'object'}, B: [{}, {type: 'string'}]}} as Record<string, any>
  const refs = new JsonRefs(treeShaped(document), path.join(root, 'document.json'))
  refs.followAll()
  const holder = document.paths['/a'].get.responses[200].schema
  assert.equal(refs.pathsOf([document.definitions.B[1], holder, {}]), [['definitions', 'B', 1], ['paths', '/a', 'get', 'responses', '200', 'schema'], []])
  assert.equal(refs.pathOf(document.definitions.A), ['definitions', 'A'])
  assert.equal([...refs.loaded().keys()], [path.join(root, 'document.json')])
  // YAML aliases: a node at two places is found at the first one met.
  const shared = {x: {y: document.definitions.A}, z: document.definitions.A}
  assert.equal(new JsonRefs(shared, path.join(root, 'shared.json')).pathOf(document.definitions.A), ['x', 'y'])
})

test('documents parsed by JSON.parse and the block-YAML reader are trees; YAML with aliases is not taken for one', () => {
  const parsed = (name: string, text: string) => {
    const tree = parseSource(new TextEncoder().encode(text), new VFile({path: name}))
    return isTreeShaped(tree.type === 'catalogue' ? tree.spec : tree.document)
  }
  assert.ok(parsed('a.json', '{"openapi": "3.0.0", "paths": {}}'))
  assert.ok(parsed('a.yaml', 'openapi: 3.0.0\npaths: {}\n'))
  assert.not.ok(parsed('a.yaml', 'openapi: 3.0.0\nx-a: &a {b: 1}\nx-c: *a\npaths: {}\n'))
})

test('a missing ref is reported as `openapi-ref` at every place it is written, once each', async () => {
  const files = await runPreset(importOnly, [brokenRef])
  assert.equal(files.flatMap((file) => file.messages).filter((message) => message.ruleId === 'openapi-ref').map((message) => [message.reason, message.line, message.column]), [
    ['Cannot follow `$ref` `./missing.yaml#/Thing`: cannot read `missing.yaml`; what it names is left out (a type behind it is `any`)', 14, 17],
    ['Cannot follow `$ref` `./missing.yaml#/Thing`: cannot read `missing.yaml`; what it names is left out (a type behind it is `any`)', 23, 17]
  ])
})

test('`rules: {openapi-ref: off}` silences the missing ref, and the import still writes its catalogue', async () => {
  const [file] = await runPreset(importOnly, [brokenRef], {settings: {rules: {'openapi-ref': 'off'}}})
  assert.equal(file.messages.filter((message) => message.ruleId === 'openapi-ref'), [])
  assert.ok(file.data.outputs?.some((output) => output.path.endsWith('.endpoints.json')))
})

test('a broken ref in another file is one finding in that file, at its line', async () => {
  const input = path.join(root, 'fixtures', 'import-openapi', 'broken-ref-in-other-file', 'input.yaml')
  const files = await runPreset(importOnly, [input], {cwd: root})
  const text = formatFindings(files, 'json')
  const findings = (JSON.parse(text) as {findings: Array<Record<string, unknown>>}).findings.filter((finding) => finding.ruleId === 'openapi-ref')
  assert.equal(findings.map((finding) => [path.basename(String(finding.file)), finding.path, finding.line, finding.column]), [['a.yaml', 'get.responses["200"].content["application/json"].schema.$ref', 9, 13]])
})

test('every import finding can be turned off: `openapi` for a fragment', async () => {
  const fragment = path.join(root, 'fixtures', 'import-openapi', 'fragment', 'input.yaml')
  const [on] = await runPreset(importOnly, [fragment])
  assert.ok(on.messages.some((message) => message.ruleId === 'openapi' && message.fatal === true))
  const [off] = await runPreset(importOnly, [fragment], {settings: {rules: {openapi: 'off'}}})
  assert.equal(off.messages.filter((message) => message.ruleId === 'openapi'), [])
})

test('inline schemas wanting one name are numbered in order, past a schema that already has a numbered name', () => {
  // A new schema object each time, each saying something else: one schema object is one type, and inline schemas
  // that say the same are one type (below).
  const created = (words = `after ${Math.random()}`) => ({name: 'created', in: 'query', schema: {anyOf: [{type: 'object', properties: {gt: {type: 'integer', description: words}}}, {type: 'integer'}]}})
  const list = (id: string, parameter: object) => ({get: {operationId: id, parameters: [parameter], responses: {200: {description: 'ok'}}}})
  const document = {
    openapi: '3.0.3',
    info: {title: 'Numbered', version: '1'},
    paths: {
      '/a': list('a', created()),
      '/b': list('b', created()),
      '/c': list('c', {name: 'thing', in: 'query', schema: {$ref: '#/components/schemas/CreatedParam3'}}),
      '/d': list('d', created()),
      '/e': list('e', created())
    },
    components: {schemas: {CreatedParam3: {type: 'object', properties: {id: {type: 'string'}}}}}
  }
  const {spec} = openapiCatalogue(document)
  assert.equal(spec.endpoints.map((endpoint) => endpoint.params?.[0]?.type), ['CreatedParam', 'CreatedParam2', 'CreatedParam3', 'CreatedParam4', 'CreatedParam5'])
})

test('inline schemas that say the same are one type, named by the words their places share', () => {
  const page = {type: 'object', properties: {next: {type: 'string'}, total: {type: 'integer'}}}
  const error = {type: 'object', required: ['message'], properties: {message: {type: 'string', description: 'What went wrong'}}}
  const list = (id: string, item: string) => ({
    get: {
      operationId: id,
      responses: {
        200: {description: 'ok', content: {'application/json': {schema: {type: 'object', properties: {data: {type: 'array', items: {$ref: `#/components/schemas/${item}`}}, meta: structuredClone(page)}}}}},
        401: {description: 'no', content: {'application/json': {schema: structuredClone(error)}}}
      }
    }
  })
  const document = {
    openapi: '3.0.3',
    info: {title: 'Merged', version: '1'},
    paths: {'/posts': list('listPosts', 'Post'), '/comments': list('listComments', 'Comment'), '/tags': list('listTags', 'Tag')},
    // A named schema stays itself though it says what `Comment` says.
    components: {schemas: {Post: {type: 'object', properties: {id: {type: 'string'}}}, Comment: {type: 'object', properties: {id: {type: 'integer'}}}, Tag: {type: 'object', properties: {id: {type: 'integer'}}}}}
  }
  const {spec} = openapiCatalogue(document)
  const types = new Map((spec.types ?? []).map((type) => [type.name, type]))
  // Each list is its own type (its items differ); their `meta` objects and their 401 bodies are one type each.
  assert.equal([...types.keys()].sort(), ['Comment', 'ListCommentsResponse', 'ListPostsResponse', 'ListTagsResponse', 'Post', 'Response401', 'ResponseMeta', 'Tag'])
  assert.equal(spec.endpoints.map((endpoint) => endpoint.responses?.map((response) => response.type)), [['ListPostsResponse', 'Response401'], ['ListCommentsResponse', 'Response401'], ['ListTagsResponse', 'Response401']])
  assert.equal(types.get('ListTagsResponse')?.fields?.map((field) => field.type), ['Tag[]', 'ResponseMeta'])
  assert.equal(types.get('Response401')?.fields, [{name: 'message', type: 'string', required: true, description: 'What went wrong'}])
})

test('a body that is a map written inline, or a list of such maps, is a type of its own that says its values; a free-form body stays object', () => {
  const map = (values: object) => ({'application/json': {schema: {type: 'object', additionalProperties: values}}})
  const document = {
    openapi: '3.0.3',
    info: {title: 'Maps', version: '1'},
    paths: {
      '/languages': {get: {operationId: 'listLanguages', responses: {200: {description: 'ok', content: map({type: 'integer'})}}}},
      '/pets': {
        put: {operationId: 'putPets', requestBody: {content: map({$ref: '#/components/schemas/Pet'})}, responses: {204: {description: 'ok'}, 400: {description: 'no', content: map({type: 'string'})}}}
      },
      '/anything': {get: {operationId: 'getAnything', responses: {200: {description: 'ok', content: map({})}}}},
      '/scores': {get: {operationId: 'listScores', responses: {200: {description: 'ok', content: {'application/json': {schema: {type: 'array', items: {type: 'object', additionalProperties: {type: 'number'}}}}}}}}}
    },
    components: {schemas: {Pet: {type: 'object', properties: {name: {type: 'string'}}}}}
  }
  const {spec} = openapiCatalogue(document)
  assert.equal(spec.endpoints.map((endpoint) => [endpoint.request, endpoint.response, endpoint.responses?.map((response) => response.type)]), [
    [undefined, 'ListLanguagesResponse', ['ListLanguagesResponse']],
    ['PutPetsRequest', undefined, [undefined, 'PutPets400Response']],
    [undefined, 'object', ['object']],
    [undefined, 'ListScoresResponseItem[]', ['ListScoresResponseItem[]']]
  ])
  const types = new Map((spec.types ?? []).map((type) => [type.name, type]))
  assert.equal(types.get('ListLanguagesResponse'), {name: 'ListLanguagesResponse', kind: 'object', fields: [], 'x-map-values': 'integer'})
  assert.is(types.get('PutPetsRequest')?.['x-map-values'], 'Pet')
  assert.is(types.get('PutPets400Response')?.['x-map-values'], 'string')
  assert.is(types.get('ListScoresResponseItem')?.['x-map-values'], 'number')
})

test('among many inline types of one shape that differ in their words, those that say the same are still one type', () => {
  // Twelve operations' 401 bodies, one field each, described ten ways (as loket.nl words its error bodies): past a
  // few of one shape, they are found by their JSON, not compared one by one. The last two repeat the first two.
  const error = (words: string) => ({type: 'object', properties: {message: {type: 'string', description: words}}})
  const words = [...Array.from({length: 10}, (_, index) => `Failure ${index}`), 'Failure 0', 'Failure 1']
  const paths = Object.fromEntries(words.map((text, index) => [`/r${index}`, {get: {operationId: `read${'ABCDEFGHIJKL'[index]}`, responses: {401: {description: 'no', content: {'application/json': {schema: error(text)}}}}}}]))
  const {spec} = openapiCatalogue({openapi: '3.0.3', info: {title: 'Errors', version: '1'}, paths})
  const types = spec.endpoints.map((endpoint) => endpoint.responses?.[0]?.type)
  assert.is(new Set(types).size, 10)
  assert.equal(types.slice(0, 2), ['Response401', 'ReadB401Response'])
  assert.is(types[10], types[0])
  assert.is(types[11], types[1])
  // The same field with its facts written in another order: the catalogue writes a field's facts in one order, so
  // the two bodies say the same, as their types' JSON does.
  const reordered = {type: 'object', properties: {message: {type: 'string', description: 'Failure 0', example: 'x', default: 'y'}}}
  const original = {type: 'object', properties: {message: {type: 'string', description: 'Failure 0', default: 'y', example: 'x'}}}
  const pair = openapiCatalogue({
    openapi: '3.0.3',
    info: {title: 'Pair', version: '1'},
    paths: {'/a': {get: {operationId: 'readA', responses: {401: {description: 'no', content: {'application/json': {schema: original}}}}}}, '/b': {get: {operationId: 'readB', responses: {401: {description: 'no', content: {'application/json': {schema: reordered}}}}}}}
  })
  assert.equal(pair.spec.endpoints.map((endpoint) => endpoint.responses?.[0]?.type), ['Response401', 'Response401'])
})

test('an inline type that names itself keeps its name where others merge with it, and its own field follows a rename', () => {
  const pointer = (path: string) => ({$ref: `#/paths/${path}/get/responses/200/content/application~1json/schema`})
  const get = (id: string, parent: object) => ({get: {operationId: id, responses: {200: {description: 'ok', content: {'application/json': {schema: {type: 'object', properties: {id: {type: 'string'}, parent}}}}}}}})
  const document = {
    openapi: '3.0.3',
    info: {title: 'Self', version: '1'},
    paths: {'/a': get('aThingList', pointer('~1a')), '/b': get('bThingList', pointer('~1b')), '/c': get('cThingList', pointer('~1a'))}
  }
  const {spec} = openapiCatalogue(document)
  // `/a` and `/c` say the same (an id and an `/a` parent): one type, renamed, whose field names it; `/b` is its own.
  assert.equal(spec.endpoints.map((endpoint) => endpoint.response), ['ThingListResponse', 'BThingListResponse', 'ThingListResponse'])
  assert.equal(spec.types?.map((type) => [type.name, type.fields?.map((field) => field.type)]), [['ThingListResponse', ['string', 'ThingListResponse']], ['BThingListResponse', ['string', 'BThingListResponse']]])
})

test('an inline type that a type built inside it names never merges away (no field names a type that is gone)', () => {
  // As Microsoft Graph's beta writes it: `Base.createdByUser`, one schema object, is met first as `Drive`'s field;
  // while its union is built, `User` and its `site` are, and `Site` (also `allOf: [Base]`) names it. `User`'s own
  // `createdByUser` says the same and came first.
  const byUser = () => ({anyOf: [{$ref: '#/components/schemas/User'}, {type: 'object'}]})
  const document = {
    openapi: '3.0.3',
    info: {title: 'Graph', version: '1'},
    paths: {'/drive': {get: {operationId: 'getDrive', responses: {200: {description: 'ok', content: {'application/json': {schema: {$ref: '#/components/schemas/Drive'}}}}}}}},
    components: {
      schemas: {
        Base: {type: 'object', properties: {createdByUser: byUser()}},
        Drive: {allOf: [{$ref: '#/components/schemas/Base'}, {type: 'object', properties: {quota: {type: 'integer'}}}]},
        Site: {allOf: [{$ref: '#/components/schemas/Base'}, {type: 'object', properties: {url: {type: 'string'}}}]},
        User: {type: 'object', properties: {createdByUser: byUser(), site: {$ref: '#/components/schemas/Site'}}}
      }
    }
  }
  const {spec} = openapiCatalogue(document)
  const names = new Set(spec.types?.map((type) => type.name))
  const named = (spec.types ?? []).flatMap((type) => [...(type.fields ?? []).map((field) => field.type ?? 'string'), ...(type.members ?? [])])
  assert.equal(named.filter((name) => !names.has(name) && !['integer', 'string', 'object'].includes(name)), [])
  assert.is(spec.types?.find((type) => type.name === 'Site')?.fields?.find((field) => field.name === 'createdByUser')?.type, 'DriveCreatedByUser')
})

test('inline types whose places share less than two words stay apart, and one whose shared name is taken keeps its first', () => {
  const body = () => ({content: {'application/json': {schema: {type: 'object', properties: {id: {type: 'string'}}}}}})
  const named = (id: string) => ({post: {operationId: id, requestBody: body(), responses: {204: {description: 'ok'}}}})
  const document = {
    openapi: '3.0.3',
    info: {title: 'Apart', version: '1'},
    paths: {'/a': named('makeThing'), '/b': named('replaceItem'), '/c': named('importPetList'), '/d': named('exportPetList')},
    components: {schemas: {PetListRequest: {type: 'object', properties: {name: {type: 'string'}}}}}
  }
  const {spec} = openapiCatalogue(document, {allTypes: true})
  // `MakeThingRequest` and `ReplaceItemRequest` share one word; the pet lists share `PetListRequest`, a schema's name.
  assert.equal(spec.endpoints.map((endpoint) => endpoint.request), ['MakeThingRequest', 'ReplaceItemRequest', 'ImportPetListRequest', 'ImportPetListRequest'])
})

test.run()
