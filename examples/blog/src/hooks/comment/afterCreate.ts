import {HttpProblem, type ActionContext} from 'apipe-kit/runtime'

/** Runs after the insert, in the same transaction: refusing here leaves nothing stored. */
export default function afterCreate(ctx: ActionContext) {
  if (/buy now/i.test(String(ctx.data.body))) throw new HttpProblem(422, 'Comments that advertise are refused')
}
