import type {ActionContext} from 'apipe-kit/runtime'

/** An article's slug: its title in URL form, made unique with a short random suffix. */
export default function beforeCreate(ctx: ActionContext) {
  ctx.data.slug = `${ctx.utils.slug(String(ctx.data.title))}-${Math.random().toString(36).slice(2, 8)}`
}
