/**
 * Problems plugin: every error the server answers is RFC 9457 `application/problem+json`, unknown routes included
 * (404, or 405 with `Allow` for a path served with other methods), and only JSON bodies are accepted (fastify would
 * otherwise take text/plain). A request with no body at all is no body whatever its content type, as many clients
 * send one on bodiless writes (favorite, follow, delete); a JSON body goes through fastify's own JSON parser, with
 * its prototype-poisoning guard; a compressed one is decompressed first (body-encoding.ts). Errors fastify meets
 * before any route (a bad URL, an over-long path parameter) go through {@link frameworkErrors}, a constructor option.
 */
import {isUtf8} from 'node:buffer'
import type {FastifyError, FastifyReply, FastifyRequest} from 'fastify'
import fp from 'fastify-plugin'
import {decodedBody} from '../http/body-encoding.js'
import {errorHandler, sendProblem, type ProblemFormatter} from '../http/errors.js'
import {HttpProblem, type ProblemItem} from '../http/problem.js'

export const problemsPlugin = fp<{development: boolean; formatProblem?: ProblemFormatter}>(
  async (app, {development, formatProblem}) => {
    if (formatProblem) app.decorate('formatProblem', formatProblem)
    app.removeContentTypeParser('text/plain')
    const parseJson = app.getDefaultJsonParser('error', 'error')
    // JSON, and the JSON-based types clients send (`application/merge-patch+json`, `application/vnd.api+json`), as
    // UTF-8: a body in another charset would be read wrong (`café` sent as Latin-1), so it is refused, and so are bytes
    // that are not UTF-8 whatever the header says (decoded, each would be stored as U+FFFD).
    const jsonBody = (request: FastifyRequest, bytes: string | Buffer, done: (error: Error | null, value?: unknown) => void) => {
      if (bytes.length === 0) return done(null, undefined)
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]
      if (charset && !/^utf-?8$/i.test(charset)) return done(new HttpProblem(415, `Unsupported charset \`${charset}\`; send JSON in UTF-8`))
      if (typeof bytes !== 'string' && !isUtf8(bytes)) return done(new HttpProblem(400, 'The body is not valid UTF-8, as JSON must be'))
      const body = bytes.toString()
      const parsed = (error: Error | null, value?: unknown) => {
        // fastify refuses a `__proto__` key (prototype poisoning) as if the JSON were broken: JSON that parses is a body
        // with a key that cannot be set.
        const poisoned = error && (error as {code?: string}).code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? poisonedKey(body) : undefined
        if (poisoned) return done(new HttpProblem(422, '1 field(s) failed validation', {errors: [{pointer: poisoned.pointer, code: 'unknown-field', detail: `\`${poisoned.key}\` cannot be set`}]}))
        if (error) return done(error)
        // No database keeps a NUL character in text (PostgreSQL refuses it, SQLite cuts the statement there), nor a
        // number past a double's range, which JSON.parse reads as Infinity (`1e400`); the walk runs only when the text
        // may hold either.
        const suspect = (body.includes('\\u0000') && escapedNul.test(body)) || hugeNumber.test(body)
        done(suspect ? (unstorableProblem(value) ?? null) : null, value)
      }
      return parseJson(request, body, parsed)
    }
    app.addHook('preParsing', decodedBody)
    app.addContentTypeParser('application/json', {parseAs: 'buffer'}, jsonBody)
    app.addContentTypeParser(/^application\/[\w.-]+\+json$/, {parseAs: 'buffer'}, jsonBody)
    // A JSON Patch (RFC 6902) is a list of operations, not fields: an update here merges the fields it is sent, as
    // JSON or as a JSON merge patch (RFC 7396), so a JSON Patch is a patch format the server does not take (RFC 5789):
    // 415, with the formats it takes in `Accept-Patch`, unread.
    app.addContentTypeParser('application/json-patch+json', (request, _payload, done) => {
      done(new HttpProblem(415, 'Unsupported patch format `application/json-patch+json` (a list of operations); send the fields to change as application/json or application/merge-patch+json', {headers: {'accept-patch': acceptedPatches}}))
    })
    // A write that sends nothing is no body, whatever type it names: axios sends a bodiless `post(url)` as
    // `application/x-www-form-urlencoded`, fetch a `body: ''` as `text/plain`. Any other body that is not JSON is
    // refused, unread.
    app.addContentTypeParser('*', (request, _payload, done) => {
      // HTTP/1.1: a request with neither Content-Length nor Transfer-Encoding has no body either.
      const length = request.headers['content-length']
      if (length === '0' || (length === undefined && request.headers['transfer-encoding'] === undefined)) return done(null, undefined)
      const type = request.headers['content-type']
      done(new HttpProblem(415, type ? `Unsupported media type \`${type}\`; send application/json` : 'A body without `Content-Type`; send it as application/json'))
    })
    app.setErrorHandler(errorHandler(() => app.models.values(), development))
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0]
      // A path the app serves, asked with another method: 405 with the methods it takes (RFC 9110), and OPTIONS,
      // which CORS's preflight answers when it is on, is 204 with them. Only a path served by no route is a 404.
      const allowed = routeMethods.filter((method) => app.findRoute({method, url: path}))
      if (allowed.length === 0) return sendProblem(reply, new HttpProblem(404, `No route \`${request.method} ${path}\``))
      const allow = [...allowed, 'OPTIONS'].join(', ')
      if (request.method === 'OPTIONS') {
        // RFC 5789: a resource that takes PATCH says in which formats.
        if (allowed.includes('PATCH')) reply.header('accept-patch', acceptedPatches)
        return reply.code(204).header('allow', allow).send()
      }
      return sendProblem(reply, new HttpProblem(405, `\`${path}\` takes ${allowed.join(', ')}, not ${request.method}`, {headers: {allow}}))
    })
  },
  {name: 'apipe-problems', dependencies: ['apipe-orm']}
)

