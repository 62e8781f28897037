/**
 * `ctx.utils`: helpers for hooks, actions and services: password hashing (bcrypt), slugs and pagination.
 */
import slugify from '@sindresorhus/slugify'
import bcrypt from 'bcrypt'

/** bcrypt cost when the project sets none (`auth.bcryptCost`, at least 10). */
export const defaultBcryptCost = 12

const bcryptHash = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/

/** Whether a stored value is already a bcrypt hash (so writes never hash twice). */
export function isHash(value: unknown): boolean {
  return typeof value === 'string' && bcryptHash.test(value)
}

export const utils = {
  /** Hash a password with bcrypt. */
  hash(password: string, cost = defaultBcryptCost): Promise<string> {
    return bcrypt.hash(password, Math.max(10, cost))
  },
  /** Whether `password` matches a bcrypt `hash`. */
  verify(password: string, hash: string): Promise<boolean> {
    return bcrypt.compare(password, hash)
  },
  /**
   * A URL slug, transliterated (@sindresorhus/slugify): `Hello, World!` -> `hello-world`, `Привет мир` -> `privet-mir`,
   * `Łódź` -> `lodz`. Scripts it cannot transliterate (`日本語`) keep their letters rather than becoming empty.
   */
  slug(text: string): string {
    return slugify(text) || (text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join('-')
  },
  /** The `meta` of a list page. */
  paginate(total: number, page: number, limit: number) {
    return {page, limit, total, pages: Math.ceil(total / limit)}
  }
}
