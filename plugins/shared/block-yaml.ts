/**
 * A fast reader for the YAML that API descriptions are written in: block mappings and sequences, plain, quoted and
 * block scalars, and flow collections. It finds each line's structure with the engine's own string search
 * (`indexOf`, `slice`) where js-yaml steps through every character in JavaScript, which makes it about twice as
 * fast in a process that has not warmed up (a command's whole life), with less garbage left behind.
 *
 * It reads data exactly as js-yaml reads it with the YAML 1.2 core schema (the last of repeated keys wins, dates stay
 * strings), and knows where its subset ends: anchors, aliases, tags, complex keys, directives, several documents,
 * tabs in indentation, and whatever else it does not settle itself make it give the text up (`undefined`) to js-yaml
 * and, after it, the `yaml` package, which decide and report. A syntax error is never this reader's to report.
 */

import {decodedUtf8, latin1Text} from './latin1-bytes.js'

/** Thrown to give the text up to the general parsers. */
const unsupported = new Error('outside the block YAML subset')

const TAB = 9
const NEWLINE = 10
const SPACE = 32
const DOUBLE_QUOTE = 34
const HASH = 35
const SINGLE_QUOTE = 39
const DASH = 45
const COLON = 58
const QUESTION = 63
const BRACKET = 91
const BACKSLASH = 92
const BRACE = 123

/**
 * What YAML does not allow in a text, as js-yaml tells it: control characters (but tab and line breaks), the
 * non-characters U+FFFE and U+FFFF, and surrogates without their pair.
 */
const nonPrintable = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/
/**
 * Any character that `nonPrintable` could be about, surrogates paired or not: one character class, which V8 scans
 * several times faster than the alternation above (Stripe's 3 MB YAML: ~4 against ~12 ms). Texts without emoji or
 * control characters, most of them, skip the exact check.
 */
const maybeNonPrintable = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFFFE\uFFFF]/

/** Nesting deeper than this is js-yaml's to judge (it refuses more than 100 levels). */
const maxDepth = 64

/** The data of `source`, or undefined when it is not in the subset this reader settles. */
export function readBlockYaml(source: string): unknown {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source
  if (maybeNonPrintable.test(text) && nonPrintable.test(text)) return undefined
  // A text with a character past Latin-1 (a `’` in one description) is two bytes per character in V8, and so is
  // every string cut from it: Stripe's 3 MB held 13 MB where its JSON holds 4. The reader then reads the UTF-8
  // bytes as Latin-1 characters instead (YAML's syntax is all ASCII, which UTF-8 keeps as it is), and decodes only
  // the strings that have bytes past ASCII.
  const wide = /[^\x00-\xff]/.test(text)
  return read(wide ? Buffer.from(text, 'utf8').toString('latin1') : text, wide ? fromUtf8 : same)
}

/**
 * What YAML does not allow, as `nonPrintable` says it, in UTF-8 bytes read as Latin-1 (`readBlockYamlBytes`): the
 * control characters of ASCII, those of Latin-1's upper half (U+0080–U+009F but U+0085, `C2 80`…`C2 9F`), and U+FFFE
 * and U+FFFF (`EF BF BE`, `EF BF BF`). Valid UTF-8 holds no surrogate.
 */
const nonPrintableUtf8 = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]|\xC2[\x80-\x84\x86-\x9F]|\xEF\xBF[\xBE\xBF]/y
/**
 * The first byte of each pattern of `nonPrintableUtf8`: one character class, which V8 scans about twice as fast as
 * the alternation (Stripe's 3 MB YAML, in fresh processes: ~7 against ~15 ms); the few places it stops at (18 in
 * Stripe, `C2` and `EF` leading allowed characters) are then checked exactly.
 */
const maybeNonPrintableUtf8 = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\xC2\xEF]/g

/** Whether the bytes of `text` (UTF-8 read as Latin-1) hold a character YAML forbids. */
function hasNonPrintableUtf8(text: string): boolean {
  maybeNonPrintableUtf8.lastIndex = 0
  for (let found = maybeNonPrintableUtf8.exec(text); found; found = maybeNonPrintableUtf8.exec(text)) {
    nonPrintableUtf8.lastIndex = found.index
    if (nonPrintableUtf8.test(text)) return true
  }
  return false
}

