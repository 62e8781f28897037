import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {testWhen} from './helpers/skip.js'
import {Ajv2020} from 'ajv/dist/2020.js'
import {loadSchema} from '../pipeline/schemas.js'
import {runPreset} from '../pipeline/process.js'
import {pageOff, presets} from '../presets/index.js'
import type {Catalogue} from '../schemas/types/endpoints.js'
import {corpusDir, corpusMissing, manifest} from './helpers/corpus.js'
import {JsonRefs} from '../plugins/shared/json-refs.js'
import {loadData} from '../plugins/shared/load-data.js'
import {readFileSync} from 'node:fs'

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']
const record = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {})
const present = (value: unknown) => typeof value === 'string' && value.trim() !== ''

/**
 * How many operations the source has, and how many of them (TRACE aside) say something: a summary, a parameter, a request body or
 * a 2xx response with a schema (operation-level and path-item refs followed, as every mainstream tool does).
 */
function sourceOperations(localPath: string): {operations: number; informative: number} {
  const file = path.join(corpusDir, localPath)
  const document = record(loadData(readFileSync(file, 'utf8'), /\.json$/.test(file) ? 'json' : 'yaml'))
  const refs = new JsonRefs(document, file)
  let operations = 0
  let informative = 0
  for (const rawItem of Object.values(record(document.paths))) {
    const item = refs.resolve(rawItem).value ?? {}
    for (const method of methods) {
      if (!item[method]) continue
      const operation = refs.resolve(item[method]).value ?? {}
      operations++
      // A TRACE operation is left out of the catalogue (with a finding): not compared.
      if (method === 'trace') continue
      const parameters = [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(operation.parameters) ? operation.parameters : [])]
      const responses = Object.entries(record(operation.responses)).filter(([code]) => /^2(\d\d|XX)$/i.test(code)).map(([, response]) => refs.resolve(response).value ?? {})
      const body = refs.resolve(operation.requestBody).value
      const typed = responses.some((response) => response.schema !== undefined || Object.values(refs.resolve(response.content).value ?? {}).some((media) => refs.resolve(media).value?.schema !== undefined))
      const bodyTyped = Object.values(refs.resolve(body?.content).value ?? {}).some((media) => refs.resolve(media).value?.schema !== undefined)
      if (present(operation.summary) || parameters.length > 0 || bodyTyped || typed) informative++
    }
  }
  return {operations, informative}
}

const missing = corpusMissing()
const importOnly = {plugins: [...(presets.openapi.plugins ?? []), ...(pageOff.plugins ?? [])]}
const ajv = new Ajv2020({allErrors: false, strict: false, validateFormats: false})
const schemaValid = ajv.compile(loadSchema('endpoints'))

/** Import one corpus file in-process; the catalogue when one came out. */
async function importFile(localPath: string) {
  const [file] = await runPreset(importOnly, [path.join(corpusDir, localPath)])
  const output = file.data.outputs?.find((candidate) => candidate.path.endsWith('.endpoints.json'))
  return {file, spec: output ? (JSON.parse(String(output)) as Catalogue) : undefined}
}

// The import is offline: any attempt to fetch fails the corpus test. Other test files share this process, and uvu
// loads them all before it runs any: the trap is set only while this file's tests run.
const fetches: string[] = []
const realFetch = globalThis.fetch
test.before(() => {
  globalThis.fetch = (async (input: unknown) => {
    fetches.push(String(input))
    throw new Error('apipe imports never fetch')
  }) as typeof fetch
})
test.after(() => {
  globalThis.fetch = realFetch
})

