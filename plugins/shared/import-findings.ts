/**
 * Findings an importer collects while it builds a catalogue, reported through rules (pipeline/rule.ts) once the
 * import is done, so that each has an id, a severity that settings can change or turn off, and a place. An importer
 * `note`s them in `file.data.importFindings`; the rules made by `importRule` report the ones with their id.
 */
import type {Node, Point} from 'unist'
import type {VFile} from 'vfile'
import type {JsonPath} from '../../pipeline/json-path.js'
import {defineRule, type Rule, type RuleMeta} from '../../pipeline/rule.js'

/** A finding waiting for its rule. */
export interface ImportFinding {
  ruleId: string
  reason: string
  /** Path in the source document (or in `file`). */
  path: JsonPath
  /** The file at fault when it is not the one imported (a file that a `$ref` reads). */
  file?: VFile
  /** Line and column, for a source that JSON paths do not address (a GraphQL schema). */
  place?: Point
}

declare module 'vfile' {
  interface DataMap {
    /** Findings of the import, waiting for their rules. */
    importFindings: ImportFinding[]
  }
}

/** Note a finding for the rule `ruleId`. */
export function note(file: VFile, ruleId: string, reason: string, path: JsonPath = [], at?: VFile): void {
  ;(file.data.importFindings ??= []).push({ruleId, reason, path, file: at})
}

/** Note a finding for the rule `ruleId` at a line and column of the imported file. */
export function noteAt(file: VFile, ruleId: string, reason: string, place: Point): void {
  ;(file.data.importFindings ??= []).push({ruleId, reason, path: [], place})
}

/** A rule that reports the findings noted under its id (and forgets them, so a later run does not repeat them). */
export function importRule<Tree extends Node>(meta: RuleMeta): Rule<Tree> {
  return defineRule<Tree>(meta, (_tree, file, report) => {
    const all = file.data.importFindings ?? []
    for (const finding of all.filter((candidate) => candidate.ruleId === meta.id)) report(finding.reason, {path: finding.path, file: finding.file, place: finding.place})
    file.data.importFindings = all.filter((candidate) => candidate.ruleId !== meta.id)
  })
}
