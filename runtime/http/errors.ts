/**
 * Every error becomes a problem+json answer (RFC 9457) with the status codes of 4.3: fastify's own errors (malformed
 * JSON 400, media type 415, body too large 413, validation 422 or 400), database constraint errors (a unique
 * violation is a 409 naming the field on all four databases), thrown `HttpProblem`s, and anything else a 500
 * without internals (the message is shown only when `NODE_ENV` is `development`).
 */
import {
  CheckConstraintViolationException,
  ConnectionException,
  ForeignKeyConstraintViolationException,
  NotNullConstraintViolationException,
  UniqueConstraintViolationException
} from '@mikro-orm/core'
import type {FastifyError, FastifyReply, FastifyRequest} from 'fastify'
import {HttpProblem, isHttpProblem, problemBody, type ProblemItem} from './problem.js'
import {fieldColumn, relationColumn} from '../entity-schema.js'
import type {EntityModel} from './model.js'

/** A project's own error body (`src/errors.ts`): the problem as data in, the body to send out (as JSON). */
export type ProblemFormatter = (problem: ReturnType<typeof problemBody>, request: FastifyRequest) => unknown

declare module 'fastify' {
  interface FastifyInstance {
    /** The project's error formatter, when it has one; every error answer goes through it. */
    formatProblem?: ProblemFormatter
  }
}

/** Send a problem answer: RFC 9457 problem+json, or the project's own body when it declares a formatter. */
export function sendProblem(reply: FastifyReply, problem: HttpProblem): FastifyReply {
  for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value)
  const body = problemBody(problem.status, problem.message, problem.title, problem.errors)
  const format = reply.server.formatProblem
  if (format) {
    try {
      return reply.code(problem.status).type('application/json; charset=utf-8').send(format(body, reply.request))
    } catch (error) {
      // A formatter that throws must not turn every error into a crash: the standard answer goes out instead.
      reply.log.error({err: error}, 'the error formatter (src/errors.ts) threw')
    }
  }
  return reply.code(problem.status).type('application/problem+json').send(body)
}

interface AjvError {
  instancePath: string
  keyword: string
  message?: string
  params: Record<string, unknown>
}

/** ajv's errors as problem items: a JSON pointer to each failing field, a code and a sentence. */
export function validationItems(errors: AjvError[], prefix = ''): ProblemItem[] {
  return errors.map((error) => {
    const missing = error.params.missingProperty as string | undefined
    const extra = error.params.additionalProperty as string | undefined
    const pointer = `${prefix}${error.instancePath}${missing ? `/${missing}` : extra ? `/${extra}` : ''}`
    if (missing) return {pointer, code: 'required', detail: `\`${missing}\` is required`}
    if (extra) return {pointer, code: 'unknown-field', detail: `\`${extra}\` cannot be set`}
    const field = pointer.split('/').filter(Boolean).join('.') || 'body'
    const message = error.keyword === 'type' ? `must be ${typeWords(error.params.type)}` : (error.message ?? 'is invalid')
    return {pointer: pointer || '/', code: error.keyword, detail: `\`${field}\` ${message}`}
  })
}

/** JSON Schema types as a sentence says them: `["string", "null"]` -> `a string or null` (ajv writes `string,null`). */
function typeWords(types: unknown): string {
  const article = (type: string) => (type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`)
  return (Array.isArray(types) ? types : [types]).map((type) => article(String(type))).join(' or ')
}

/** Throw a 422 listing every failing field unless `validate` (a compiled ajv schema) accepts the body. */
export function validateBody(validate: ((data: unknown) => boolean) & {errors?: unknown}, data: unknown): void {
  if (validate(data)) return
  const items = validationItems((validate.errors ?? []) as AjvError[])
  throw new HttpProblem(422, `${items.length} field(s) failed validation`, {errors: items})
}

/** The field of a model a database error names (constraint, index or column), when it can be told. */
function fieldOf(error: Error, models: Iterable<EntityModel>): {model?: EntityModel; field?: string} {
  const text = `${error.message} ${(error as {detail?: string}).detail ?? ''} ${(error as {constraint?: string}).constraint ?? ''}`
  for (const model of models) {
    const table = model.definition.table ?? model.name
    // Relations first: a foreign key's message also names the key it references (MySQL: ``REFERENCES `post` (`id`)``).
    const names = [...model.relations.keys(), ...model.fields.keys()]
    for (const name of names) {
      const column = model.relations.has(name) ? relationColumn(name) : fieldColumn(name)
      const patterns = [`${table}.${column}`, `${table}_${column}_unique`, `${table}_${column}_foreign`, `Key (${column})`, `FOREIGN KEY (\`${column}\`)`]
      if (patterns.some((pattern) => text.includes(pattern))) return {model, field: name}
    }
  }
  return {}
}

/** Whether a foreign key violation is a delete (or key change) of a record that others still refer to. */
function isDeleting(error: Error): boolean {
  return /delete|update on table|still referenced|a parent row/i.test(error.message) && !/insert|add or update a child/i.test(error.message)
}

