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
    // An exact version, a pre-release one too (`1.0.0-beta.0`); never a range.
    assert.match(String(version), /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/, `${name} is pinned exactly`)
  }
})

test('the published package holds what pipe reads at run time, built, and no tests or fixtures', () => {
  // dist/ and the compiled validators are ignored by git, which npm would follow without `files`.
  const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {cwd: root, encoding: 'utf8'})
  assert.is(result.status, 0, result.stderr)
  const files = new Set((JSON.parse(result.stdout) as Array<{files: Array<{path: string}>}>)[0].files.map((file) => file.path))
  for (const needed of ['bin/pipe.js', 'dist/bundle/main.js', 'dist/cli/help.txt', 'dist/index.js', 'dist/runtime/index.js', 'dist/plugins/render-html/page.njk.cjs', 'plugins/render-html/page.njk', 'plugins/render-html/page.css', 'plugins/render-html/page.client.js', 'schemas/endpoints.schema.json', 'schemas/validators/endpoints.cjs', 'schemas/validators/openapi-3.0.cjs', 'docs/rules.md']) {
    assert.ok(files.has(needed), `${needed} is in the package`)
  }
  assert.equal([...files].filter((file) => /^(test|fixtures|bench|examples|scratch)\//.test(file)), [])
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
