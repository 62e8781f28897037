/** Split a GraphQL description into the one-line summary the page and sentences use and the rest. */

/** `summary`: the first line (or sentence, when the line is long); `description`: the whole text when it says more. */
export function describe(text: string | null | undefined): {summary?: string; description?: string} {
  const trimmed = text?.trim()
  if (!trimmed) return {}
  const line = trimmed.split(/\r?\n/)[0].trim()
  const sentence = /^(.{20,}?[.!?])\s/.exec(line)?.[1]
  const summary = line.length > 120 && sentence ? sentence : line
  return summary === trimmed ? {summary} : {summary, description: trimmed}
}
