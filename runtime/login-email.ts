// The one rule for the e-mail that identifies an account: the auth routes, the entity layer and user code share it.

/**
 * The e-mail an account signs in with, as it is stored and looked up: trimmed and lowercased, so that `Ada@Example.com`
 * and `ada@example.com` are one account (as in Devise, Strapi and Firebase Auth; mail providers ignore the case).
 */
export function loginEmail(value: string): string {
  return value.trim().toLowerCase()
}
