/** The built-in presets by name. Presets are data: ordered plugin lists with options. */
import type {Preset} from 'unified'
import catalogue from './catalogue.js'
import validate from './validate.js'

export const presets = {catalogue, validate} satisfies Record<string, Preset>

/** A built-in preset name. */
export type PresetName = keyof typeof presets
