/**
 * Programmer errors: bad options, bad presets, a plugin that cannot be loaded.
 * What a *user* wrote wrong in a spec is never one of these; it is a vfile message.
 * One table, like fastify's `FST_ERR_*`, so that codes are stable and greppable.
 */
export const codes = {
  APIPE_ERR_OPTION: 'Unexpected value %s for `%s`, expected %s',
  APIPE_ERR_PRESET: 'Unknown preset `%s`, expected one of %s',
  APIPE_ERR_RULE_SEVERITY: 'Unexpected severity %s for rule `%s`, expected `off`, `warn` or `error`',
  APIPE_ERR_RULE: 'Unknown rule %s in `settings.rules`%s, expected %s',
  APIPE_ERR_CONFIG_FIELD: 'Unexpected field %s in %s, expected `plugins` or `settings`%s',
  APIPE_ERR_INPUT: 'Unexpected input %s, expected a file path, a vfile or `{path, value}`',
  APIPE_ERR_DATABASE: 'Cannot use the %s database %s: %s',
  APIPE_ERR_MIGRATION: 'Migration %s failed at statement %s (%s): %s',
  APIPE_ERR_MIGRATION_FILE: 'Cannot load migration %s: %s',
  APIPE_ERR_CONFIG: 'Cannot start: %s',
  APIPE_ERR_LISTEN: 'Cannot listen on %s: %s'
} as const

/** A stable error code from {@link codes}. */
export type ErrorCode = keyof typeof codes

/** An error made by a programmer (options, presets), carrying an `APIPE_ERR_*` code and its cause. */
export class ApipeError extends Error {
  /** The `APIPE_ERR_*` code. */
  readonly code: ErrorCode

  constructor(code: ErrorCode, values: readonly unknown[], options?: {cause?: unknown}) {
    let index = 0
    super(codes[code].replace(/%s/g, () => String(values[index++])), options)
    this.name = 'ApipeError'
    this.code = code
  }
}

/** Format a value for an error or finding reason: strings and numbers in backticks, the rest as JSON. */
export function show(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return codeSpan(value)
  if (value === undefined) return '`undefined`'
  return codeSpan(JSON.stringify(value))
}

/**
 * `value` as text in a Markdown code span, as CommonMark reads one: fenced by one backtick more than its longest run
 * of them (an enum value ``a`b`` stays one span in a pull-request comment), and padded with a space when it starts or
 * ends with a backtick, or with spaces at both ends, which the reader strips.
 */
export function codeSpan(value: unknown): string {
  const text = String(value)
  let longest = 0
  // Most values hold no backtick (a diff of a big API shows thousands): no regular expression run over them.
  if (text.includes('`')) for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length)
  const fence = '`'.repeat(longest + 1)
  const pad = text.startsWith('`') || text.endsWith('`') || (text.length > 1 && text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '') ? ' ' : ''
  return fence + pad + text + pad + fence
}
