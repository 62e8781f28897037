import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'

const fixture = (...parts: string[]) => path.join(root, 'fixtures', ...parts)
const temp = () => mkdtempSync(path.join(os.tmpdir(), 'apipe-import-'))

test('pipe import openapi writes the catalogue and says what it wrote', async () => {
  const output = path.join(temp(), 'pets.endpoints.json')
  const result = await runPipe(['import', 'openapi', fixture('import-openapi', 'v2-swagger', 'input.json'), output])
  assert.equal(result, {code: 0, stdout: `Wrote ${output} (4 endpoints, 3 types)\n`, stderr: ''})
  assert.is(readFileSync(output, 'utf8'), readFileSync(fixture('import-openapi', 'v2-swagger', 'output.endpoints.json'), 'utf8'))
})

test('an input outside the working folder, given by its absolute path, is named by it', async () => {
  const missing = path.join(temp(), 'gone.yaml')
  assert.equal(await runPipe(['import', 'openapi', missing, path.join(temp(), 'out.json')]), {code: 1, stdout: '', stderr: `error read ${missing} Cannot find file \`${missing}\`\n1 error(s), 0 warning(s)\n`})
})

test('pipe import to a .yaml file writes the catalogue as YAML, which pipe validate reads as the same catalogue', async () => {
  const output = path.join(temp(), 'pets.endpoints.yaml')
  const result = await runPipe(['import', 'openapi', fixture('import-openapi', 'v2-swagger', 'input.json'), output])
  assert.equal(result, {code: 0, stdout: `Wrote ${output} (4 endpoints, 3 types)\n`, stderr: ''})
  const text = readFileSync(output, 'utf8')
  assert.match(text, /^schema_version: 1\ndiagram_type: endpoints\n/)
  const {load} = await import('js-yaml')
  assert.equal(load(text), JSON.parse(readFileSync(fixture('import-openapi', 'v2-swagger', 'output.endpoints.json'), 'utf8')))
  assert.equal(await runPipe(['validate', output]), {code: 0, stdout: '0 error(s), 0 warning(s)\n', stderr: ''})
})

test('a .json file that is YAML is read as YAML, its findings placed in it; broken JSON stays a JSON error', async () => {
  const dir = temp()
  const yaml = path.join(dir, 'openapi.json')
  writeFileSync(yaml, 'openapi: 3.0.3\ninfo: {title: Pets, version: 1.0.0}\npaths:\n  /pets:\n    get:\n      operationId: listPets\n      summary: List pets\n      responses:\n        "200": {description: The pets}\n')
  const imported = await runPipe(['import', 'openapi', yaml, path.join(dir, 'pets.endpoints.json')])
  assert.equal(imported, {code: 0, stdout: `Wrote ${path.join(dir, 'pets.endpoints.json')} (1 endpoint, 0 types)\n`, stderr: ''})
  const broken = path.join(dir, 'broken.json')
  writeFileSync(broken, '{"openapi": "3.0.3", "info": {')
  assert.equal(await runPipe(['validate', broken]), {code: 1, stdout: 'error parse 1:31 Unexpected end of file, expected `}`\n1 error(s), 0 warning(s)\n', stderr: ''})
})

test('pipe import openapi reports a problem inside a file a $ref led to in that file, at its place there', async () => {
  const output = path.join(temp(), 'pets.endpoints.json')
  const input = fixture('import-openapi', 'invalid-in-other-file', 'input.yaml')
  const result = await runPipe(['import', 'openapi', input, output], {cwd: path.dirname(input)})
  assert.is(result.code, 0)
  assert.is(result.stdout, `Wrote ${output} (2 endpoints, 2 types)\n`)
  assert.ok(result.stderr.includes('schemas/pet.yaml: warning openapi-schema properties.name.type Unexpected value: it must be string\n'), result.stderr)
  assert.ok(result.stderr.includes('paths/pets.yaml: warning openapi-schema get.responses["200"] Missing required property `description`\n'), result.stderr)
  assert.ok(result.stderr.endsWith('0 error(s), 5 warning(s)\n'), result.stderr)
})