/**
 * `readBlockYaml` of a source given as its bytes: valid UTF-8 is read as Latin-1, each byte one character, without
 * decoding the text first and encoding it again (a 3 MB text past Latin-1 is 6 MB of two-byte string, scanned for
 * what YAML forbids, then encoded back). Undefined also for bytes that are not UTF-8: a decoder replaces bad bytes
 * with U+FFFD, and the text path keeps doing so.
 */
export function readBlockYamlBytes(source: Uint8Array): unknown {
  const bytes = latin1Text(source)
  if (bytes === undefined) return undefined
  const {text, ascii} = bytes
  // A second byte order mark is js-yaml's to judge.
  if (text.startsWith('\xEF\xBB\xBF') || hasNonPrintableUtf8(text)) return undefined
  return read(text, ascii ? same : fromUtf8)
}

/** The reader over `text` (see `BlockReader`), or undefined when the text is not in its subset. */
function read(source: string, decode: (text: string) => string): unknown {
  let text = source
  // Line breaks written as CR LF (files from Windows) are line breaks as LF is: YAML reads both as one `\n`. A CR
  // alone is left to js-yaml.
  if (text.includes('\r')) {
    text = text.replaceAll('\r\n', '\n')
    if (text.includes('\r')) return undefined
  }
  try {
    return new BlockReader(text, decode).document()
  } catch (error) {
    // Nesting deeper than the stack (`- - - …` ten thousand times) is js-yaml's and the `yaml` package's to refuse,
    // with a place.
    if (error === unsupported || error instanceof RangeError) return undefined
    throw error
  }
}

/** A string read from the UTF-8 bytes as Latin-1, decoded. */
function fromUtf8(text: string): string {
  return /[\x80-\xff]/.test(text) ? decodedUtf8(text) : text
}

function same(text: string): string {
  return text
}

/** A space or a tab. */
function isBlank(code: number): boolean {
  return code === SPACE || code === TAB
}

/** A space, a tab, a line break or the end of the text: what must follow an indicator (`-`, `:`, `?`). */
function isSeparator(code: number): boolean {
  return code === SPACE || code === NEWLINE || code === TAB || Number.isNaN(code)
}

/** Whether a block sequence entry (`-` and a separator) starts at `at`. */
function isDash(text: string, at: number): boolean {
  return text.charCodeAt(at) === DASH && isSeparator(text.charCodeAt(at + 1))
}

/** The index of the first character at or after `at` that is not a space or a tab. */
function skipBlanks(text: string, at: number): number {
  while (isBlank(text.charCodeAt(at))) at++
  return at
}

/**
 * Where one character next occurs at or after a position, remembered: the reader moves forward through the text and
 * asks again about the same line, so each search starts where the last one left off only when it must.
 */
class NextIndex {
  /** The character does not occur from `searched` up to `found` (the text's length when it does not occur again). */
  private searched = 1
  private found = 0

  constructor(
    private readonly text: string,
    private readonly character: string
  ) {}

  from(at: number): number {
    if (at >= this.searched && at <= this.found) return this.found
    const found = this.text.indexOf(this.character, at)
    this.searched = at
    return (this.found = found === -1 ? this.text.length : found)
  }
}

class BlockReader {
  /** The start of the line the reader is on. */
  private line = 0
  /** Whether the document's content has begun: a `---` after that starts another document. */
  private begun = false

  private readonly colons: NextIndex
  private readonly hashes: NextIndex
  private readonly breaks: NextIndex
  /** Whether the last plain segment read ended at a comment. */
  private commented = false
  /** How many collections the reader is inside. */
  private depth = 0

  /**
   * @param text the YAML
   * @param decode turns a string cut from `text` into the string it stands for
   */
  constructor(
    private readonly text: string,
    private readonly decode: (text: string) => string
  ) {
    this.colons = new NextIndex(text, ':')
    this.hashes = new NextIndex(text, '#')
    this.breaks = new NextIndex(text, '\n')
  }

