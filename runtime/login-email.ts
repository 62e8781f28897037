// The one rule for the e-mail that identifies an account: the auth routes, the password rules, the entity layer and
// user code share it.

/**
 * The e-mail an account signs in with, as it is stored and looked up: trimmed and lowercased, so that `Ada@Example.com`
 * and `ada@example.com` are one account (as in Devise, Strapi and Firebase Auth; mail providers ignore the case).
 */
export function loginEmail(value: string): string {
  return value.trim().toLowerCase()
}

/** The field an account signs in with: the entity's first `email` field. */
export function loginEmailField(definition: {fields: Record<string, {type: string}>}): string | undefined {
  for (const [name, field] of Object.entries(definition.fields)) if (field.type === 'email') return name
  return undefined
}

/**
 * The e-mail in a body of the auth entity as it will be stored, before the body is checked: ` Ada@Example.com` is the
 * address it will be, not an e-mail that fails its format.
 */
export function normalizeLoginEmail(definition: {fields: Record<string, {type: string}>}, data: Record<string, unknown>): void {
  const field = loginEmailField(definition)
  if (field !== undefined && typeof data[field] === 'string') data[field] = loginEmail(data[field])
}