test('findings about an imported catalogue point at the operation in the OpenAPI source', async () => {
  const {pipeline} = await import('../index.js')
  const [file] = await pipeline('openapi', [fixture('import-openapi', 'v3-rules', 'input.yaml')])
  const places = file.messages.filter((message) => message.ruleId === 'summary').map((message) => [message.jsonPath, message.line, message.column])
  // deletePetsByPetId lives in a referenced path item, so it points at its path; listPets-2 at its `get`.
  assert.equal(places, [['endpoints[4]', 80, 3], ['endpoints[6]', 97, 5]])
})

test('findings about an imported GraphQL catalogue carry no place in the SDL', async () => {
  const {pipeline} = await import('../index.js')
  const [file] = await pipeline('graphql', [fixture('import-graphql', 'sdl', 'input.graphql')])
  const summary = file.messages.find((message) => message.ruleId === 'summary')!
  assert.equal([summary.line, summary.column], [undefined, undefined])
})

test('pipe import openapi --all-types keeps schemas no operation reaches', async () => {
  const output = path.join(temp(), 'small.json')
  const result = await runPipe(['import', 'openapi', fixture('import-openapi', 'all-types', 'input.yaml'), output, '--all-types'])
  assert.is(result.stdout, `Wrote ${output} (1 endpoint, 2 types)\n`)
})

test('pipe import openapi on a document without operations says so, writes nothing and exits 1', async () => {
  const output = path.join(temp(), 'x.json')
  const input = path.relative(root, fixture('import-openapi', 'zero-operations', 'input.yaml'))
  const result = await runPipe(['import', 'openapi', input, output])
  assert.equal(result, {code: 1, stdout: '', stderr: 'error openapi paths Unexpected document without operations, expected at least one operation under `paths` (or a webhook)\n1 error(s), 0 warning(s)\n'})
  assert.not.ok(existsSync(output))
})

test('pipe import openapi on broken YAML is a parse finding with line and column', async () => {
  const dir = temp()
  const input = path.join(dir, 'broken.yaml')
  writeFileSync(input, 'openapi: 3.0.0\ninfo:\n  title: [unclosed\npaths: {}\n')
  const result = await runPipe(['import', 'openapi', 'broken.yaml', 'out.json'], {cwd: dir})
  assert.is(result.code, 1)
  assert.match(result.stderr, /^error parse \d+:\d+ Cannot parse YAML: /)
  assert.not.ok(existsSync(path.join(dir, 'out.json')))
})

test('a file that is not UTF-8 is a parse error at its first such byte, not text turned into U+FFFD', async () => {
  const dir = temp()
  writeFileSync(path.join(dir, 'latin1.yaml'), Buffer.from('openapi: 3.0.0\ninfo: {title: T, version: "1"}\npaths:\n  /x:\n    get:\n      summary: caf\xe9\n      responses: {"200": {description: ok}}\n', 'latin1'))
  const imported = await runPipe(['import', 'openapi', 'latin1.yaml', 'out.json'], {cwd: dir})
  assert.is(imported.code, 1)
  assert.is(imported.stderr, 'error parse 6:19 The file is not UTF-8 here (Latin-1 or another encoding?); save it as UTF-8, or its text reaches the catalogue as \ufffd\n1 error(s), 0 warning(s)\n')
  writeFileSync(path.join(dir, 'wide.json'), Buffer.from('\ufeff{"schema_version": 1}', 'utf16le'))
  const validated = await runPipe(['validate', 'wide.json'], {cwd: dir})
  assert.is(validated.code, 1)
  assert.match(validated.stdout + validated.stderr, 'error parse 1:1 The file is UTF-16; save it as UTF-8, as JSON, YAML and GraphQL files are read')
  writeFileSync(path.join(dir, 'latin1.graphql'), Buffer.from('type Query {\n  caf\xe9: String\n}\n', 'latin1'))
  const graphql = await runPipe(['import', 'graphql', 'latin1.graphql', 'out.json'], {cwd: dir})
  assert.equal(graphql, {code: 1, stdout: '', stderr: 'error parse 2:6 The file is not UTF-8 here (Latin-1 or another encoding?); save it as UTF-8, or its text reaches the catalogue as \ufffd\n1 error(s), 0 warning(s)\n'})
  assert.not.ok(existsSync(path.join(dir, 'out.json')))
})