  private nextColon(at: number): number {
    return this.colons.from(at)
  }

  private nextHash(at: number): number {
    return this.hashes.from(at)
  }

  /** The end (index of its line break, or the text's length) of the line that holds `at`. */
  private lineEnd(at: number): number {
    return this.breaks.from(at)
  }

  /** Where a comment (a `#` after a blank) starts between `from` and `to`, or `to`. */
  private commentIn(from: number, to: number): number {
    let hash = this.nextHash(from)
    while (hash < to) {
      if (isBlank(this.text.charCodeAt(hash - 1))) return hash
      hash = this.nextHash(hash + 1)
    }
    return to
  }

  /** Where the first `:` followed by a blank or a line break is between `from` and `to`, or -1. */
  private indicatorColon(from: number, to: number): number {
    let colon = this.nextColon(from)
    while (colon < to) {
      if (isSeparator(this.text.charCodeAt(colon + 1))) return colon
      colon = this.nextColon(colon + 1)
    }
    return -1
  }

  /**
   * A plain scalar's text from `from` to the line's end at `to`: before a comment, without trailing blanks. A `: `
   * in it is a mapping where a scalar was expected: an error, which js-yaml reports.
   */
  private plainSegment(from: number, to: number): string {
    const stop = this.commentIn(from, to)
    this.commented = stop < to
    if (this.indicatorColon(from, stop) !== -1) throw unsupported
    return trimBlanksEnd(this.text.slice(from, stop))
  }

  document(): unknown {
    const {text} = this
    let indent = this.nextContent()
    if (indent === 0 && text.startsWith('---', this.line)) {
      if (!this.isLineDoneFrom(this.line + 3) || !isSeparator(text.charCodeAt(this.line + 3))) throw unsupported
      this.line = this.lineEnd(this.line) + 1
      indent = this.nextContent()
    }
    this.begun = true
    // An empty document, or a directive (`%YAML`): js-yaml's to read.
    if (indent === -1 || text.charCodeAt(this.line) === 37) throw unsupported
    const value = this.blockNode(this.line + indent, -1)
    if (this.nextContent() !== -1) throw unsupported
    return value
  }

  /** The number of spaces at the start of the line starting at `start`. */
  private indentOf(start: number): number {
    const {text} = this
    let at = start
    while (text.charCodeAt(at) === SPACE) at++
    return at - start
  }

  /** Whether the rest of the line from `at` is blanks, then optionally a comment. */
  private isLineDoneFrom(at: number): boolean {
    const next = skipBlanks(this.text, at)
    const code = this.text.charCodeAt(next)
    return code === NEWLINE || Number.isNaN(code) || (code === HASH && (next === at ? isBlank(this.text.charCodeAt(at - 1)) : true))
  }

  /**
   * Moves to the next line that holds content (past blank lines and comment lines) and returns its indentation, or
   * -1 at the end of the text.
   */
  private nextContent(): number {
    const {text} = this
    while (this.line < text.length) {
      const indent = this.indentOf(this.line)
      const first = skipBlanks(text, this.line + indent)
      const code = text.charCodeAt(first)
      if (code === NEWLINE) {
        this.line = first + 1
        continue
      }
      if (Number.isNaN(code)) break
      if (code === HASH) {
        this.line = this.lineEnd(first) + 1
        continue
      }
      // A tab in the indentation is an error; document markers end or start documents.
      if (first !== this.line + indent) throw unsupported
      if (indent === 0 && (text.startsWith('...', this.line) || (this.begun && text.startsWith('---', this.line)))) throw unsupported
      return indent
    }
    this.line = text.length
    return -1
  }

  /** The node whose content starts at `at` on the current line, in a block whose parent is indented `parent`. */
  private blockNode(at: number, parent: number): unknown {
    const {text} = this
    const column = at - this.line
    if (this.depth++ > maxDepth) throw unsupported
    const value = isDash(text, at) ? this.sequence(column) : this.keyEnd(at) !== -1 ? this.mapping(column) : this.inlineValue(at, parent)
    this.depth--
    return value
  }

