/**
 * RFC 9457 problem details: every error the server answers is `application/problem+json`
 * `{type, title, status, detail, errors?: [{pointer, code, detail}]}`. Internals (stacks, SQL) never leave the
 * process outside development.
 */
import {STATUS_CODES} from 'node:http'

/** One failing part of a request: a JSON pointer into the body (`/title`) or query (`/query/sort`). */
export interface ProblemItem {
  pointer: string
  code: string
  detail: string
}

/** An error that is an answer: throw it from an action, a hook or a middleware to answer with its status. */
export class HttpProblem extends Error {
  readonly status: number
  readonly title: string
  readonly errors?: ProblemItem[]
  readonly headers: Record<string, string>

  constructor(status: number, detail: string, options: {title?: string; errors?: ProblemItem[]; headers?: Record<string, string>} = {}) {
    super(detail)
    this.name = 'HttpProblem'
    this.status = status
    this.title = options.title ?? STATUS_CODES[status] ?? 'Error'
    this.errors = options.errors
    this.headers = options.headers ?? {}
  }
}

/** The body of a problem answer. */
export function problemBody(status: number, detail: string, title = STATUS_CODES[status] ?? 'Error', errors?: ProblemItem[]) {
  const body: Record<string, unknown> = {type: 'about:blank', title, status, detail}
  if (errors && errors.length > 0) body.errors = errors
  return body
}

export const badRequest = (detail: string, errors?: ProblemItem[]) => new HttpProblem(400, detail, {errors})
export const notFound = (detail: string) => new HttpProblem(404, detail)
export const unprocessable = (errors: ProblemItem[]) => new HttpProblem(422, `${errors.length} field(s) failed validation`, {errors})

/**
 * Whether a thrown value is an `HttpProblem`, also from another copy of apipe (a project's code may import
 * `apipe-kit/runtime` from its own node_modules while the server runs from another install).
 */
export function isHttpProblem(error: unknown): error is HttpProblem {
  return error instanceof HttpProblem || (error instanceof Error && error.name === 'HttpProblem' && typeof (error as HttpProblem).status === 'number')
}