test('a JSON file that opens with a byte order mark has its findings at the same places as without it', async () => {
  const dir = temp()
  const text = '{\n  "schema_version": 1,\n  "diagram_type": "endpoints",\n  "meta": {"title": "T"},\n  "endpoints": [{"id": "x", "method": "GET", "path": "/x", "summary": "X", "group": "nope"}]\n}\n'
  writeFileSync(path.join(dir, 'plain.json'), text)
  writeFileSync(path.join(dir, 'bom.json'), `\ufeff${text}`)
  const result = await runPipe(['validate', 'plain.json', 'bom.json', '--format', 'github'], {cwd: dir})
  assert.is(result.stdout, ['plain.json', 'bom.json'].map((file) => `::error file=${file},line=5,col=76,title=apipe dangling-ref::endpoints[0].group Unknown group \`nope\`; known ids: default\n`).join('') + '2 error(s), 0 warning(s)\n')
})

test('pipe map writes api.endpoints.json and api.endpoints.html into --output', async () => {
  const dir = temp()
  const result = await runPipe(['map', fixture('import-openapi', 'v3-rules', 'input.yaml'), '--output', dir])
  assert.is(result.code, 0)
  assert.is(result.stdout, `Wrote ${path.join(dir, 'api.endpoints.json')}\nWrote ${path.join(dir, 'api.endpoints.html')}\n`)
  assert.is(JSON.parse(readFileSync(path.join(dir, 'api.endpoints.json'), 'utf8')).meta.title, 'Pet store')
  assert.match(readFileSync(path.join(dir, 'api.endpoints.html'), 'utf8'), /<h1>Pet store<\/h1>/)
})

test('pipe map imports a GraphQL schema or an AsyncAPI document as pipe import does, by its kind', async () => {
  const dir = temp()
  writeFileSync(path.join(dir, 'schema.graphql'), 'type Pet { id: ID! }\ntype Query {\n  "One pet."\n  pet(id: ID!): Pet\n}\n')
  const graphql = await runPipe(['map', 'schema.graphql', '--output', 'graphql'], {cwd: dir})
  assert.equal(graphql, {code: 0, stdout: 'Wrote graphql/api.endpoints.json\nWrote graphql/api.endpoints.html\n', stderr: ''})
  assert.is(JSON.parse(readFileSync(path.join(dir, 'graphql', 'api.endpoints.json'), 'utf8')).endpoints[0].method, 'QUERY')
  writeFileSync(path.join(dir, 'events.yaml'), ['asyncapi: 2.6.0', "info: {title: Events, version: '1.0.0'}", 'channels:', '  orders:', '    subscribe:', '      summary: An order was placed', '      message: {payload: {type: object, properties: {total: {type: number}}}}', ''].join('\n'))
  const asyncapi = await runPipe(['map', 'events.yaml', '--output', 'events'], {cwd: dir})
  assert.equal(asyncapi, {code: 0, stdout: 'Wrote events/api.endpoints.json\nWrote events/api.endpoints.html\n', stderr: ''})
  assert.is(JSON.parse(readFileSync(path.join(dir, 'events', 'api.endpoints.json'), 'utf8')).endpoints[0].method, 'EVENT')
})

test('pipe map on a folder that is not a project says its pipe.config.json is missing, and how to map a description in it', async () => {
  const result = await runPipe(['map', 'fixtures'])
  assert.is(result.code, 1)
  assert.is(result.stderr, 'error read fixtures/pipe.config.json Cannot find file `fixtures/pipe.config.json`: a folder is read as a framework project (`pipe init` makes one); to map an API description, name its file (`pipe map <file>`)\n1 error(s), 0 warning(s)\n')
  const dir = temp()
  mkdirSync(path.join(dir, 'specs'))
  writeFileSync(path.join(dir, 'specs', 'petstore.yaml'), 'openapi: 3.0.3\n')
  writeFileSync(path.join(dir, 'specs', 'notes.txt'), 'not a description\n')
  const named = await runPipe(['map', 'specs'], {cwd: dir})
  assert.equal(named, {code: 1, stdout: '', stderr: 'error read specs/pipe.config.json Cannot find file `specs/pipe.config.json`: a folder is read as a framework project (`pipe init` makes one); to map an API description, name its file (`pipe map specs/petstore.yaml`)\n1 error(s), 0 warning(s)\n'})
})

