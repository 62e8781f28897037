import type {ActionContext} from 'apipe-kit/runtime'

/** Every post gets a slug from its title. */
export default function beforeCreate(ctx: ActionContext) {
  ctx.data.slug ??= ctx.utils.slug(String(ctx.data.title))
}
