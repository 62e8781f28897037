import {Command, Option} from 'clipanion'
import {projectOption} from '../options.js'
import type {Orm} from '../../runtime/database.js'
import type {MigrationRunner} from '../../runtime/migrations/runner.js'

const dryRunOption = () => Option.Boolean('--dry-run', false, {description: 'Print the SQL instead of running it, e.g. `--dry-run`'})

/** Open the project's database and its migrator, run `work`, close; database errors are one line, exit 1. */
async function withMigrator(command: Command & {project: string}, work: (migrator: MigrationRunner) => Promise<number>): Promise<number> {
  const [{runProjectPreset}, {default: parseDefinitions}, {openDatabase}, {MigrationRunner}, path] = await Promise.all([
    import('../project.js'),
    import('../../plugins/parse-definitions.js'),
    import('../../runtime/database.js'),
    import('../../runtime/migrations/runner.js'),
    import('node:path')
  ])
  const {tree} = await runProjectPreset(command.context, command.project, {plugins: [parseDefinitions]})
  if (!tree) return 1
  let orm: Orm | undefined
  try {
    orm = await openDatabase(tree.config, [])
    return await work(new MigrationRunner(orm, tree.config.database.type, path.resolve(tree.root, tree.config.migrations)))
  } catch (error) {
    if ((error as {name?: string}).name !== 'ApipeError') throw error
    command.context.stderr.write(`pipe migrate: ${(error as Error).message}\n`)
    return 1
  } finally {
    await orm?.close(true)
  }
}

function printStatements(command: Command, name: string, statements: string[]) {
  command.context.stdout.write(`-- ${name}\n${statements.join('\n')}\n`)
}

/** `pipe migrate [--dry-run]`: apply pending migrations. */
export class MigrateCommand extends Command {
  static override paths = [['migrate'], ['migrate', 'up']]

  static override usage = Command.Usage({
    description: 'Apply pending migrations',
    details: `
      Applies the migrations of \`migrations/\` that the database has not run, oldest first, each in its own
      transaction with its record in \`apipe_migrations\`. A failed migration leaves the database as it was and names
      the statement that failed (exit 1); the ones before it stay applied. \`--dry-run\` prints their SQL instead.
    `,
    examples: [
      ['Apply pending migrations', 'pipe migrate'],
      ['Show the SQL they would run', 'pipe migrate --dry-run']
    ]
  })

  project = projectOption()

  dryRun = dryRunOption()

  override async execute(): Promise<number> {
    return withMigrator(this, async (migrator) => {
      const runs = await migrator.up({dryRun: this.dryRun})
      if (runs.length === 0) this.context.stdout.write('Nothing to migrate: the database is up to date\n')
      for (const run of runs) {
        if (this.dryRun) printStatements(this, run.name, run.statements)
        else this.context.stdout.write(`Applied ${run.name} (${run.statements.length} statement(s))\n`)
      }
      return 0
    })
  }
}

/** `pipe migrate down [--dry-run]`: revert the newest applied migration. */
export class MigrateDownCommand extends Command {
  static override paths = [['migrate', 'down']]

  static override usage = Command.Usage({
    description: 'Revert the newest applied migration',
    details: `
      Runs the \`down\` of the newest applied migration in a transaction and removes its record. \`--dry-run\` prints
      its SQL instead.
    `,
    examples: [['Revert the last migration', 'pipe migrate down']]
  })

  project = projectOption()

  dryRun = dryRunOption()

  override async execute(): Promise<number> {
    return withMigrator(this, async (migrator) => {
      const run = await migrator.down({dryRun: this.dryRun})
      if (!run) this.context.stdout.write('Nothing to revert: no migration is applied\n')
      else if (this.dryRun) printStatements(this, run.name, run.statements)
      else this.context.stdout.write(`Reverted ${run.name} (${run.statements.length} statement(s))\n`)
      return 0
    })
  }
}

/** `pipe migrate status`: applied and pending migrations. */
export class MigrateStatusCommand extends Command {
  static override paths = [['migrate', 'status']]

  static override usage = Command.Usage({
    description: 'List applied and pending migrations',
    details: `
      One line per migration: \`applied <name> <time>\` or \`pending <name>\`, and \`missing <name>\` for an applied
      migration whose file is gone. Exits 0.
    `,
    examples: [['Where the database stands', 'pipe migrate status']]
  })

  project = projectOption()

  override async execute(): Promise<number> {
    return withMigrator(this, async (migrator) => {
      const {applied, pending, missing} = await migrator.status()
      const lines = [
        ...applied.map(({name, appliedAt}) => `${missing.includes(name) ? 'missing' : 'applied'}  ${name}  ${appliedAt}`),
        ...pending.map((name) => `pending  ${name}`)
      ]
      this.context.stdout.write(`${lines.join('\n')}${lines.length > 0 ? '\n' : ''}${applied.length} applied, ${pending.length} pending\n`)
      return 0
    })
  }
}

/** `pipe migrate create [name] [--allow-destructive] [--dry-run]`: write the next migration from the definitions. */
export class MigrateCreateCommand extends Command {
  static override paths = [['migrate', 'create']]

  static override usage = Command.Usage({
    description: 'Write the next migration from the changes of the definitions',
    details: `
      Compares the entity definitions with the snapshot of the newest migration and writes
      \`migrations/<YYYYMMDDHHmmss>_<name>.js\` with \`up\` and \`down\` (names order migrations and never collide).
      Steps that could lose data (drop a table or column, narrow a type or an enum, NOT NULL without a default) are
      refused, each named, unless \`--allow-destructive\`. A field or entity with \`renamedFrom\` is renamed in place.
      Nothing changed: nothing is written (exit 0). \`--dry-run\` prints the SQL instead of writing the file.
    `,
    examples: [
      ['A migration named after its change', 'pipe migrate create add-isbn'],
      ['Accept dropping a column', 'pipe migrate create drop-legacy --allow-destructive']
    ]
  })

  name = Option.String({name: 'name', required: false})

  project = projectOption()

  allowDestructive = Option.Boolean('--allow-destructive', false, {description: 'Write the migration even if it drops or narrows data, e.g. `--allow-destructive`'})

  dryRun = dryRunOption()

  override async execute(): Promise<number> {
    const [{runProjectPreset}, {backendPreset}, {writeOutputs}] = await Promise.all([import('../project.js'), import('../../presets/backend.js'), import('../../pipeline/outputs.js')])
    const {tree, file} = await runProjectPreset(this.context, this.project, backendPreset({create: this.name ?? true, allowDestructive: this.allowDestructive}))
    const plan = file.data.migration
    if (!tree || !plan) return 1
    if (plan.up.length === 0 && !plan.elsewhere) {
      this.context.stdout.write('No changes: the definitions match the newest migration\n')
      return 0
    }
    if (!plan.name) return 1
    if (this.dryRun) {
      printStatements(this, `${plan.name} up`, plan.up)
      printStatements(this, `${plan.name} down`, plan.down)
      return 0
    }
    const written = await writeOutputs([file], {announce: false})
    if (written.length === 0) return 1
    const elsewhere = plan.elsewhere ? `; nothing on ${tree.config.database.type}, ${plan.elsewhere.statements} on ${plan.elsewhere.type}` : ''
    this.context.stdout.write(`Created ${file.data.outputs![0].path} (${plan.up.length} statement(s) up, ${plan.down.length} down${elsewhere})\n`)
    return 0
  }
}
