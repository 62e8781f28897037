/**
 * UTF-8 files read as Latin-1, one character a byte, instead of decoded: the fast readers (JSON in plugins/parse.ts,
 * block YAML in block-yaml.ts) find their syntax, which is ASCII, in the bytes as they stand, and decode only what
 * holds characters past ASCII. Decoded whole, one `’` makes a 4 MB description an 8 MB two-byte string.
 */
import {isAscii, isUtf8} from 'node:buffer'

/**
 * The bytes of `source` as a Latin-1 text, a byte order mark dropped as decoders drop it, and whether they are all
 * ASCII; undefined for bytes that are not UTF-8 (a decoder replaces those with U+FFFD, which the callers leave to it).
 */
export function latin1Text(source: Uint8Array): {text: string; ascii: boolean} | undefined {
  const bytes = Buffer.isBuffer(source) ? source : Buffer.from(source.buffer, source.byteOffset, source.byteLength)
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes
  const ascii = isAscii(body)
  if (!ascii && !isUtf8(body)) return undefined
  return {text: body.toString('latin1'), ascii}
}

/** The characters that UTF-8 bytes read as Latin-1 (see {@link latin1Text}) stand for. */
export function decodedUtf8(latin1: string): string {
  return Buffer.from(latin1, 'latin1').toString('utf8')
}
