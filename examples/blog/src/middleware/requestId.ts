import {randomUUID} from 'node:crypto'
import type {ActionContext} from 'apipe-kit/runtime'

/** Give every answer an `x-request-id` (the client's, or a new one). */
export default async function requestId(ctx: ActionContext, next: () => Promise<void>) {
  const id = String(ctx.request.headers['x-request-id'] ?? randomUUID())
  ctx.state.requestId = id
  ctx.response.header('x-request-id', id)
  await next()
}
