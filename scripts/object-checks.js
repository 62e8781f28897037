// The tests that the fast checks of OpenAPI's path items (path-item-check.js) and of catalogues (catalogue-check.js)
// are built of, written as ajv reads a JSON Schema's keywords.

/**
 * The shared tests: `all` of a list, a `plainObject`, a `string` or `boolean`, `oneOf` some values, `listOf` a test,
 * and an `object` of known keys. Self-contained: its source is written into each built validator that uses it.
 */
export function objectChecks() {
  // Arrays are read by index, as ajv reads them: `every` would skip a hole, which ajv reads as `undefined`.
  const all = (list, test) => {
    for (let index = 0; index < list.length; index++) if (!test(list[index])) return false
    return true
  }
  const plainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value)
  const string = (value) => typeof value === 'string'
  const boolean = (value) => typeof value === 'boolean'
  const anything = () => true
  const oneOf = (...values) => (value) => values.includes(value)
  const listOf = (test) => (value) => Array.isArray(value) && all(value, test)
  /**
   * An object whose keys are each `x-…` or one of `checks`' own, each value passing its check, and `required`
   * present. `checks` is copied to a null-prototype object, so that `__proto__` or `constructor` are no keyword of it.
   */
  const object = (checks, required = []) => {
    const known = Object.assign(Object.create(null), checks)
    return (value) => {
      if (!plainObject(value)) return false
      for (const key of required) if (value[key] === undefined) return false
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue
        const check = known[key]
        if (check === undefined ? !key.startsWith('x-') : !check(value[key])) return false
      }
      return true
    }
  }
  return {all, plainObject, string, boolean, anything, oneOf, listOf, object}
}