/**
 * The field of `model` through which a write named a record that does not exist: null when the error is something
 * else, undefined when the database does not say (SQLite's whole message is `FOREIGN KEY constraint failed`; a join
 * table's constraint names the join table).
 */
export function missingReferenceField(error: unknown, model: EntityModel): string | undefined | null {
  if (!(error instanceof ForeignKeyConstraintViolationException) || isDeleting(error)) return null
  return fieldOf(error, [model]).field
}

/** The 422 of a write that names a record that does not exist, pointing at `field` when it is known. */
export function missingReference(field: string | undefined): HttpProblem {
  const errors: ProblemItem[] | undefined = field ? [{pointer: `/${field}`, code: 'reference', detail: `\`${field}\` refers to a record that does not exist`}] : undefined
  return new HttpProblem(422, 'A referenced record does not exist', {errors})
}

/** A problem for a database error, or `undefined` when it is not one users cause. */
export function databaseProblem(error: unknown, models: Iterable<EntityModel>): HttpProblem | undefined {
  if (!(error instanceof Error)) return undefined
  if (error instanceof UniqueConstraintViolationException) {
    const {field} = fieldOf(error, models)
    const errors: ProblemItem[] | undefined = field ? [{pointer: `/${field}`, code: 'unique', detail: `\`${field}\` is already taken`}] : undefined
    return new HttpProblem(409, field ? `A record with this \`${field}\` already exists` : 'A record with these values already exists', {errors})
  }
  if (error instanceof ForeignKeyConstraintViolationException) {
    if (isDeleting(error)) return new HttpProblem(409, 'Other records still refer to this one')
    return missingReference(fieldOf(error, models).field)
  }
  if (error instanceof NotNullConstraintViolationException) {
    const {field} = fieldOf(error, models)
    return new HttpProblem(422, field ? `\`${field}\` is required` : 'A required field is missing', {errors: field ? [{pointer: `/${field}`, code: 'required', detail: `\`${field}\` is required`}] : undefined})
  }
  if (error instanceof CheckConstraintViolationException) return new HttpProblem(422, 'A value is not allowed')
  if (isUnavailable(error)) {
    return new HttpProblem(503, 'The database is not available; try again shortly', {headers: {'retry-after': '5'}})
  }
  return undefined
}

/** PostgreSQL's `08…` (connection) and `57P0x` (shutdown, start-up) codes, refused or lost sockets. */
const unavailableCodes = /^(08|57P0[1-4])|^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|PROTOCOL_CONNECTION_LOST|ER_SERVER_SHUTDOWN|ER_CON_COUNT_ERROR)$/
const unavailableMessages = /ECONNREFUSED|ECONNRESET|Connection terminated|server closed the connection|terminating connection|the database system is (shutting down|starting up|in recovery mode)|PROTOCOL_CONNECTION_LOST|Connection lost|Knex: Timeout acquiring a connection|not queryable|connection error|Connection is closed|connect ECONNREFUSED/i

/** Whether a database error means the server cannot be reached now (a 503, not a 500). */
function isUnavailable(error: Error): boolean {
  if (error instanceof ConnectionException) return true
  for (let current: unknown = error, depth = 0; current && depth < 4; current = (current as {cause?: unknown}).cause, depth++) {
    const code = String((current as {code?: unknown}).code ?? '')
    if (unavailableCodes.test(code) || unavailableMessages.test(String((current as {message?: unknown}).message ?? ''))) return true
  }
  return false
}

/** fastify's error handler: everything becomes problem+json. */
export function errorHandler(models: () => Iterable<EntityModel>, development: boolean) {
  return (error: FastifyError & {validation?: AjvError[]; validationContext?: string}, request: FastifyRequest, reply: FastifyReply) => {
    if (isHttpProblem(error)) return sendProblem(reply, new HttpProblem(error.status, error.message, {title: error.title, errors: error.errors, headers: error.headers}))
    if (error.validation) {
      const context = error.validationContext ?? 'body'
      const items = validationItems(error.validation, context === 'body' ? '' : `/${context}`)
      return sendProblem(reply, context === 'body' ? new HttpProblem(422, `${items.length} field(s) failed validation`, {errors: items}) : new HttpProblem(400, items.map((item) => item.detail).join('; '), {errors: items}))
    }
    const database = databaseProblem(error, models())
    if (database) return sendProblem(reply, database)
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendProblem(reply, new HttpProblem(415, `Unsupported media type \`${request.headers['content-type'] ?? ''}\`; send application/json`))
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendProblem(reply, new HttpProblem(413, 'The request body is too large'))
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendProblem(reply, new HttpProblem(400, 'The body is empty; send a JSON object'))
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return sendProblem(reply, new HttpProblem(400, 'The body is not valid JSON'))
    }
    if (error instanceof SyntaxError || error.statusCode === 400) return sendProblem(reply, new HttpProblem(400, 'The body is not valid JSON'))
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) return sendProblem(reply, new HttpProblem(error.statusCode, error.message))
    request.log.error({err: error}, `request failed: ${request.method} ${request.url}`)
    return sendProblem(reply, new HttpProblem(500, development ? `${error.name}: ${error.message}` : 'The server could not answer this request'))
  }
}
