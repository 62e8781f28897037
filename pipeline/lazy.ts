/**
 * Modules that only some runs need (the YAML parsers, position scanning), loaded synchronously on first use so that start-up
 * pays nothing for them: `pipe validate` on a clean JSON spec never loads either.
 */
import {createRequire} from 'node:module'

const require = createRequire(import.meta.url)

let yamlModule: typeof import('yaml') | undefined
let jsYamlModule: typeof import('js-yaml') | undefined
let jsoncModule: typeof import('jsonc-parser') | undefined

/** The `yaml` package. */
export function yaml(): typeof import('yaml') {
  return (yamlModule ??= require('yaml') as typeof import('yaml'))
}

/** The `js-yaml` package: the fast YAML parser for data (no positions). */
export function jsYaml(): typeof import('js-yaml') {
  return (jsYamlModule ??= require('js-yaml') as typeof import('js-yaml'))
}

/** The `jsonc-parser` package. */
export function jsonc(): typeof import('jsonc-parser') {
  return (jsoncModule ??= require('jsonc-parser') as typeof import('jsonc-parser'))
}
