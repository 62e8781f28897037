/**
 * Where a long name may wrap on the page: a line may end only between the words of a name, never inside one (a
 * path is cut into pieces by `pathParts` in model.ts first).
 */
import {escapeHtml} from '../shared/escape-html.js'

/** Longer than this, a path piece or a name may also wrap between its words (default: 24 characters). */
export const longPiece = 24

/**
 * A piece of a path in the words a line may end after: the piece itself, or, when it is longer than {@link longPiece}
 * (Box: `{shield_information_barrier_segment_restriction_id}`, GitHub's GraphQL
 * `enterpriseAdministratorInvitation`, wider than a phone's line), cut after each `_` and before each capital after a
 * small letter or digit, where a word of a snake_case or camelCase name ends; a word itself is never cut.
 */
export function pieceWords(text: string): string[] {
  if (text.length <= longPiece) return [text]
  // A loop, not `split` with lookbehinds, which took ~7 ms of loket.nl's page.
  const words: string[] = []
  let start = 0
  for (let index = 1; index < text.length; index++) {
    const previous = text.charCodeAt(index - 1)
    const code = text.charCodeAt(index)
    const lowerOrDigit = (previous >= 97 && previous <= 122) || (previous >= 48 && previous <= 57)
    if (previous === 95 || (lowerOrDigit && code >= 65 && code <= 90)) {
      words.push(text.slice(start, index))
      start = index
    }
  }
  words.push(text.slice(start))
  return words
}

/**
 * A GraphQL signature (`enterprise(slug: String!): Enterprise`) in the pieces a line may end after: its spaces and
 * the `(` that opens its arguments (and, inside a long piece, between its words: {@link pieceHtml}). Its braces are
 * a default value's (`= {field: NAME}`), not path parameters.
 */
export function signaturePieces(signature: string): string[] {
  return signature.split(/(?<=[( ])/)
}

/**
 * A piece as markup: its words joined by `<wbr>`, and when it has more than one, in a `.long` span, an inline block
 * that goes to the next line whole when it fits there, so that a line ends inside a long name only when the name is
 * wider than a line (else `role: Enterprise` / `AdministratorRole!`). White space after it stays outside.
 */
export function pieceHtml(piece: string, escape: (word: string) => string = escapeHtml): string {
  // Most pieces are short: no words to cut (a big API's page writes tens of thousands of field names).
  if (piece.length <= longPiece) return escape(piece)
  // A long field name repeats across a big API's types (GitHub's webhooks): made once.
  if (escape !== escapeHtml) return longPieceHtml(piece, escape)
  let html = longPieces.get(piece)
  if (html === undefined) longPieces.set(piece, (html = longPieceHtml(piece, escape)))
  return html
}

/** The markup of each long piece written so far with the default escape. */
const longPieces = new Map<string, string>()

function longPieceHtml(piece: string, escape: (word: string) => string): string {
  const words = pieceWords(piece)
  if (words.length === 1) return escape(piece)
  const space = /\s*$/.exec(piece)![0]
  if (space) words[words.length - 1] = words.at(-1)!.slice(0, -space.length)
  return `<span class="long">${words.map(escape).join('<wbr>')}</span>${space}`
}

/**
 * A type name as markup that may wrap after each `.` (Kubernetes: `io.k8s.api.core.v1.Pod`). A name wider than its
 * line (loket.nl's are 40 to 90 characters, 9,338 of its 9,347 past 24) breaks where it must (page.css): a `<wbr>`
 * between the words of each would add ~0.7 MB to that page's cards and ~30 ms to its build.
 */
export function typeNameHtml(name: string): string {
  return name.includes('.') ? escapeHtml(name).replace(/\./g, '.<wbr>') : escapeHtml(name)
}