test('pipe import graphql writes the catalogue and says what it wrote', async () => {
  const output = path.join(temp(), 'pets.endpoints.json')
  const result = await runPipe(['import', 'graphql', fixture('import-graphql', 'sdl', 'input.graphql'), output, '--title', 'Pets'])
  assert.is(result.code, 0)
  assert.is(result.stdout, `Wrote ${output} (7 endpoints, 7 types)\n`)
  assert.match(result.stderr, /^warning summary endpoints\[2\] Endpoint `search` has no summary\n/)
  const spec = JSON.parse(readFileSync(output, 'utf8'))
  assert.is(spec.meta.title, 'Pets')
  assert.is(spec.endpoints[0].path, 'pet(id: ID!): Pet')
})

test('pipe import graphql --all-types keeps types no operation reaches, the root types among them', async () => {
  const output = path.join(temp(), 'all.json')
  const result = await runPipe(['import', 'graphql', fixture('import-graphql', 'sdl', 'input.graphql'), output, '--all-types'])
  // 8 types, plus Query, Mutation and Subscription: root types are types like any other.
  assert.is(result.stdout, `Wrote ${output} (7 endpoints, 11 types)\n`)
})

test('pipe import graphql on broken SDL prints the finding, writes nothing and exits 1', async () => {
  const output = path.join(temp(), 'x.json')
  const input = path.relative(root, fixture('import-graphql', 'syntax-error', 'input.graphql'))
  const result = await runPipe(['import', 'graphql', input, output])
  assert.equal(result, {code: 1, stdout: '', stderr: 'error parse 7:8 Cannot parse GraphQL: Syntax Error: Expected ":", found Name "String".\n1 error(s), 0 warning(s)\n'})
  assert.not.ok(existsSync(output))
})

test('pipe import openapi says what the input is instead: a catalogue already, or `-`, which only pipe validate reads', async () => {
  const dir = temp()
  writeFileSync(path.join(dir, 'api.endpoints.json'), JSON.stringify({schema_version: 1, diagram_type: 'endpoints', meta: {title: 'A'}, endpoints: []}))
  assert.equal(await runPipe(['import', 'openapi', 'api.endpoints.json', 'out.json'], {cwd: dir}), {code: 1, stdout: '', stderr: 'error openapi (root) Unexpected document without an `openapi` or `swagger` field, expected an OpenAPI 3.x or Swagger 2.0 document (this is an endpoint catalogue already: `pipe validate`, `pipe render`)\n1 error(s), 0 warning(s)\n'})
  assert.equal(await runPipe(['import', 'openapi', '-', 'out.json'], {cwd: dir}), {code: 1, stdout: '', stderr: 'error read - Cannot read `-`: only `pipe validate` reads standard input; give a file\n1 error(s), 0 warning(s)\n'})
})

test('pipe import graphql on a cut-off introspection file says where it breaks, at its line and column', async () => {
  const dir = temp()
  const whole = readFileSync(fixture('import-graphql', 'introspection', 'input.json'), 'utf8')
  // Cut at the end of a line half way: the file ends where an object's next member should be.
  const cut = whole.slice(0, whole.indexOf('\n', Math.floor(whole.length / 2)) + 1)
  writeFileSync(path.join(dir, 'cut.json'), cut)
  const result = await runPipe(['import', 'graphql', 'cut.json', 'out.json'], {cwd: dir})
  assert.is(result.code, 1)
  assert.match(result.stderr, new RegExp(`^error parse ${cut.split('\n').length}:1 Unexpected end of file, expected `))
  assert.not.ok(existsSync(path.join(dir, 'out.json')))
})

test('pipe import asyncapi follows relative refs and writes the events', async () => {
  const output = path.join(temp(), 'events.json')
  const result = await runPipe(['import', 'asyncapi', fixture('import-asyncapi', 'relative-refs', 'input.yaml'), output])
  assert.equal(result, {code: 0, stdout: `Wrote ${output} (1 endpoint, 1 type)\n`, stderr: ''})
  assert.equal(JSON.parse(readFileSync(output, 'utf8')).endpoints[0].response, 'commentLikedPayload')
})