  /**
   * The index just past the `:` that ends a mapping key starting at `at`, or -1 when the line holds no key there.
   * Keys are plain or quoted on one line.
   */
  private keyEnd(at: number): number {
    const {text} = this
    const first = text.charCodeAt(at)
    if (first === DOUBLE_QUOTE || first === SINGLE_QUOTE) {
      const close = quotedEnd(text, at)
      if (close === -1 || close > this.lineEnd(at)) return -1
      const after = skipBlanks(text, close)
      return text.charCodeAt(after) === COLON && isSeparator(text.charCodeAt(after + 1)) ? after + 1 : -1
    }
    if (first === BRACKET || first === BRACE) return -1
    const end = this.lineEnd(at)
    const colon = this.indicatorColon(at, end)
    return colon === -1 || this.commentIn(at, colon) < colon ? -1 : colon + 1
  }

  private mapping(column: number): Record<string, unknown> {
    const {text} = this
    const result: Record<string, unknown> = {}
    for (;;) {
      const at = this.line + column
      const end = this.keyEnd(at)
      if (end === -1) throw unsupported
      const key = this.key(at, end - 1)
      const valueAt = skipBlanks(text, end)
      const code = text.charCodeAt(valueAt)
      const value = code === NEWLINE || Number.isNaN(code) || code === HASH ? this.below(column, true) : this.inlineValue(valueAt, column)
      if (key === '__proto__') Object.defineProperty(result, key, {configurable: true, enumerable: true, writable: true, value})
      else result[key] = value
      const indent = this.nextContent()
      if (indent < column) return result
      if (indent > column) throw unsupported
    }
  }

  /** The key from `at` to the `:` at `colon`, as js-yaml makes it: the scalar's value as a string. */
  private key(at: number, colon: number): string {
    const {text} = this
    const first = text.charCodeAt(at)
    if (first === DOUBLE_QUOTE || first === SINGLE_QUOTE) return quotedValue(text, at, quotedEnd(text, at), this.decode)
    if (!startsPlain(text, at)) throw unsupported
    const raw = trimBlanksEnd(text.slice(at, colon))
    // `<<` merges in the default schema, not in the core schema; whoever writes it means a merge.
    if (raw === '<<') throw unsupported
    return String(plainValue(this.decode(raw)))
  }

  private sequence(column: number): unknown[] {
    const {text} = this
    const result: unknown[] = []
    for (;;) {
      const at = skipBlanks(text, this.line + column + 1)
      // A tab after the dash indents what follows, which YAML forbids.
      for (let blank = this.line + column + 1; blank < at; blank++) if (text.charCodeAt(blank) === TAB) throw unsupported
      const code = text.charCodeAt(at)
      const empty = code === NEWLINE || Number.isNaN(code) || code === HASH
      // An empty entry of a sequence that starts inside another's (`- -`): js-yaml then reads the outer sequence's
      // next entries into the inner one, which this reader does not copy.
      if (empty && this.indentOf(this.line) !== column) throw unsupported
      result.push(empty ? this.below(column, false) : this.blockNode(at, column))
      const indent = this.nextContent()
      if (indent < column || (indent === column && !isDash(text, this.line + column))) return exactly(result)
      if (indent > column) throw unsupported
    }
  }

  /**
   * The value on the lines below an indicator (`key:` or `-`) with nothing after it on its line: a node indented
   * deeper than `column`, a sequence at `column` itself under a key, else null.
   */
  private below(column: number, isKey: boolean): unknown {
    this.line = this.lineEnd(this.line) + 1
    const indent = this.nextContent()
    if (indent > column) return this.blockNode(this.line + indent, column)
    if (indent === column && isKey && isDash(this.text, this.line + indent)) return this.sequence(column)
    return null
  }

