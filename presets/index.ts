/** The built-in presets by name. Presets are data: ordered plugin lists with options. */
import type {Preset} from 'unified'
import catalogue from './catalogue.js'
import docs from './docs.js'
import sentences from './sentences.js'
import validate from './validate.js'

export const presets = {catalogue, docs, sentences, validate} satisfies Record<string, Preset>

/** A built-in preset name. */
export type PresetName = keyof typeof presets