test('pipe import asyncapi says what it left out (the operations the application receives), even when nothing is wrong', async () => {
  const dir = temp()
  writeFileSync(path.join(dir, 'events.yaml'), ['asyncapi: 2.6.0', "info: {title: Events, version: '1.0.0'}", 'channels:', '  orders:', '    publish:', '      message: {payload: {type: object, properties: {id: {type: string}}}}', '    subscribe:', '      summary: An order was placed', '      message: {payload: {type: object, properties: {total: {type: number}}}}', ''].join('\n'))
  const result = await runPipe(['import', 'asyncapi', 'events.yaml', 'events.json'], {cwd: dir})
  assert.equal(result, {
    code: 0,
    stdout: 'Wrote events.json (1 endpoint, 1 type)\n',
    stderr: 'info asyncapi events.yaml Left out 1 operation(s) the application receives; the catalogue lists what it publishes\n0 error(s), 0 warning(s)\n'
  })
})

test('pipe import asyncapi says nothing of what it left out once .piperc turns rule asyncapi off', async () => {
  const dir = temp()
  writeFileSync(path.join(dir, '.piperc.json'), JSON.stringify({settings: {rules: {asyncapi: 'off'}}}))
  writeFileSync(path.join(dir, 'events.yaml'), ['asyncapi: 2.7.0', "info: {title: Events, version: '1.0.0'}", 'channels:', '  orders:', '    publish:', '      message: {payload: {type: object, properties: {id: {type: string}}}}', '    subscribe:', '      summary: An order was placed', '      message: {payload: {type: object, properties: {total: {type: number}}}}', ''].join('\n'))
  const quiet = await runPipe(['import', 'asyncapi', 'events.yaml', 'events.json'], {cwd: dir})
  assert.equal(quiet, {code: 0, stdout: 'Wrote events.json (1 endpoint, 1 type)\n', stderr: ''})
  rmSync(path.join(dir, '.piperc.json'))
  const told = await runPipe(['import', 'asyncapi', 'events.yaml', 'events.json'], {cwd: dir})
  assert.equal(told.stderr.split('\n').slice(0, 2), [
    'info asyncapi events.yaml AsyncAPI `2.7.0` is not a version this importer knows: read as 2.6, the last it knows of 2.x',
    'info asyncapi events.yaml Left out 1 operation(s) the application receives; the catalogue lists what it publishes'
  ])
})

test('pipe import asyncapi on a fragment says it is not a document and exits 1', async () => {
  const output = path.join(temp(), 'events.json')
  const input = path.relative(root, fixture('import-asyncapi', 'fragment', 'input.yaml'))
  const result = await runPipe(['import', 'asyncapi', input, output])
  assert.is(result.code, 1)
  assert.is(result.stderr, 'error asyncapi (root) Unexpected document without an `asyncapi` field, expected an AsyncAPI 2.x or 3.x document (a file that other documents reference is not one)\n1 error(s), 0 warning(s)\n')
  assert.not.ok(existsSync(output))
})

test('pipe import <kind> given a document of another kind names the command that imports it, writes nothing, exit 1', async () => {
  const folder = temp()
  writeFileSync(path.join(folder, 'schema.graphqls'), 'type Query {\n  pet(id: ID!): Pet\n}\ntype Pet { id: ID! }\n')
  writeFileSync(path.join(folder, 'events.yaml'), 'asyncapi: 3.0.0\ninfo: {title: Events, version: 1.0.0}\n')
  writeFileSync(path.join(folder, 'api.yaml'), '# The shop\nopenapi: 3.1.0\ninfo: {title: Shop, version: 1.0.0}\n')
  const cases = [
    ['asyncapi', 'schema.graphqls', '`schema.graphqls` is a GraphQL schema, not an AsyncAPI document: import it with `pipe import graphql schema.graphqls out.json`\n'],
    ['openapi', 'events.yaml', '`events.yaml` is an AsyncAPI document, not an OpenAPI document: import it with `pipe import asyncapi events.yaml out.json`\n'],
    ['graphql', 'api.yaml', '`api.yaml` is an OpenAPI document, not a GraphQL schema: import it with `pipe import openapi api.yaml out.json`\n']
  ]
  for (const [command, input, stderr] of cases) assert.equal(await runPipe(['import', command, input, 'out.json'], {cwd: folder}), {code: 1, stdout: '', stderr})
  assert.not.ok(existsSync(path.join(folder, 'out.json')))
})