  /** A value that starts at `at` after its key or dash: a scalar or a flow collection. Leaves the reader past it. */
  private inlineValue(at: number, parent: number): unknown {
    const {text} = this
    const code = text.charCodeAt(at)
    let value: unknown
    let end: number
    if (code === DOUBLE_QUOTE || code === SINGLE_QUOTE) {
      end = quotedEnd(text, at)
      if (end === -1) throw unsupported
      value = quotedValue(text, at, end, this.decode)
    } else if (code === BRACKET || code === BRACE) {
      const flow = new FlowReader(text, at, this.decode, this.depth)
      value = flow.value()
      end = flow.at
    } else if (code === 124 || code === 62) {
      if (parent < 0) throw unsupported
      return this.blockScalar(at, parent)
    } else {
      if (!startsPlain(text, at)) throw unsupported
      return this.plainScalar(at, parent)
    }
    // A document marker at the start of a line ends the document, even inside quotes or brackets (js-yaml refuses
    // such a scalar or collection).
    if (end > this.lineEnd(at) && /\n(?:---|\.\.\.)/.test(text.slice(at, end))) throw unsupported
    if (!this.isLineDoneFrom(end)) throw unsupported
    this.line = this.lineEnd(end) + 1
    return value
  }

  /** A plain scalar from `at`, folded with the lines below it that are indented deeper than `parent`. */
  private plainScalar(at: number, parent: number): unknown {
    const {text} = this
    let end = this.lineEnd(at)
    // The lines of a folded scalar are joined once: a string built with `+=` is a tree of pieces until it is read,
    // which for Stripe's descriptions held ~3 MB more than the flat text.
    const parts = [this.plainSegment(at, end)]
    let breaks = 0
    let next = end + 1
    this.line = next
    while (next < text.length && !this.commented) {
      const indent = this.indentOf(next)
      const first = skipBlanks(text, next + indent)
      const code = text.charCodeAt(first)
      if (code === NEWLINE) {
        breaks++
        next = first + 1
        continue
      }
      if (indent <= parent || code === HASH || Number.isNaN(code)) break
      if (parent < 0) throw unsupported
      end = this.lineEnd(first)
      parts.push(breaks === 0 ? ' ' : '\n'.repeat(breaks), this.plainSegment(first, end))
      breaks = 0
      next = end + 1
      this.line = next
    }
    return plainValue(this.decode(parts.length === 1 ? parts[0]! : parts.join('')))
  }

  /** A literal (`|`) or folded (`>`) block scalar whose header starts at `at`, under a parent indented `parent`. */
  private blockScalar(at: number, parent: number): string {
    const {text} = this
    const folded = text.charCodeAt(at) === 62
    // The header: a chomping indicator (`-` strip, `+` keep) and an indentation indicator (`|2`: the content is
    // indented two more than its parent), either, both, in either order.
    let chomping = 0
    let indicated = 0
    let header = at + 1
    for (let code = text.charCodeAt(header); header <= at + 2; code = text.charCodeAt(++header)) {
      if ((code === 43 || code === DASH) && chomping === 0) chomping = code
      else if (code >= 49 && code <= 57 && indicated === 0) indicated = code - 48
      else break
    }
    const keep = chomping === 43
    const strip = chomping === DASH
    if (!isSeparator(text.charCodeAt(header)) || !this.isLineDoneFrom(header)) throw unsupported
    let next = this.lineEnd(at) + 1
    const parts: string[] = []
    let indent = indicated > 0 ? parent + indicated : -1
    let empty = 0
    let read = false
    let moreIndented = false
    // The most spaces on a blank line before the first content: more than the content's indentation is an error.
    let leadingSpaces = 0
    while (next < text.length) {
      const spaces = this.indentOf(next)
      const code = text.charCodeAt(next + spaces)
      if ((code === NEWLINE || Number.isNaN(code)) && (indent === -1 || spaces <= indent)) {
        if (indent === -1) leadingSpaces = Math.max(leadingSpaces, spaces)
        empty++
        next += spaces + 1
        continue
      }
      if (indent === -1) {
        if (spaces <= parent) break
        indent = spaces
        if (leadingSpaces > indent) throw unsupported
      } else if (spaces < indent) {
        break
      }
      const end = this.lineEnd(next)
      const line = text.slice(next + indent, end)
      // Line breaks as js-yaml keeps them: all of them in a literal scalar; in a folded one, a single break between
      // two lines is a space, but not next to a more-indented line.
      if (!folded) {
        parts.push('\n'.repeat(read ? 1 + empty : empty))
      } else if (isBlank(line.charCodeAt(0))) {
        parts.push('\n'.repeat(read ? 1 + empty : empty))
        moreIndented = true
      } else if (moreIndented) {
        parts.push('\n'.repeat(1 + empty))
        moreIndented = false
      } else if (empty > 0) {
        parts.push('\n'.repeat(empty))
      } else if (read) {
        parts.push(' ')
      }
      parts.push(line)
      read = true
      empty = 0
      next = end + 1
    }
    this.line = Math.min(next, text.length)
    if (keep) parts.push('\n'.repeat(read ? 1 + empty : empty))
    else if (!strip && read) parts.push('\n')
    return this.decode(parts.join(''))
  }
}

