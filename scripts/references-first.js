// A rewrite of the Swagger 2.0 and OpenAPI 3.0 JSON Schemas that checks documents faster and alike (used by
// build-validators.js; test/openapi-validators.test.ts holds it to the official schemas' verdicts).
/**
 * The schema with each `oneOf: [X, Reference]` written `if: {$ref is a string}, then: Reference, else: X`, where X
 * refuses every object whose `$ref` is a string (it allows no keys but its own, or other keys only as objects): the
 * same documents pass, but a validator with `allErrors` no longer tries both branches of every schema, parameter and
 * response and builds an error for the one that fails (Kubernetes' description: ~70 to ~38 ms). The 3.1 schema says
 * it this way already. A `oneOf` that does not fit stays as it is.
 */
export function referencesFirst(schema) {
  const definitions = schema.definitions
  const isReference = (branch) => branch.$ref === '#/definitions/Reference' || branch.$ref === '#/definitions/jsonReference'
  const definition = (branch) => (typeof branch.$ref === 'string' ? definitions[branch.$ref.replace('#/definitions/', '')] : branch)
  /** Whether no object whose `$ref` is a string passes `branch`. */
  const refusesRef = (branch, depth = 0) => {
    const target = definition(branch)
    if (!target || depth > 4) return false
    if (typeof target.type === 'string' && target.type !== 'object') return true
    const named = Object.hasOwn(target.properties ?? {}, '$ref') || Object.keys(target.patternProperties ?? {}).some((pattern) => new RegExp(pattern).test('$ref'))
    // No other keys at all, or other keys only as objects (a callback's paths), which a string is not.
    if (!named && (target.additionalProperties === false || definition(target.additionalProperties ?? {})?.type === 'object')) return true
    return Array.isArray(target.oneOf) && target.oneOf.every((member) => refusesRef(member, depth + 1))
  }
  const rewrite = (node) => {
    if (Array.isArray(node)) return node.map(rewrite)
    if (!node || typeof node !== 'object') return node
    const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, rewrite(value)]))
    const reference = Array.isArray(copy.oneOf) ? copy.oneOf.find(isReference) : undefined
    const others = reference ? copy.oneOf.filter((branch) => branch !== reference) : []
    if (!reference || copy.if !== undefined || !others.every((branch) => refusesRef(branch))) return copy
    const {oneOf: _replaced, ...rest} = copy
    return {...rest, if: {type: 'object', required: ['$ref'], properties: {$ref: {type: 'string'}}}, then: reference, else: others.length === 1 ? others[0] : {oneOf: others}}
  }
  return rewrite(schema)
}