test('pipe merge combines REST, GraphQL and events into one mixed catalogue', async () => {
  const output = path.join(temp(), 'shop.endpoints.json')
  const inputs = ['rest', 'graphql', 'events'].map((name) => fixture('merge', `${name}.endpoints.json`))
  const result = await runPipe(['merge', ...inputs, output])
  assert.equal(result, {code: 0, stdout: `Wrote ${output} (5 endpoints from 3 catalogues)\n`, stderr: ''})
  const spec = JSON.parse(readFileSync(output, 'utf8'))
  assert.is(spec.meta.title, 'Pet shop')
  assert.is(spec.meta.api_kind, 'mixed')
  assert.equal(spec.groups.map((group: {id: string}) => group.id), ['pets', 'events'])
  assert.equal(spec.endpoints.map((endpoint: {method: string}) => endpoint.method), ['GET', 'POST', 'QUERY', 'MUTATION', 'EVENT'])
  assert.equal(spec.types.map((type: {name: string}) => type.name), ['Pet', 'NewPet'])
})

test('pipe merge reports clashing ids and types as id-clash and writes nothing', async () => {
  const output = path.join(temp(), 'shop.endpoints.json')
  const inputs = ['rest', 'graphql', 'clashing-events'].map((name) => fixture('merge', `${name}.endpoints.json`))
  const result = await runPipe(['merge', ...inputs, output])
  assert.equal(result, {
    code: 1,
    stdout: '',
    stderr:
      // Each place is in an input, since the merged catalogue is never written.
      `error id-clash ${inputs[2]}#endpoints[0].id Endpoint id \`pet\` is already used by ${inputs[1]}#endpoints[0].id\n` +
      `error id-clash ${inputs[2]}#types[0].name Type name \`Pet\` is already used by ${inputs[0]}#types[0].name\n` +
      '2 error(s), 0 warning(s)\n'
  })
  assert.not.ok(existsSync(output))
})

test('pipe merge names the input of each finding, even when only one of several is broken', async () => {
  const folder = temp()
  const broken = path.join(folder, 'broken.endpoints.json')
  writeFileSync(broken, '{bad')
  const result = await runPipe(['merge', fixture('merge', 'rest.endpoints.json'), broken, path.join(folder, 'out.json')])
  assert.equal(result, {code: 1, stdout: '', stderr: `${broken}: error parse 1:2 Unexpected \`bad\`, expected a JSON value\n1 error(s), 0 warning(s)\n`})
})

test('pipe merge names its arguments in its usage: the catalogues, then the output', async () => {
  const usage = '$ pipe merge [--quiet,-q] <catalogue> ... <output_spec_file>\n'
  assert.equal(await runPipe(['merge', fixture('merge', 'rest.endpoints.json')]), {code: 2, stdout: '', stderr: `Not enough positional arguments.\n\n${usage}`})
})

test('a write that fails is reported once with the other findings; --quiet still leaves the warnings out', async () => {
  const folder = temp()
  writeFileSync(path.join(folder, 'taken'), '')
  const input = fixture('import-graphql', 'sdl', 'input.graphql')
  const failed = await runPipe(['import', 'graphql', input, path.join(folder, 'taken', 'out.json'), '--quiet'])
  assert.is(failed.code, 1)
  assert.match(failed.stderr, /^error write \S+ Cannot write `[^`]+`: `[^`]+taken` is a file, not a folder\n1 error\(s\), 4 warning\(s\)\n$/)
  const loud = await runPipe(['import', 'graphql', input, path.join(folder, 'taken', 'out.json')])
  assert.is(loud.stderr.match(/ error\(s\), /g)?.length, 1, loud.stderr)
})

test.run()