/**
 * `items` in an array of its own length: an array grown by `push` keeps room for more (17 slots for one item), which
 * the thousands of short lists of a description (`required`, `enum`, `anyOf`) would hold (~0.5 MB on Stripe's).
 */
function exactly(items: unknown[]): unknown[] {
  return items.slice()
}

/** Whether a plain scalar can start at `at` in block context: no indicator, or `-`, `?`, `:` before a non-space. */
function startsPlain(text: string, at: number): boolean {
  const code = text.charCodeAt(at)
  switch (code) {
    case DASH:
    case QUESTION:
    case COLON:
      return !isSeparator(text.charCodeAt(at + 1))
    case 33: // ! tag
    case 37: // % directive
    case 38: // & anchor
    case 42: // * alias
    case 44: // ,
    case 64: // @ reserved
    case 96: // ` reserved
    case 93: // ]
    case 125: // }
    case BRACKET:
    case BRACE:
    case 124: // | literal
    case 62: // > folded
    case DOUBLE_QUOTE:
    case SINGLE_QUOTE:
    case HASH:
      return false
    default:
      return true
  }
}

/** The index just past the closing quote of the quoted scalar that starts at `at`, or -1. */
function quotedEnd(text: string, at: number): number {
  const quote = text[at]!
  let close = text.indexOf(quote, at + 1)
  if (quote === "'") {
    while (close !== -1 && text.charCodeAt(close + 1) === SINGLE_QUOTE) close = text.indexOf(quote, close + 2)
    return close === -1 ? -1 : close + 1
  }
  while (close !== -1) {
    let backslashes = 0
    while (text.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return close + 1
    close = text.indexOf(quote, close + 1)
  }
  return -1
}

/** The value of the quoted scalar from `at` to `end` (just past its closing quote). */
function quotedValue(text: string, at: number, end: number, decode: (text: string) => string): string {
  // Decoded before its escapes are read: `\xe9` is a character, not a byte of UTF-8.
  const raw = decode(text.slice(at + 1, end - 1))
  if (text.charCodeAt(at) === SINGLE_QUOTE) return foldQuotedLines(raw).replaceAll("''", "'")
  return raw.includes('\\') ? unescapeDoubleQuoted(raw) : foldQuotedLines(raw)
}

/** YAML's one-character escapes in double-quoted scalars. */
const escapes: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029'
}

/** The lengths of the hexadecimal escapes' digits. */
const hexEscapes: Record<string, number> = {x: 2, u: 4, U: 8}

/**
 * A double-quoted scalar's text with escapes: escaped characters stay as they are where line folding trims
 * blanks, and an escaped line break joins its lines without a space.
 */
function unescapeDoubleQuoted(raw: string): string {
  let result = ''
  let segment = 0
  let at = 0
  while (at < raw.length) {
    const code = raw.charCodeAt(at)
    if (code === BACKSLASH) {
      result += raw.slice(segment, at)
      const next = raw[at + 1]!
      if (next === '\n') {
        // An escaped line break joins the lines: what follows it, blank lines too, is skipped.
        at += 2
        while (isBlank(raw.charCodeAt(at)) || raw.charCodeAt(at) === NEWLINE) at++
      } else if (next in hexEscapes) {
        const digits = raw.slice(at + 2, at + 2 + hexEscapes[next]!)
        if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== hexEscapes[next]) throw unsupported
        result += String.fromCodePoint(Number.parseInt(digits, 16))
        at += 2 + digits.length
      } else if (Object.hasOwn(escapes, next)) {
        result += escapes[next]
        at += 2
      } else {
        throw unsupported
      }
      segment = at
    } else if (code === NEWLINE) {
      result += trimBlanksEnd(raw.slice(segment, at))
      let breaks = 0
      at = skipBlanks(raw, at + 1)
      while (raw.charCodeAt(at) === NEWLINE) {
        breaks++
        at = skipBlanks(raw, at + 1)
      }
      result += breaks === 0 ? ' ' : '\n'.repeat(breaks)
      segment = at
    } else {
      at++
    }
  }
  return result + raw.slice(segment)
}

