import {Command, Option} from 'clipanion'

/** Shared: write `content` to `file` under the working directory unless it exists (or `--force`). */
async function writeNew(command: Command, file: string, content: string, force: boolean): Promise<number> {
  const {mkdir, writeFile, access} = await import('node:fs/promises')
  const path = await import('node:path')
  const exists = await access(file).then(() => true, () => false)
  if (exists && !force) {
    command.context.stderr.write(`Refusing to overwrite \`${file}\`; pass --force to replace it\n`)
    return 1
  }
  await mkdir(path.dirname(file), {recursive: true})
  await writeFile(file, content)
  command.context.stdout.write(`Wrote ${file}\n`)
  return 0
}

/** `pipe generate entity <Name>`: an entity definition. */
export class GenerateEntityCommand extends Command {
  static override paths = [['generate', 'entity']]

  static override usage = Command.Usage({
    description: 'Write an entity definition (src/entities/<name>.json, or .ts with --code)',
    details: `
      The entity is named in lower case with words joined by \`_\` (\`BookReview\` -> \`book_review\`). Fields are
      \`name:type:modifier…\` separated by commas; types are those of \`schemas/entity.schema.json\`
      (\`enum(a|b)\` for an enum), modifiers \`required\`, \`unique\`, \`index\`, \`hidden\`. Without \`--fields\` the
      entity gets a required \`title\`. \`timestamps\` is on. An existing file is kept unless \`--force\`.
    `,
    examples: [
      ['A book with a unique ISBN', 'pipe generate entity Book --fields title:string:required,isbn:string:unique'],
      ['A user as a TypeScript class', 'pipe generate entity User --fields email:email:required:unique,password:password:required --code']
    ]
  })

  name = Option.String({name: 'Name'})

  fields = Option.String('--fields', '', {description: 'Fields as `name:type:modifier…`, comma separated, e.g. `--fields title:string:required,isbn:string:unique`'})

  code = Option.Boolean('--code', false, {description: 'Write a TypeScript class (src/entities/<name>.ts) instead of JSON, e.g. `--code`'})

  force = Option.Boolean('--force', false, {description: 'Replace an existing file, e.g. `--force`'})

  override async execute(): Promise<number> {
    const {entityDefinition, entitySource, parseFields} = await import('../../runtime/generate.js')
    let definition
    try {
      definition = entityDefinition(this.name, parseFields(this.fields))
    } catch (error) {
      this.context.stderr.write(`${(error as Error).message}\n`)
      return 2
    }
    const content = this.code ? entitySource(definition) : JSON.stringify(definition, null, 2) + '\n'
    return writeNew(this, `src/entities/${definition.name}.${this.code ? 'ts' : 'json'}`, content, this.force)
  }
}

/** `pipe generate controller <Name>`: a controller definition. */
export class GenerateControllerCommand extends Command {
  static override paths = [['generate', 'controller']]

  static override usage = Command.Usage({
    description: 'Write a controller definition (src/controller/<name>.json)',
    details: `
      With \`--crud\` the routes cover the six auto-CRUD actions on the plural path: \`GET /books\` list,
      \`GET /books/count\` count, \`GET /books/{id}\` read, \`POST /books\` create, \`PATCH /books/{id}\` update,
      \`DELETE /books/{id}\` delete. An existing file is kept unless \`--force\`.
    `,
    examples: [['CRUD routes for books', 'pipe generate controller Book --crud']]
  })

  name = Option.String({name: 'Name'})

  crud = Option.Boolean('--crud', false, {description: 'Add the six auto-CRUD routes, e.g. `--crud`'})

  force = Option.Boolean('--force', false, {description: 'Replace an existing file, e.g. `--force`'})

  override async execute(): Promise<number> {
    const {controllerDefinition} = await import('../../runtime/generate.js')
    const definition = controllerDefinition(this.name, this.crud)
    return writeNew(this, `src/controller/${definition.name}.json`, JSON.stringify(definition, null, 2) + '\n', this.force)
  }
}
