/** The built-in presets by name. Presets are data: ordered plugin lists with options. */
import type {Preset} from 'unified'
import asyncapi from './asyncapi.js'
import backend from './backend.js'
import catalogue from './catalogue.js'
import docs from './docs.js'
import graphql from './graphql.js'
import openapi from './openapi.js'
import sentences from './sentences.js'
import validate from './validate.js'

export const presets = {asyncapi, backend, catalogue, docs, graphql, openapi, sentences, validate} satisfies Record<string, Preset>

/** A built-in preset name. */
export type PresetName = keyof typeof presets

export {pageOff} from './page-off.js'
