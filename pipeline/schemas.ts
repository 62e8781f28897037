/** Access to the JSON Schemas in `schemas/`, from the sources (tsx) and from `dist/` alike. */
import {readdirSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import type {ValidateFunction} from 'ajv'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {requireBuilt} from './built.js'

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

/** For ajv, when a schema has no standalone validator. */
const requirePackage = createRequire(import.meta.url)
const validators = new Map<string, ValidateFunction>()

/**
 * The standalone validators `npm run build` compiles (scripts/build-validators.js): one per schema in `schemas/`,
 * and the official Swagger 2.0 and OpenAPI 3.0 and 3.1 schemas. Each is named in full (see built.ts).
 */
const builtValidators: Record<string, () => ValidateFunction> = {
  controller: () => requireBuilt('#validators/controller.cjs'),
  endpoints: () => requireBuilt('#validators/endpoints.cjs'),
  entity: () => requireBuilt('#validators/entity.cjs'),
  erd: () => requireBuilt('#validators/erd.cjs'),
  project: () => requireBuilt('#validators/project.cjs'),
  'openapi-2.0': () => requireBuilt('#validators/openapi-2.0.cjs'),
  'openapi-3.0': () => requireBuilt('#validators/openapi-3.0.cjs'),
  'openapi-3.1': () => requireBuilt('#validators/openapi-3.1.cjs')
}
const standalone = new Map<string, ValidateFunction | undefined>()

/** The standalone validator named `name` (`endpoints`, `openapi-3.0`, …), or undefined when the build wrote none. */
export function standaloneValidator(name: string): ValidateFunction | undefined {
  if (!standalone.has(name)) {
    let validate: ValidateFunction | undefined
    try {
      validate = Object.hasOwn(builtValidators, name) ? builtValidators[name]() : undefined
    } catch {
      // Not built (a copy of the sources without `npm run build`).
    }
    standalone.set(name, validate)
  }
  return standalone.get(name)
}

/**
 * The validator of `schemas/<name>.schema.json`: the standalone one `npm run build` compiled, else one compiled now
 * with every schema of the folder available to `$ref`.
 */
export function loadValidator(name: string): ValidateFunction {
  let validate = validators.get(name)
  if (!validate) {
    validate = standaloneValidator(name)
    if (!validate) {
      const {Ajv2020} = requirePackage('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')
      const ajv = new Ajv2020({allErrors: true, strict: true, validateFormats: false, allowUnionTypes: true})
      ajv.addKeyword('tsType')
      for (const other of schemaNames()) if (other !== name) ajv.addSchema(loadSchema(other))
      validate = ajv.compile(loadSchema(name))
    }
    validators.set(name, validate)
  }
  return validate
}