/** Line folding in a quoted scalar: a single line break is a space, each blank line a line break. */
function foldQuotedLines(raw: string): string {
  if (!raw.includes('\n')) return raw
  const lines = raw.split('\n')
  const parts = [trimBlanksEnd(lines[0]!)]
  let breaks = 0
  for (let index = 1; index < lines.length; index++) {
    const last = index === lines.length - 1
    const line = trimBlanksStart(last ? lines[index]! : trimBlanksEnd(lines[index]!))
    if (line === '' && !last) {
      breaks++
      continue
    }
    parts.push(breaks === 0 ? ' ' : '\n'.repeat(breaks), line)
    breaks = 0
  }
  return parts.join('')
}

function trimBlanksEnd(text: string): string {
  let end = text.length
  while (end > 0 && isBlank(text.charCodeAt(end - 1))) end--
  return end === text.length ? text : text.slice(0, end)
}

function trimBlanksStart(text: string): string {
  const start = skipBlanks(text, 0)
  return start === 0 ? text : text.slice(start)
}

/** A flow collection (`[a, b]`, `{a: 1}`), which may span lines; `at` is left past its end. */
class FlowReader {
  constructor(
    private readonly text: string,
    public at: number,
    private readonly decode: (text: string) => string,
    /** How many collections the flow collection is inside. */
    private depth: number
  ) {}

  value(): unknown {
    this.skipSpace()
    const code = this.text.charCodeAt(this.at)
    if (code === BRACKET || code === BRACE) {
      if (this.depth++ > maxDepth) throw unsupported
      const collection = code === BRACKET ? this.sequence() : this.mapping()
      this.depth--
      return collection
    }
    if (code === DOUBLE_QUOTE || code === SINGLE_QUOTE) return this.quoted()
    return plainValue(this.decode(this.plain()))
  }

  private skipSpace(): void {
    const {text} = this
    let code = text.charCodeAt(this.at)
    while (code === SPACE || code === NEWLINE || code === TAB) code = text.charCodeAt(++this.at)
    if (code === HASH) throw unsupported
  }

  /** Moves past a `,` or stops at `close`; anything else is not settled here. */
  private separator(close: number): boolean {
    this.skipSpace()
    const code = this.text.charCodeAt(this.at)
    if (code === close) return false
    if (code !== 44) throw unsupported
    this.at++
    return true
  }

  private sequence(): unknown[] {
    const result: unknown[] = []
    this.at++
    this.skipSpace()
    while (this.text.charCodeAt(this.at) !== 93) {
      result.push(this.value())
      this.skipSpace()
      // `[a: b]` is a mapping inside a sequence: not settled here.
      if (this.text.charCodeAt(this.at) === COLON) throw unsupported
      if (!this.separator(93)) break
      this.skipSpace()
    }
    this.at++
    return exactly(result)
  }

  private mapping(): Record<string, unknown> {
    const {text} = this
    const result: Record<string, unknown> = {}
    this.at++
    this.skipSpace()
    while (text.charCodeAt(this.at) !== 125) {
      const first = text.charCodeAt(this.at)
      const keyAt = this.at
      const key = first === DOUBLE_QUOTE || first === SINGLE_QUOTE ? this.quoted() : String(plainValue(this.decode(this.plain())))
      if (key === '__proto__' || key === '<<') throw unsupported
      // A key is on one line, and so is the `:` after it (js-yaml refuses `{"a"\n: b}`).
      if (text.slice(keyAt, this.at).includes('\n')) throw unsupported
      this.at = skipBlanks(text, this.at)
      if (text.charCodeAt(this.at) === NEWLINE) {
        this.skipSpace()
        if (text.charCodeAt(this.at) === COLON) throw unsupported
      }
      let value: unknown = null
      if (text.charCodeAt(this.at) === COLON) {
        this.at++
        this.skipSpace()
        const code = text.charCodeAt(this.at)
        if (code !== 44 && code !== 125) value = this.value()
      }
      result[key] = value
      if (!this.separator(125)) break
      this.skipSpace()
    }
    this.at++
    return result
  }

