/**
 * What a parser says of a file that is not UTF-8, the encoding JSON, YAML and GraphQL files are read in (the OpenAPI,
 * AsyncAPI and catalogue parser, and the GraphQL one).
 */
import type {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {fatalFinding} from '../../pipeline/rule.js'

/**
 * Bytes that are not UTF-8 (a Latin-1 `é`, a UTF-16 file) decode to U+FFFD, which would reach the catalogue, its page
 * and its sentences in place of the text: an error at the first of them (returned, for a parser that stops there), and
 * the rest of the file read as decoded.
 */
export function notUtf8(text: string, bytes: Uint8Array, file: VFile): VFileMessage {
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)
  const before = text.slice(0, Math.max(0, text.indexOf('\ufffd')))
  const line = before.split('\n').length
  const column = before.length - before.lastIndexOf('\n')
  const reason = utf16 ? 'The file is UTF-16; save it as UTF-8, as JSON, YAML and GraphQL files are read' : 'The file is not UTF-8 here (Latin-1 or another encoding?); save it as UTF-8, or its text reaches the catalogue as �'
  return fatalFinding(file, reason, 'parse', utf16 ? {line: 1, column: 1} : {line, column})
}
