import {defineController} from 'apipe-kit/runtime'

/** The six CRUD routes, and publishing a draft (see src/hooks/post/beforePublish.ts). */
export default defineController('post', {
  routes: {
    'GET /posts': 'list',
    'GET /posts/count': 'count',
    'GET /posts/{id}': 'read',
    'POST /posts': 'create',
    'PATCH /posts/{id}': 'update',
    'PUT /posts/{id}': 'update',
    'DELETE /posts/{id}': 'delete',
    'POST /posts/{id}/publish': {action: 'publish', summary: 'Publish a draft'}
  },
  actions: {
    async publish(ctx) {
      const post = ctx.state.post as Record<string, unknown>
      post.status = 'published'
      post.publishedAt = new Date()
      await ctx.db.flush()
      return {id: post.id, status: post.status, publishedAt: post.publishedAt}
    }
  }
})
