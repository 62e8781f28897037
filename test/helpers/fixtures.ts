/** Fixture folders: `fixtures/<plugin>/<case>/{input.*, options.json?, expected files}`. */
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'

export const root = fileURLToPath(new URL('../..', import.meta.url))

/** One fixture case. */
export interface FixtureCase {
  name: string
  dir: string
  /** Path of the `input.*` file. */
  input: string
  options: Record<string, unknown> | undefined
  /** Read an expected file; with `UPDATE_FIXTURES=1` a missing or different one is (re)written from `actual`. */
  expected(file: string, actual: string): string
}

/** The cases of `fixtures/<plugin>/`, sorted by name. */
export function fixtureCases(plugin: string): FixtureCase[] {
  const base = path.join(root, 'fixtures', plugin)
  return readdirSync(base)
    .sort()
    .map((name) => {
      const dir = path.join(base, name)
      const input = readdirSync(dir).find((file) => file.startsWith('input.'))
      if (!input) throw new Error(`fixture ${plugin}/${name} has no input.* file`)
      const optionsFile = path.join(dir, 'options.json')
      return {
        name,
        dir,
        input: path.join(dir, input),
        options: existsSync(optionsFile) ? JSON.parse(readFileSync(optionsFile, 'utf8')) : undefined,
        expected(file: string, actual: string) {
          const target = path.join(dir, file)
          if (process.env.UPDATE_FIXTURES === '1') writeFileSync(target, actual)
          return readFileSync(target, 'utf8')
        }
      }
    })
}
