/**
 * Request bodies a client compressed (`Content-Encoding: gzip`, `deflate` or `br`: Go's and many SDKs' HTTP clients
 * can send them) are read decompressed, as fastify's `preParsing` hook. fastify's `bodyLimit` then holds for the
 * decompressed body, so a small body that inflates to gigabytes stops at the limit (413), and for the bytes sent.
 * A body that is not what its encoding says is a 400; any other encoding a 415 that lists the accepted ones.
 */
import {PassThrough, type Readable} from 'node:stream'
import {createBrotliDecompress, createGunzip, createInflate} from 'node:zlib'
import type {FastifyRequest} from 'fastify'
import {HttpProblem} from './problem.js'

const decoders: Record<string, () => NodeJS.ReadWriteStream> = {gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress}

/** The `Accept-Encoding` a 415 answers with: what a client may send instead. */
const acceptedEncodings = 'gzip, deflate, br'

/**
 * `payload` decompressed as its `Content-Encoding` says (fastify's `receivedEncodedLength` counts the bytes sent). A
 * callback hook: most requests have nothing to decode, and pay no promise for it.
 */
export function decodedBody(request: FastifyRequest, _reply: unknown, payload: Readable, done: (error: Error | null, body?: Readable) => void): void {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase()
  if (!encoding || encoding === 'identity' || !hasBody(request)) return done(null, payload)
  const decoder = decoders[encoding]?.()
  if (!decoder) return done(new HttpProblem(415, `Unsupported content encoding \`${encoding}\`; send the body as is or as ${acceptedEncodings}`, {headers: {'accept-encoding': acceptedEncodings}}))
  // What fastify reads: the decoder's output, ended by a 400 when the bytes are not what the encoding says.
  const body = Object.assign(new PassThrough(), {receivedEncodedLength: 0})
  payload.on('data', (chunk: Buffer) => (body.receivedEncodedLength += chunk.length))
  payload.on('error', (error) => body.destroy(error))
  decoder.on('error', () => body.destroy(new HttpProblem(400, `The body is not valid ${encoding} (\`Content-Encoding: ${encoding}\`)`)))
  payload.pipe(decoder).pipe(body)
  done(null, body)
}

/** HTTP/1.1: a request has a body when it says how long (not 0) or that it comes in chunks. */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length']
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
}
