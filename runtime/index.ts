/**
 * `apipe/runtime`: what the code of a framework project imports: field and relation helpers, `defineEntity`,
 * `defineController`, and the definition types generated from the JSON Schemas.
 */
export {defineController, defineEntity, field, relation, type ActionContext, type CodeController, type EntityOptions, type FieldOptions, type RelationOptions} from './define.js'
export type {EntityDefinition, FieldDefinition, IndexDefinition, RelationDefinition} from '../schemas/types/entity.js'
export type {ControllerDefinition, RouteOptions} from '../schemas/types/controller.js'
export type {ProjectConfig, RateLimit} from '../schemas/types/project.js'
