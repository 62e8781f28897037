/** Split a description (GraphQL's, an AsyncAPI message's) into the one-line summary the page and sentences use and the rest. */

/**
 * `summary`: the first line, or its first sentence when the line is long; when the first paragraph goes on past the
 * line (SDL descriptions are wrapped at some width: GitHub's `Accepts a pending invitation for a user to become` /
 * `an administrator of an enterprise.`), its first sentence, or the whole paragraph when it has no sentence end and
 * fits a line, so that a summary never stops mid-sentence. `description`: the whole text when it says more.
 */
export function describe(text: string | null | undefined): {summary?: string; description?: string} {
  const trimmed = text?.trim()
  if (!trimmed) return {}
  const lines = trimmed.split(/\r?\n/)
  const line = lines[0].trim()
  const wrapped = lines.length > 1 && lines[1].trim() !== '' && !/[.!?:]$/.test(line)
  const summary = wrapped ? paragraphSummary(trimmed) ?? line : line.length > 120 ? (firstSentence(line) ?? line) : line
  return summary === trimmed ? {summary} : {summary, description: trimmed}
}

/** The first sentence of the first paragraph, its lines joined, or the paragraph when it has none and is short. */
function paragraphSummary(text: string): string | undefined {
  const paragraph = text.split(/\r?\n[ \t]*\r?\n/)[0].replace(/\s*\r?\n\s*/g, ' ')
  return firstSentence(paragraph) ?? (paragraph.length <= 120 ? paragraph : undefined)
}

/** The text up to the first `.`, `!` or `?` followed by white space or the end, past its first 20 characters. */
function firstSentence(text: string): string | undefined {
  return /^(.{20,}?[.!?])(?:\s|$)/.exec(text)?.[1]
}