/** The methods a route of the app may answer (HEAD with every GET). */
const routeMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/** The patch formats an update takes (`Accept-Patch`, RFC 5789): the fields to change, as JSON or a merge patch. */
const acceptedPatches = 'application/json, application/merge-patch+json'

/** fastify's `frameworkErrors` option: errors before routing as problems. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 400
  const detail = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long' : error.code === 'FST_ERR_BAD_URL' ? 'The URL is not valid' : error.message
  return sendProblem(reply, new HttpProblem(status, detail))
}

/** `\u0000` escaped in JSON text (not `\\u0000`, an escaped backslash before `u0000`). */
const escapedNul = /(?<!\\)(?:\\\\)*\\u0000/

/** A key as one segment of a JSON pointer (RFC 6901: `~` and `/` escaped). */
function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** A number literal that may be past a double's range: an exponent of three digits or more, or 309 digits. */
const hugeNumber = /\d[eE][+-]?\d{3}|\d{309}/

/**
 * A 422 naming each value of a parsed body that no database stores: a string that holds a NUL character, a number
 * that is not finite. Undefined when there is none.
 */
function unstorableProblem(value: unknown): HttpProblem | undefined {
  const errors: ProblemItem[] = []
  const visit = (node: unknown, pointer: string) => {
    const name = () => `\`${pointer.split('/').filter(Boolean).join('.') || 'body'}\``
    if (typeof node === 'string') {
      if (node.includes('\0')) errors.push({pointer: pointer || '/', code: 'nul-character', detail: `${name()} holds a NUL character (\\u0000), which no database stores`})
    } else if (typeof node === 'number') {
      if (!Number.isFinite(node)) errors.push({pointer: pointer || '/', code: 'out-of-range', detail: `${name()} is past the range of a number (at most about 1.8e308)`})
    } else if (node && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) visit(item, `${pointer}/${pointerSegment(key)}`)
    }
  }
  visit(value, '')
  return errors.length > 0 ? new HttpProblem(422, `${errors.length} field(s) failed validation`, {errors}) : undefined
}

/**
 * Where a body that parses holds the key fastify refused: an own `__proto__`, or a `constructor` holding `prototype`,
 * as a JSON pointer (`/__proto__`, `/tags/0/constructor/prototype`). Undefined for JSON that does not parse.
 */
function poisonedKey(text: string): {pointer: string; key: string} | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  const visit = (node: unknown, pointer: string): {pointer: string; key: string} | undefined => {
    if (node === null || typeof node !== 'object') return undefined
    if (Object.hasOwn(node, '__proto__')) return {pointer: `${pointer}/__proto__`, key: '__proto__'}
    const constructor = Object.hasOwn(node, 'constructor') ? (node as {constructor: unknown}).constructor : undefined
    if (constructor !== null && typeof constructor === 'object' && Object.hasOwn(constructor, 'prototype')) return {pointer: `${pointer}/constructor/prototype`, key: 'constructor.prototype'}
    for (const [key, child] of Object.entries(node)) {
      const found = visit(child, `${pointer}/${pointerSegment(key)}`)
      if (found) return found
    }
    return undefined
  }
  return visit(value, '')
}
