/** Access to the JSON Schemas in `schemas/`, from the sources (tsx) and from `dist/` alike. */
import {readdirSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import type {ValidateFunction} from 'ajv'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
// `pipeline/` in the sources, `dist/pipeline/` when built: the package root is one or two levels up.
const root = path.basename(path.dirname(here)) === 'dist' ? path.resolve(here, '../..') : path.resolve(here, '..')

/** The package root (where package.json is). */
export const packageRoot = root

/** Read `schemas/<name>.schema.json`. */
export function loadSchema(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(root, 'schemas', `${name}.schema.json`), 'utf8'))
}

/** The names of the schemas in `schemas/` (`endpoints`, `entity`, …), whatever they describe. */
export function schemaNames(): string[] {
  return readdirSync(path.join(root, 'schemas'))
    .filter((name) => name.endsWith('.schema.json'))
    .map((name) => name.slice(0, -'.schema.json'.length))
}

const require = createRequire(import.meta.url)
const validators = new Map<string, ValidateFunction>()

/**
 * The validator of `schemas/<name>.schema.json`: the standalone one `npm run build` compiled
 * (scripts/build-validators.js), else one compiled now with every schema of the folder available to `$ref`.
 */
export function loadValidator(name: string): ValidateFunction {
  let validate = validators.get(name)
  if (!validate) {
    try {
      validate = require(path.join(root, 'schemas', 'validators', `${name}.cjs`)) as ValidateFunction
    } catch {
      const {Ajv2020} = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')
      const ajv = new Ajv2020({allErrors: true, strict: true, validateFormats: false, allowUnionTypes: true})
      ajv.addKeyword('tsType')
      for (const other of schemaNames()) if (other !== name) ajv.addSchema(loadSchema(other))
      validate = ajv.compile(loadSchema(name))
    }
    validators.set(name, validate)
  }
  return validate
}
