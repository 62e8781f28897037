/** Added after a preset, turns its page off (unified skips a plugin whose options are `false`): for commands that write only the catalogue. */
import type {Preset} from 'unified'
import renderHtml from '../plugins/render-html/index.js'

export const pageOff: Preset = {plugins: [[renderHtml, false]]}
