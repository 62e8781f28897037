import {spawnSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {createCli} from '../cli/main.js'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'

test('generated types in schemas/types are up to date with the schemas', () => {
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'gen-types.js'), '--check'], {encoding: 'utf8'})
  assert.is(result.stderr, '')
  assert.is(result.status, 0)
})

test('pipe --help prints what clipanion renders for the registered commands', async () => {
  const {stdout} = await runPipe(['--help'])
  assert.is(stdout, createCli().usage(null, {colored: false}))
  assert.is((await runPipe([])).stdout, stdout)
})

test('package.json pins exact versions and declares the contract of the package', () => {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
  assert.is(manifest.type, 'module')
  assert.is(manifest.engines.node, '>=20')
  assert.is(manifest.bin.pipe, 'bin/pipe.js')
  assert.ok(manifest.exports['.'] && manifest.exports['./runtime'])
  for (const [name, version] of Object.entries({...manifest.dependencies, ...manifest.devDependencies})) {
    assert.match(String(version), /^\d+\.\d+\.\d+$/, `${name} is pinned exactly`)
  }
})

test('every property in the catalogue schema has a description', () => {
  const schema = JSON.parse(readFileSync(path.join(root, 'schemas', 'endpoints.schema.json'), 'utf8'))
  const missing: string[] = []
  const walk = (node: Record<string, any>, where: string) => {
    for (const [name, property] of Object.entries<Record<string, any>>(node.properties ?? {})) {
      if (!property.description && !property.$ref) missing.push(`${where}.${name}`)
      if (property.items && !property.items.description && !property.items.$ref) missing.push(`${where}.${name}[]`)
    }
  }
  walk(schema, '(root)')
  for (const [name, definition] of Object.entries<Record<string, any>>(schema.$defs)) {
    if (!definition.description) missing.push(`$defs.${name}`)
    walk(definition, name)
  }
  assert.equal(missing, [])
})

test.run()
