/**
 * JSON text with findings: the fast `JSON.parse`, and only when it fails a second, position-aware scan (jsonc-parser)
 * to say where, as one fatal `parse` finding with line:column. Shared by every reader of JSON sources (catalogues,
 * OpenAPI documents, definitions), whatever they hold.
 */
import type {ParseError} from 'jsonc-parser'
import type {Point} from 'unist'
import type {VFile} from 'vfile'
import {jsonc} from './lazy.js'
import {fatalFinding} from './rule.js'

/** Parse `value` (the text of `file`); throws a fatal `parse` finding at the place of the first syntax error. */
export function parseJsonText(value: string, file: VFile): unknown {
  try {
    return JSON.parse(value)
  } catch (error) {
    // Only now pay for a scan that knows where the problem is.
    const errors: ParseError[] = []
    const {parse: parseJsonc, printParseErrorCode} = jsonc()
    parseJsonc(value, errors, {disallowComments: true, allowTrailingComma: false, allowEmptyContent: false})
    const first = errors[0]
    if (!first) fail(file, `Cannot parse JSON: ${(error as Error).message}`, {line: 1, column: 1})
    const found = value.slice(first.offset, first.offset + Math.max(first.length, 1))
    const what = first.offset >= value.length ? 'end of file' : '`' + visible(found.slice(0, 20)) + '`'
    fail(file, `Unexpected ${what}, expected ${expectation(printParseErrorCode(first.error))}`, pointAt(value, first.offset))
  }
}

function expectation(code: string): string {
  const expected: Record<string, string> = {
    InvalidSymbol: 'a JSON value',
    InvalidNumberFormat: 'a valid number',
    PropertyNameExpected: 'a property name in double quotes',
    ValueExpected: 'a value',
    ColonExpected: '`:`',
    CommaExpected: '`,`',
    CloseBraceExpected: '`}`',
    CloseBracketExpected: '`]`',
    EndOfFileExpected: 'the end of the file',
    InvalidCommentToken: 'no comments (JSON has none)',
    UnexpectedEndOfComment: 'no comments (JSON has none)',
    UnexpectedEndOfString: 'a closing `"`',
    UnexpectedEndOfNumber: 'a digit',
    InvalidUnicode: 'a valid `\\u` escape',
    InvalidEscapeCharacter: 'a valid escape',
    InvalidCharacter: 'no control characters in strings'
  }
  return expected[code] ?? code
}

/** `text` with control characters written as JSON escapes (`\u001b`), so that a finding never prints them raw. */
function visible(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

function pointAt(value: string, offset: number): Point {
  let line = 1
  let lineStart = 0
  for (let index = value.indexOf('\n'); index !== -1 && index < offset; index = value.indexOf('\n', index + 1)) {
    line++
    lineStart = index + 1
  }
  return {line, column: offset - lineStart + 1, offset}
}

function fail(file: VFile, reason: string, place: Point): never {
  throw fatalFinding(file, reason, 'parse', place)
}
