/** Resolve `--preset`: a built-in name, or a module path exporting a preset (`{plugins, settings}`). */
import path from 'node:path'
import {pathToFileURL} from 'node:url'
import type {Preset} from 'unified'
import {presets} from '../presets/index.js'

/** The preset, or a reason (string) to print when it cannot be had. */
export async function loadPreset(name: string): Promise<Preset | string> {
  if (Object.hasOwn(presets, name)) return presets[name as keyof typeof presets]
  if (!/[./\\]/.test(name)) return `Unknown preset \`${name}\`, expected one of ${Object.keys(presets).join(', ')} or a module path`
  try {
    const module = await import(pathToFileURL(path.resolve(name)).href)
    const preset = (module.default ?? module) as Preset
    if (!preset || typeof preset !== 'object' || !Array.isArray(preset.plugins)) {
      return `Unexpected preset module \`${name}\`, expected it to export \`{plugins: [...], settings?}\``
    }
    return preset
  } catch (error) {
    return `Cannot load preset \`${name}\`: ${(error as Error).message}`
  }
}
