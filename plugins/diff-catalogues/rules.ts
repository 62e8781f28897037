/**
 * The rules of `pipe diff`: one per change code. A rule at `error` makes its changes breaking, at `warn`
 * non-breaking, `off` drops them; `.piperc*` (`settings.rules`) can set each. Documented in docs/diff.md.
 */
import type {VFile} from 'vfile'
import {codeSpan} from '../../pipeline/errors.js'
import {defineRule, type Rule} from '../../pipeline/rule.js'
import type {CatalogueTree} from '../../pipeline/data.js'
import type {Change} from './compare.js'

declare module 'vfile' {
  interface DataMap {
    /** The changes from the previous catalogue to this one (set by diff-catalogues before its rules run). */
    changes: Change[]
  }
}

/** Change codes and whether a client breaks on them by default. */
export const changeCodes: ReadonlyArray<[code: string, breaking: boolean]> = [
  ['endpoint-removed', true],
  ['endpoint-added', false],
  ['endpoint-deprecated', false],
  ['endpoint-reactivated', false],
  ['method-changed', true],
  ['path-changed', true],
  ['base-path-changed', true],
  ['auth-added', true],
  ['auth-changed', true],
  ['auth-removed', false],
  ['auth-renamed', false],
  ['auth-alternative-added', false],
  ['param-required-added', true],
  ['param-added', false],
  ['param-removed', false],
  ['argument-removed', true],
  ['param-became-required', true],
  ['param-became-optional', false],
  ['param-deprecated', false],
  ['param-reactivated', false],
  ['event-param-removed', true],
  ['event-param-added', false],
  ['event-param-became-optional', true],
  ['event-param-became-required', false],
  ['param-default-changed', false],
  ['status-removed', true],
  ['status-added', false],
  ['response-removed', true],
  ['response-added', false],
  ['response-header-removed', true],
  ['response-header-added', false],
  ['request-required-body-added', true],
  ['request-body-added', false],
  ['request-body-became-required', true],
  ['request-body-became-optional', false],
  ['request-body-removed', false],
  ['request-media-type-removed', true],
  ['request-media-type-added', false],
  ['response-media-type-removed', true],
  ['response-media-type-added', false],
  ['request-type-narrowed', true],
  ['request-type-widened', false],
  ['response-type-widened', true],
  ['response-type-narrowed', false],
  ['request-required-field-added', true],
  ['request-field-added', false],
  ['request-field-became-required', true],
  ['request-field-removed', false],
  ['input-field-removed', true],
  ['possible-type-removed', true],
  ['response-field-removed', true],
  ['payload-field-removed', true],
  ['response-field-became-optional', true],
  ['response-field-added', false],
  ['field-deprecated', false],
  ['field-reactivated', false],
  ['field-default-changed', false],
  ['response-enum-value-added', true],
  ['response-enum-value-removed', false],
  ['request-enum-value-removed', true],
  ['request-enum-value-added', false],
  ['enum-value-deprecated', false]
]

/** A rule reporting the changes of one code. */
function changeRule(code: string, breaking: boolean): Rule<CatalogueTree> {
  return defineRule<CatalogueTree>({id: code, severity: breaking ? 'error' : 'warn'}, (_tree, file, report) => {
    for (const change of file.data.changes ?? []) {
      if (change.code !== code) continue
      const message = report(change.message, {path: change.path})
      message.jsonPath = change.location
    }
  })
}

/**
 * `version-not-bumped`: a breaking change (after the other rules' settings) without a major bump of `meta.version`
 * (for `0.x` versions, a minor bump counts, as semver allows any change there). Versions without a version on either
 * side (a GraphQL schema has none) have nothing to bump.
 */
export const versionNotBumped = defineRule<CatalogueTree>({id: 'version-not-bumped', severity: 'error'}, (tree, file, report) => {
  const breaking = file.messages.filter((message) => message.fatal === true && message.source === 'apipe').length
  if (breaking === 0) return
  const was = file.data.previousVersion
  const now = tree.spec.meta?.version
  if ((was === undefined && now === undefined) || majorBumped(was, now)) return
  // A side without a version (a GraphQL schema diffed against a REST description) is said so, not as a version `none`.
  const shown = (version: string | undefined) => (version === undefined ? 'no version' : codeSpan(version))
  const message = report(`${breaking} breaking change(s) without a major version bump: \`meta.version\` went from ${shown(was)} to ${shown(now)}`, {path: ['meta', 'version']})
  message.jsonPath = 'meta.version'
})

declare module 'vfile' {
  interface DataMap {
    /** `meta.version` of the previous catalogue. */
    previousVersion: string | undefined
  }
}

function majorBumped(was: string | undefined, now: string | undefined): boolean {
  const parse = (version: string | undefined) => /^v?(\d+)(?:\.(\d+))?/.exec(version ?? '')
  const [before, after] = [parse(was), parse(now)]
  if (!before || !after) return false
  const [oldMajor, newMajor] = [Number(before[1]), Number(after[1])]
  if (newMajor !== oldMajor) return newMajor > oldMajor
  return oldMajor === 0 && Number(after[2] ?? 0) > Number(before[2] ?? 0)
}

/** Every diff rule, in report order; `version-not-bumped` last, as it counts the breaking changes before it. */
export const rules: Array<Rule<CatalogueTree>> = [...changeCodes.map(([code, breaking]) => changeRule(code, breaking)), versionNotBumped]

/** Whether `file`'s change findings include a breaking one. */
export function hasBreaking(file: VFile): boolean {
  return file.messages.some((message) => message.fatal === true)
}