  private quoted(): string {
    const end = quotedEnd(this.text, this.at)
    if (end === -1) throw unsupported
    const value = quotedValue(this.text, this.at, end, this.decode)
    this.at = end
    return value
  }

  /** A plain scalar inside a flow collection, on one line: up to a `,`, a bracket, or a `:` before a blank. */
  private plain(): string {
    const {text} = this
    const start = this.at
    const first = text.charCodeAt(start)
    if (!startsPlain(text, start) || ((first === DASH || first === QUESTION || first === COLON) && !/[\w/.]/.test(text[start + 1] ?? ''))) throw unsupported
    let at = start
    for (;;) {
      const code = text.charCodeAt(at)
      if (code === 44 || code === BRACKET || code === 93 || code === BRACE || code === 125 || Number.isNaN(code)) break
      if (code === NEWLINE || (code === HASH && isBlank(text.charCodeAt(at - 1)))) throw unsupported
      if (code === COLON) {
        const after = text.charCodeAt(at + 1)
        if (isSeparator(after) || after === 44 || after === 93 || after === 125 || after === BRACKET || after === BRACE) break
      }
      at++
    }
    this.at = at
    const value = trimBlanksEnd(text.slice(start, at))
    if (value === '') throw unsupported
    return value
  }
}

const integerPattern = /^[-+]?(?:0b[01]+|0x[0-9a-fA-F]+|0o[0-7]+|[0-9]+)$/
const floatPattern = /^(?:[-+]?[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9]+(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/

/** A plain scalar's value by the YAML 1.2 core schema, as js-yaml resolves it: null, boolean, integer, float or string. */
export function plainValue(text: string): unknown {
  const first = text.charCodeAt(0)
  // Most plain scalars are words: only these first characters can start anything else.
  const digit = first >= 48 && first <= 57
  if (!(digit || first === 43 || first === 45 || first === 46 || first === 126 || first === 110 || first === 78 || first === 116 || first === 84 || first === 102 || first === 70)) {
    return text
  }
  switch (text) {
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return null
    case 'true':
    case 'True':
    case 'TRUE':
      return true
    case 'false':
    case 'False':
    case 'FALSE':
      return false
  }
  if (integerPattern.test(text)) {
    const value = integerValue(text)
    if (Number.isFinite(value)) return value
  }
  if (floatPattern.test(text) && (Number.isFinite(Number.parseFloat(text)) || /inf|nan/i.test(text))) {
    const signed = text.charCodeAt(0) === 45 || text.charCodeAt(0) === 43
    const sign = text.charCodeAt(0) === 45 ? -1 : 1
    const magnitude = (signed ? text.slice(1) : text).toLowerCase()
    if (magnitude === '.inf') return sign * Number.POSITIVE_INFINITY
    if (magnitude === '.nan') return Number.NaN
    return sign * Number.parseFloat(magnitude)
  }
  return text
}

/** An integer's value as js-yaml computes it (`0b`, `0x`, `0o` prefixes after an optional sign). */
function integerValue(text: string): number {
  const signed = text.charCodeAt(0) === 45 || text.charCodeAt(0) === 43
  const sign = text.charCodeAt(0) === 45 ? -1 : 1
  const digits = signed ? text.slice(1) : text
  if (digits === '0') return 0
  if (digits.startsWith('0b')) return sign * Number.parseInt(digits.slice(2), 2)
  if (digits.startsWith('0x')) return sign * Number.parseInt(digits.slice(2), 16)
  if (digits.startsWith('0o')) return sign * Number.parseInt(digits.slice(2), 8)
  return sign * Number.parseInt(digits, 10)
}
