// What the fast checks (schema-object-check.js, path-item-check.js, catalogue-check.js) share at build time: knowing
// the schema they were written from, finding ajv's function for a definition in its standalone code, and putting a
// test in front of it.

import {createHash} from 'node:crypto'

/** The first 16 hex digits of the SHA-256 of `value`'s JSON (written with `replacer`, as JSON.stringify takes it). */
export function digest(value, replacer) {
  return createHash('sha256').update(JSON.stringify(value, replacer)).digest('hex').slice(0, 16)
}

/** The names of the definitions of `schema` whose digests are not the ones in `writtenFor` (name -> digest). */
export function changedDefinitions(schema, writtenFor) {
  return Object.keys(writtenFor).filter((name) => digest(schema.definitions[name]) !== writtenFor[name])
}

/**
 * The name of ajv's function (`validateN`) for the definition whose constant in `code` opens with `constantStart`
 * (its JSON's first characters): ajv writes it as `function validateN(data, {…}={}){…}`, opening with the loop of
 * `additionalProperties: false` over the constant's properties. Throws, naming `what`, unless the constant and the
 * function are each found once.
 */
export function definitionFunction(code, constantStart, what) {
  const escaped = constantStart.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const constants = [...code.matchAll(new RegExp(`const (schema\\d+) = ${escaped}`, 'g'))].map((match) => match[1])
  if (constants.length !== 1) throw new Error(`${what}'s constant is found ${constants.length} times in ajv's code`)
  const opening = new RegExp(`function (validate\\d+)\\(data, \\{instancePath="", parentData, parentDataProperty, rootData=data\\}=\\{\\}\\)\\{let vErrors = null;let errors = 0;if\\(data && typeof data == "object" && !Array.isArray\\(data\\)\\)\\{for\\(const key0 in data\\)\\{if\\(!\\(\\(func\\d+\\.call\\(${constants[0]}\\.properties, key0\\)\\)`, 'g')
  const names = [...code.matchAll(opening)].map((match) => match[1])
  if (names.length !== 1) throw new Error(`${what}'s function is found ${names.length} times in ajv's code`)
  return names[0]
}

/**
 * `code` with the test `test` (a constant whose source is `source`, appended to the code) in front of ajv's function
 * `name`: a value the test passes is valid at once; any other goes to ajv's body, renamed `<name>_ajv`, which decides
 * and writes every error. The function keeps its name for its callers and its errors (`validateN.errors`, read by the
 * caller after a failure, which ajv's body still sets).
 */
export function inFrontOf(code, name, test, source) {
  const opening = `function ${name}(data, `
  if (code.split(opening).length !== 2) throw new Error(`ajv's function ${name} is found ${code.split(opening).length - 1} times in its code`)
  return code.replace(opening, `function ${name}(data, options) {if (${test}(data)) {${name}.errors = null; return true;} return ${name}_ajv(data, options);}\nfunction ${name}_ajv(data, `) + `\nconst ${test} = ${source};\n`
}
