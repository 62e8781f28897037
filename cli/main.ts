/** The `pipe` command line: registers the commands; each command loads what it needs only when it runs. */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {Builtins, Cli, Command, type BaseContext, type CommandClass} from 'clipanion'
import leven from 'leven'
import {packageRoot} from '../pipeline/schemas.js'
import {useColor} from './options.js'
import {AsyncapiCommand, DevCommand, InitCommand, OpenapiCommand, StartCommand, TestCommand} from './commands/framework.js'
import {GenerateControllerCommand, GenerateEntityCommand, GenerateTestCommand, GenerateTypesCommand} from './commands/generate.js'
import {DiffCommand} from './commands/diff.js'
import {ImportAsyncapiCommand} from './commands/import-asyncapi.js'
import {ImportGraphqlCommand} from './commands/import-graphql.js'
import {ImportOpenapiCommand} from './commands/import-openapi.js'
import {MapCommand} from './commands/map.js'
import {MergeCommand} from './commands/merge.js'
import {MigrateCommand, MigrateCreateCommand, MigrateDownCommand, MigrateStatusCommand} from './commands/migrate.js'
import {RenderCommand} from './commands/render.js'
import {RunCommand} from './commands/run.js'
import {SentencesCommand} from './commands/sentences.js'
import {ValidateCommand} from './commands/validate.js'

const {version} = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as {version: string}

// bin/pipe.js tells the pipeline how to run its hot loops (tiering.ts).
export {setHotCode} from '../pipeline/tiering.js'
export {setInputSizeHook} from '../pipeline/input-size.js'
export {setEarlyReads} from '../pipeline/read.js'

/** The catalogue commands (job A), in the order `pipe --help` lists them. */
export const catalogueCommands: CommandClass[] = [ValidateCommand, DiffCommand, ImportOpenapiCommand, ImportGraphqlCommand, ImportAsyncapiCommand, MergeCommand, RenderCommand, MapCommand, SentencesCommand, RunCommand]

/** The framework commands (job B). */
export const frameworkCommands: CommandClass[] = [InitCommand, DevCommand, StartCommand, TestCommand, OpenapiCommand, AsyncapiCommand, MigrateCreateCommand, MigrateCommand, MigrateDownCommand, MigrateStatusCommand, GenerateEntityCommand, GenerateControllerCommand, GenerateTestCommand, GenerateTypesCommand]

// `pipe --help` lists the two jobs apart; the category is set here so that the framework's command files stay its own.
for (const command of catalogueCommands) command.usage = {...command.usage, category: 'Catalogue'}
for (const command of frameworkCommands) command.usage = {...command.usage, category: 'Framework'}

/** Every command. */
export const commands = [...catalogueCommands, ...frameworkCommands]

