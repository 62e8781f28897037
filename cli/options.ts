/** Flags shared by commands, and helpers to turn them into engine options. */
import {Option, type Command} from 'clipanion'
import {dset} from 'dset'

/** Whether to colour output: off with `--no-color`, `NO_COLOR`, or a non-terminal stream. */
export function useColor(flag: boolean | undefined, stream: NodeJS.WriteStream = process.stderr): boolean {
  if (flag === false || process.env.NO_COLOR) return false
  return flag === true || Boolean(stream.isTTY)
}

/** Parse `key=value` settings; values are JSON when they parse as JSON (`max=100`, `rules={"summary":"off"}`). */
export function parseSettings(pairs: string[]): Record<string, unknown> {
  const settings: Record<string, unknown> = {}
  for (const pair of pairs) {
    const equals = pair.indexOf('=')
    const key = equals === -1 ? pair : pair.slice(0, equals)
    const raw = equals === -1 ? 'true' : pair.slice(equals + 1)
    let value: unknown = raw
    try {
      value = JSON.parse(raw)
    } catch {
      // A plain string.
    }
    // dset skips `__proto__`, `constructor` and `prototype`: a setting never reaches Object.prototype.
    dset(settings, key, value)
  }
  return settings
}

/** `--project <dir>` of the framework commands. */
export const projectOption = () => Option.String('--project,-p', '.', {description: 'Project folder, where pipe.config.json is (default: `.`), e.g. `--project examples/blog`'})

/** `--color` / `--no-color`. */
export const colorOption = () =>
  Option.Boolean('--color', {description: 'Colour the report (default: when writing to a terminal and NO_COLOR is unset); `--no-color` turns it off, e.g. `pipe run --no-color specs/`'})

/** `--frail` of the catalogue commands. */
export const frailOption = () => Option.Boolean('--frail', false, {description: 'Exit 1 on warnings too, e.g. `--frail`'})

/** `--quiet` of the catalogue commands. */
export const quietOption = () =>
  Option.Boolean('--quiet,-q', false, {description: 'Print only what fails the run (errors, and warnings with `--frail`), and no `Wrote …` lines, e.g. `-q`'})

/**
 * A usage error of `command` that clipanion cannot see (a value outside a flag's list, an argument the command reads
 * itself): the reason on stderr, then the command's usage, as clipanion prints its own; exit code 2.
 */
export function usageError(command: Command, reason: string): 2 {
  command.context.stderr.write(`${reason}\n\n${command.cli.usage(command)}`)
  return 2
}
