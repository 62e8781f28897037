/**
 * Check, before rendering, what a template asks of the catalogues: `endpoints.<section>`,
 * `catalogues.<name>.<section>` and `catalogues["<name>"].<section>` inside `{{ }}` and `{% %}` tags. An unknown
 * name is reported at its line and column in the template, which nunjucks' own errors cannot always give.
 */
import {sectionNames} from './sections.js'

/** A problem found in the template source. */
export interface ReferenceProblem {
  reason: string
  offset: number
}

const tag = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g
const reference = /\b(?:endpoints|catalogues\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*["']([^"']+)["']\s*\]))(?:\s*\.\s*([A-Za-z_$][\w$]*))?/g

/** The unknown sections and catalogues a template names. */
export function checkReferences(source: string, catalogueNames: string[]): ReferenceProblem[] {
  const problems: ReferenceProblem[] = []
  for (const region of source.matchAll(tag)) {
    for (const match of region[0].matchAll(reference)) {
      const offset = (region.index ?? 0) + (match.index ?? 0)
      const catalogue = match[1] ?? match[2]
      const section = match[3]
      if (catalogue !== undefined && !catalogueNames.includes(catalogue)) {
        problems.push({reason: `Unknown catalogue \`${catalogue}\`, expected one of ${catalogueNames.join(', ')}`, offset})
      } else if (section !== undefined && !(sectionNames as readonly string[]).includes(section)) {
        problems.push({reason: `Unknown section \`${section}\`, expected one of ${sectionNames.join(', ')}`, offset})
      }
    }
  }
  return problems
}

/**
 * Where the template first reads catalogue `name` (`endpoints.…` reads the first catalogue), as an offset; undefined
 * when it never names it.
 */
export function firstUse(source: string, name: string, first: boolean): number | undefined {
  for (const region of source.matchAll(tag)) {
    for (const match of region[0].matchAll(reference)) {
      const catalogue = match[1] ?? match[2]
      if (catalogue === name || (catalogue === undefined && first)) return (region.index ?? 0) + (match.index ?? 0)
    }
  }
  return undefined
}