/** Usage text with option values named after their option (`--format <format>`) instead of clipanion's `#0`. */
export function nameValues(text: string): string {
  return text.replace(/(--([a-z][\w-]*)(?:,-\w)?)((?: #\d)+)/g, (_all, flag: string, name: string, values: string) => `${flag}${values.replace(/ #\d/g, ` <${name}>`)}`)
}

/** clipanion's CLI with named option values in every usage text it prints. */
class PipeCli extends Cli {
  override usage(...args: Parameters<Cli['usage']>): string {
    return nameValues(super.usage(...args))
  }
}

/**
 * Build the CLI: with `args`, only the commands named by their first word when there are any (clipanion builds its
 * parser from every registered command on each run, ~8 ms for all of them); else, or for an unknown word, all of
 * them, so that help and suggestions list everything.
 */
export function createCli(args: string[] = []): Cli {
  const cli = new PipeCli({binaryLabel: 'apipe', binaryName: 'pipe', binaryVersion: version, enableCapture: false, enableColors: useColor(undefined, process.stdout)})
  cli.register(Builtins.HelpCommand)
  cli.register(Builtins.VersionCommand)
  const named = commands.filter((command) => command.paths?.some((path) => path[0] === args[0]))
  for (const command of named.length > 0 ? named : commands) cli.register(command)
  return cli
}

/**
 * Run `pipe` with `args`; resolves to the exit code: 0 clean, 1 findings or a failed action, 2 a usage error (unknown
 * command or flag, missing or extra argument), which is printed on stderr with the closest commands or the usage.
 */
export async function main(args: string[], context: BaseContext = Cli.defaultContext): Promise<number> {
  const cli = createCli(args)
  // `pipe generate --help` asks for the group's commands; `pipe generate` alone is a command left unfinished.
  const asked = args.includes('--help') || args.includes('-h')
  const group = groupListing(cli, args, asked)
  if (group !== undefined) {
    ;(asked ? context.stdout : context.stderr).write(group)
    return asked ? 0 : 2
  }
  let command: Command<BaseContext>
  try {
    command = cli.process(args.length === 0 ? ['--help'] : args, context)
  } catch (error) {
    context.stderr.write(usageError(error, args))
    return 2
  }
  // What a command throws is a bug or a broken plugin, not a usage error: one line on stderr, no stack trace.
  const execute = command.execute.bind(command)
  command.execute = async () => {
    try {
      return await execute()
    } catch (error) {
      const {crashReason} = await import('../pipeline/process.js')
      context.stderr.write(`pipe: ${crashReason(error)}\n`)
      return 1
    }
  }
  return cli.run(command, context)
}

/**
 * For the first word of a group of commands given alone (`pipe generate`, `pipe import --help`), the group's commands
 * with what each does; undefined for anything else. (`pipe migrate` is a command of its own, not a group.)
 */
function groupListing(cli: Cli, args: string[], asked: boolean): string | undefined {
  const words = args.filter((arg) => !arg.startsWith('-'))
  const paths = commands.flatMap((command) => command.paths ?? [])
  if (words.length !== 1 || paths.some((path) => path.length === 1 && path[0] === words[0])) return undefined
  const members = cli.definitions().filter((definition) => definition.path.split(' ')[1] === words[0])
  if (members.length === 0) return undefined
  const lines = members.map((definition) => `  $ ${nameValues(definition.usage)}\n    ${(definition.description ?? '').trim()}`)
  return `\`pipe ${words[0]}\` ${asked ? 'has these commands' : 'needs one of its commands'}:\n\n${lines.join('\n\n')}\n\nRun \`pipe ${words[0]} <command> --help\` for one of them.\n`
}

interface Candidate {
  usage: string
  reason: string | null
}

/** The text of a usage error: the reason and usage of the command the words named, or the closest commands. */
function usageError(error: unknown, args: string[]): string {
  const candidates = (error as {candidates?: Candidate[]}).candidates
  const reason = candidates?.[0]?.reason
  // clipanion lists a command once per way it tried to read the words (`-o` as a flag, then as an argument; an
  // unknown flag after two arguments, then the second argument as extraneous): one command is its first reason.
  const usages = [...new Set((candidates ?? []).map(({usage}) => `$ ${usage}`))]
  if (candidates && reason && (usages.length === 1 || candidates.every((candidate) => candidate.reason === reason))) {
    return nameValues(`${reason.replace(/\("(.*?)"\)/g, '`$1`')}\n\n${usages.join('\n')}\n`)
  }
  if (!candidates) return `pipe: ${(error as Error).message}\n`
  const closest = closestCommands(args)
  const words = args.filter((arg) => !arg.startsWith('-'))
  const typed = words.slice(0, commands.some((command) => command.paths?.some((path) => path[0] === words[0] && path.length > 1)) ? 2 : 1).join(' ')
  const list = closest.map((command) => `  pipe ${command.join(' ')}`).join('\n')
  return closest.length > 0 ? `Unknown command \`pipe ${typed}\`; did you mean:\n\n${list}\n\nRun \`pipe --help\` for every command.\n` : `Unknown command \`pipe ${typed}\`; run \`pipe --help\` for every command.\n`
}

/** The commands whose words are closest to what was typed (edit distance, at most a third of the word, at least 2). */
function closestCommands(args: string[]): string[][] {
  const paths = commands.flatMap((command) => command.paths ?? [])
  const [first = '', second = ''] = args.filter((arg) => !arg.startsWith('-'))
  const near = (typed: string, word: string) => leven(typed, word) <= Math.max(2, Math.floor(word.length / 3))
  // A known first word with a mistyped second (`import opnapi`): the closest second words of that first word.
  const known = paths.filter((path) => path[0] === first && path.length > 1)
  const pool = known.length > 0 ? known.map((path) => ({path, word: path[1], typed: second})) : paths.map((path) => ({path, word: path[0], typed: first}))
  const scored = pool.filter(({word, typed}) => near(typed, word)).map((entry) => ({...entry, distance: leven(entry.typed, entry.word)}))
  if (scored.length === 0) return known.length > 0 ? known : []
  const best = Math.min(...scored.map((entry) => entry.distance))
  return scored.filter((entry) => entry.distance === best).map((entry) => entry.path)
}