testWhen(test, missing, 'every OpenAPI and Swagger file of the corpus imports to a schema-valid catalogue, or ends in findings', async () => {
  const rows = manifest().filter((row) => /^oas/.test(row.format) || (row.format === 'fragment' && !row.local_path.startsWith('asyncapi/')))
  const summary = {files: 0, imported: 0, warned: 0, withFindings: 0, counted: 0, failed: [] as string[]}
  for (const row of rows) {
    summary.files++
    const {file, spec} = await importFile(row.local_path)
    const fatal = file.messages.filter((message) => message.fatal === true)
    if (fatal.some((message) => message.ruleId === 'crash')) summary.failed.push(`${row.local_path}: crash: ${fatal[0].reason}`)
    else if (spec && !schemaValid(spec)) summary.failed.push(`${row.local_path}: output breaks the catalogue schema: ${ajv.errorsText(schemaValid.errors)}`)
    else if (spec && fatal.length === 0) {
      summary.imported++
      if (file.messages.some((message) => message.fatal === false)) summary.warned++
    }
    else if (!spec && fatal.length > 0) {
      summary.withFindings++
      if (process.env.APIPE_CORPUS_VERBOSE) console.log(`    ${row.local_path}: ${fatal[0].reason}`)
    }
    else summary.failed.push(`${row.local_path}: neither a catalogue nor an error`)
    // Every operation the manifest counts is an endpoint, and no more hollow than in the source.
    if (/^oas/.test(row.format) && /^\d+$/.test(row.operations ?? '') && Number(row.operations) > 0) {
      summary.counted++
      const routes = (spec?.endpoints ?? []).filter((endpoint) => endpoint.method !== 'EVENT')
      // TRACE has no catalogue method: each such operation is left out with an `openapi-dropped` finding that says so.
      const dropped = file.messages.filter((message) => message.ruleId === 'openapi-dropped' && /^Left out operation `trace`/.test(message.reason)).length
      const source = sourceOperations(row.local_path)
      const informative = routes.filter((endpoint) => endpoint.summary || endpoint.params || endpoint.request || endpoint.response).length
      if (routes.length + dropped !== Number(row.operations)) summary.failed.push(`${row.local_path}: ${routes.length} endpoints (not EVENT) and ${dropped} dropped with a finding, the manifest counts ${row.operations} operations`)
      else if (informative !== source.informative) summary.failed.push(`${row.local_path}: ${informative} of ${routes.length} endpoints have a summary, params or types; in the source ${source.informative} of ${source.operations} operations do`)
    }
  }
  console.log(`  corpus (OpenAPI, Swagger): ${summary.files} files, ${summary.imported} imported (${summary.warned} with warnings), ${summary.withFindings} ended in errors and wrote nothing, ${summary.counted} checked against the manifest's operation count, ${summary.failed.length} failed`)
  assert.equal(summary.failed, [])
  assert.equal(fetches, [], 'no network request')
  assert.ok(summary.files > 300, `found ${summary.files} corpus files`)
  assert.ok(summary.counted > 250, `checked ${summary.counted} operation counts`)
})

testWhen(test, missing, 'Stripe: named endpoints keep their group, auth, status and types', async () => {
  const {file, spec} = await importFile('big/stripe/spec3.json')
  assert.ok(spec)
  assert.is(spec.endpoints.length, 417)
  assert.ok(file.messages.some((message) => message.ruleId === 'size' && message.reason === 'Catalogue has 417 endpoints, expected at most 80; split it by bounded context'))
  const customer = spec.endpoints.find((endpoint) => endpoint.id === 'GetCustomersCustomer')!
  assert.equal([customer.method, customer.path, customer.auth, customer.status], ['GET', '/v1/customers/{customer}', 'basic', [200]])
  assert.ok(customer.response === 'GetCustomersCustomerResponse' || customer.response === 'customer', `response ${customer.response}`)
  const charge = spec.endpoints.find((endpoint) => endpoint.id === 'PostCharges')!
  assert.equal([charge.method, charge.path, charge.request, charge.response], ['POST', '/v1/charges', 'PostChargesRequest', 'charge'])
  assert.ok(spec.types?.some((type) => type.name === 'charge' && type.kind === 'object'))
  assert.is(spec.meta.base_url, 'https://api.stripe.com/')
})

testWhen(test, missing, 'Kubernetes: groups from tags, the BearerToken api key, statuses and referenced types', async () => {
  const {spec} = await importFile('big/kubernetes/swagger.json')
  assert.ok(spec)
  assert.is(spec.endpoints.length, 1123)
  const list = spec.endpoints.find((endpoint) => endpoint.id === 'listCoreV1NamespacedPod')!
  assert.equal([list.method, list.path, list.group, list.auth, list.status], ['GET', '/api/v1/namespaces/{namespace}/pods', 'core_v1', 'api-key', [200, 401]])
  assert.is(list.response, 'io.k8s.api.core.v1.PodList')
  assert.ok(spec.types?.some((type) => type.name === 'io.k8s.api.core.v1.Pod' && type.kind === 'object'))
})

testWhen(test, missing, 'the pet stores: Swagger 2.0, OpenAPI 3.0 and 3.1 agree on the pets', async () => {
  const v2 = (await importFile('swagger-petstore/v2/petstore.json')).spec!
  const add = v2.endpoints.find((endpoint) => endpoint.id === 'addPet')!
  assert.equal([add.method, add.path, add.group, add.auth, add.request], ['POST', '/pet', 'pet', 'oauth2', 'Pet'])
  assert.is(v2.meta.base_url, 'http://petstore.swagger.io/v2')
  const v3 = (await importFile('swagger-petstore/v3-master/openapi.yaml')).spec!
  const find = v3.endpoints.find((endpoint) => endpoint.id === 'findPetsByStatus')!
  assert.equal([find.method, find.path, find.group, find.response], ['GET', '/pet/findByStatus', 'pet', 'Pet[]'])
  assert.ok(v3.types?.some((type) => type.name === 'Pet' && type.fields?.some((field) => field.name === 'status')))
})

test.run()
