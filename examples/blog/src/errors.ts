import type {ProblemFormatter} from 'apipe-kit/runtime'

/** The error body an existing client reads: `{errors: {<field or "body">: [messages]}}`. */
const format: ProblemFormatter = (problem) => {
  const items = (problem.errors ?? []) as Array<{pointer: string; detail: string}>
  if (items.length === 0) return {errors: {body: [problem.detail]}}
  const errors: Record<string, string[]> = {}
  for (const item of items) (errors[item.pointer.slice(1) || 'body'] ??= []).push(item.detail)
  return {errors}
}

export default format

/** The shape of that body, for `pipe openapi`. */
export const schema = {
  type: 'object',
  properties: {errors: {type: 'object', additionalProperties: {type: 'array', items: {type: 'string'}}}},
  required: ['errors']
}
