import {HttpProblem, type ActionContext} from 'apipe-kit/runtime'

/** Only a draft can be published: find it (404) and refuse a post that is already out (409). */
export default async function beforePublish(ctx: ActionContext) {
  const post = await ctx.db.findOne('post', {id: Number(ctx.params.id)})
  if (!post) throw new HttpProblem(404, `No post \`${ctx.params.id}\``)
  if ((post as {status?: string}).status === 'published') throw new HttpProblem(409, 'This post is already published')
  ctx.state.post = post
}
