/** The `pipe` command line: registers the commands; each command loads what it needs only when it runs. */
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {Builtins, Cli} from 'clipanion'
import {packageRoot} from '../pipeline/schemas.js'
import {useColor} from './options.js'
import {DevCommand, InitCommand, OpenapiCommand, StartCommand, TestCommand} from './commands/framework.js'
import {GenerateControllerCommand, GenerateEntityCommand, GenerateTestCommand} from './commands/generate.js'
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

/** Every command, in the order `pipe --help` lists them. */
export const commands = [ValidateCommand, ImportOpenapiCommand, ImportGraphqlCommand, ImportAsyncapiCommand, MergeCommand, RenderCommand, MapCommand, SentencesCommand, RunCommand, InitCommand, DevCommand, StartCommand, TestCommand, OpenapiCommand, MigrateCreateCommand, MigrateCommand, MigrateDownCommand, MigrateStatusCommand, GenerateEntityCommand, GenerateControllerCommand, GenerateTestCommand]

/**
 * Build the CLI: with `args`, only the commands named by their first word when there are any (clipanion builds its
 * parser from every registered command on each run, ~8 ms for all of them); else, or for an unknown word, all of
 * them, so that help and suggestions list everything.
 */
export function createCli(args: string[] = []): Cli {
  const cli = new Cli({binaryLabel: 'apipe', binaryName: 'pipe', binaryVersion: version, enableCapture: false, enableColors: useColor(undefined, process.stdout)})
  cli.register(Builtins.HelpCommand)
  cli.register(Builtins.VersionCommand)
  const named = commands.filter((command) => command.paths?.some((path) => path[0] === args[0]))
  for (const command of named.length > 0 ? named : commands) cli.register(command)
  return cli
}

/** Run `pipe` with `args`; resolves to the exit code. */
export async function main(args: string[]): Promise<number> {
  const cli = createCli(args)
  try {
    return await cli.run(args.length === 0 ? ['--help'] : args, Cli.defaultContext)
  } catch (error) {
    process.stderr.write(`pipe: ${(error as Error).message}\n`)
    return 2
  }
}
