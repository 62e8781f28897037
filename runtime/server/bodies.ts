/**
 * Bodies plugin: one Ajv per app (so a reloaded app drops its compiled schemas) and the decorator that compiles the
 * validator of an entity's create, update or replace body.
 */
import {Ajv} from 'ajv'
import formats from 'ajv-formats'
import fp from 'fastify-plugin'
import {bodySchema} from '../http/body-schema.js'
import type {EntityModel} from '../http/model.js'

/** A compiled body check: `validateBody(check, data)` turns its errors into a 422. */
export type BodyCheck = ((data: unknown) => boolean) & {errors?: unknown}

declare module 'fastify' {
  interface FastifyInstance {
    /** The validator of `model`'s body for `mode`; `protectedFields` may not be set by the client. */
    bodyCheck(model: EntityModel, mode: 'create' | 'update' | 'replace', protectedFields?: ReadonlySet<string>): BodyCheck
    /** Compile any JSON Schema with the app's Ajv. */
    compileSchema(schema: object): BodyCheck
  }
}

export const bodiesPlugin = fp(
  async (app) => {
    const ajv = new Ajv({allErrors: true, coerceTypes: false, useDefaults: false, strict: false})
    ;(formats as unknown as {default: (ajv: Ajv) => void}).default(ajv)
    app.decorate('compileSchema', (schema: object) => ajv.compile(schema))
    app.decorate('bodyCheck', (model: EntityModel, mode: 'create' | 'update' | 'replace', protectedFields?: ReadonlySet<string>) =>
      ajv.compile(bodySchema(model, mode, app.models, protectedFields))
    )
  },
  {name: 'apipe-bodies', dependencies: ['apipe-orm']}
)
