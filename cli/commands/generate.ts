import {Command, Option} from 'clipanion'
import {projectOption, usageError} from '../options.js'
import {makeFolder} from '../../pipeline/make-folder.js'

/** Shared: write `content` to `file` under the working directory unless it exists (or `--force`). */
async function writeNew(command: Command, file: string, content: string, force: boolean): Promise<number> {
  const {writeFile, access} = await import('node:fs/promises')
  const path = await import('node:path')
  const exists = await access(file).then(() => true, () => false)
  if (exists && !force) {
    command.context.stderr.write(`Refusing to overwrite \`${file}\`; pass --force to replace it\n`)
    return 1
  }
  makeFolder(path.dirname(file))
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
      entity gets a required \`title\`. \`timestamps\` is on. An existing file is kept unless \`--force\`. A \`Next:\` line
      names what is left: the controller for its routes (when it has none) and the migration for its table.
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
    const {entityDefinition, entitySource, parseFields, schemaOf} = await import('../../runtime/generate.js')
    let definition
    try {
      definition = entityDefinition(this.name, parseFields(this.fields))
    } catch (error) {
      return usageError(this, (error as Error).message)
    }
    const content = this.code ? entitySource(definition) : JSON.stringify({$schema: schemaOf('entity'), ...definition}, null, 2) + '\n'
    const code = await writeNew(this, `src/entities/${definition.name}.${this.code ? 'ts' : 'json'}`, content, this.force)
    if (code !== 0) return code
    // An entity alone has a table but no routes: say what makes it reachable and stored.
    const {existsSync} = await import('node:fs')
    const routed = ['json', 'ts'].some((extension) => existsSync(`src/controller/${definition.name}.${extension}`))
    const migration = `\`pipe migrate create add-${definition.name.replace(/_/g, '-')}\` and \`pipe migrate\` for its table`
    // The name as typed when it can be typed again as it is (`BookReview`), else as the entity is named (`bad name!` -> `bad_name`).
    const name = /^[A-Za-z][\w-]*$/.test(this.name) ? this.name : definition.name
    this.context.stdout.write(`Next: ${routed ? migration : `\`pipe generate controller ${name} --crud\` for its routes, ${migration}`}\n`)
    return 0
  }
}

/** `pipe generate controller <Name>`: a controller definition. */
export class GenerateControllerCommand extends Command {
  static override paths = [['generate', 'controller']]

  static override usage = Command.Usage({
    description: 'Write a controller definition (src/controller/<name>.json)',
    details: `
      With \`--crud\` the routes cover the six auto-CRUD actions on the plural path: \`GET /books\` list,
      \`GET /books/count\` count, \`GET /books/{id}\` read, \`POST /books\` create, \`PATCH /books/{id}\` and
      \`PUT /books/{id}\` update, \`DELETE /books/{id}\` delete. An existing file is kept unless \`--force\`.
    `,
    examples: [['CRUD routes for books', 'pipe generate controller Book --crud']]
  })

  name = Option.String({name: 'Name'})

  crud = Option.Boolean('--crud', false, {description: 'Add the six auto-CRUD routes, e.g. `--crud`'})

  force = Option.Boolean('--force', false, {description: 'Replace an existing file, e.g. `--force`'})

  override async execute(): Promise<number> {
    const [{controllerDefinition, schemaOf}, {existsSync}] = await Promise.all([import('../../runtime/generate.js'), import('node:fs')])
    const definition = controllerDefinition(this.name, this.crud)
    // CRUD routes act on an entity of the same name: without one, the project would no longer load.
    const entity = typeof definition.entity === 'string' ? definition.entity : undefined
    if (entity && !['json', 'ts', 'js', 'mts', 'mjs'].some((extension) => existsSync(`src/entities/${entity}.${extension}`))) {
      this.context.stderr.write(`No entity \`${entity}\` in src/entities for the CRUD routes to act on; write it first: \`pipe generate entity ${entity}\`\n`)
      return 1
    }
    return writeNew(this, `src/controller/${definition.name}.json`, JSON.stringify({$schema: schemaOf('controller'), ...definition}, null, 2) + '\n', this.force)
  }
}

/** `pipe generate test <Name>`: tests of a controller's CRUD routes. */
export class GenerateTestCommand extends Command {
  static override paths = [['generate', 'test']]

  static override usage = Command.Usage({
    description: "Write tests of a controller's routes (tests/<name>.test.ts)",
    details: `
      Reads the project's definitions and writes uvu tests that use \`createTestApp()\` from \`apipe-kit/runtime\`:
      create (201, Location, the record read back), create with an empty body (422 naming each required field),
      list (the page meta), update and delete, for the routes the controller has. Sample values follow the field
      types; a required many-to-one is created first through its own controller. Routes behind \`auth: true\` get
      the token of a user the test stores with the roles they ask for. \`npm test\` (\`pipe test\`) runs them. An
      existing file is kept unless \`--force\`.
    `,
    examples: [['Tests of the book routes', 'pipe generate test Book']]
  })

  name = Option.String({name: 'Name'})

  force = Option.Boolean('--force', false, {description: 'Replace an existing file, e.g. `--force`'})

  override async execute(): Promise<number> {
    const [{entityName}, {testSource, whereOf}, {loadProject}] = await Promise.all([import('../../runtime/generate.js'), import('../../runtime/scaffold.js'), import('../../runtime/project.js')])
    let project
    try {
      project = await loadProject(process.cwd())
    } catch (error) {
      this.context.stderr.write(`${(error as {report?: string}).report ?? (error as Error).message}\n`)
      return 1
    }
    const name = entityName(this.name)
    const controller = project.controllers.find(({definition}) => definition.name === name)?.definition
    if (!controller) {
      this.context.stderr.write(`No controller \`${name}\` in ${project.config.controllers}; write one with \`pipe generate controller ${this.name} --crud\`\n`)
      return 1
    }
    const entity = project.entities.find((item) => item.name === (controller.entity ?? controller.name))
    if (!entity) {
      this.context.stderr.write(`No entity \`${controller.entity ?? controller.name}\` for controller \`${name}\`\n`)
      return 1
    }
    const related = []
    // The records a nested create is made under (`POST /articles/{slug}/comments`, `where: {"article.slug": …}`).
    const {params, sets} = whereOf(controller, 'create')
    const nestedUnder = new Set([...params.values()].map((bound) => bound.relation))
    for (const [relationName, relation] of Object.entries(entity.relations ?? {})) {
      // One the server fills (`from: "user"`, the token's user, or a `where` of the create) is no record the test
      // must make first, unless the route's path is nested under it.
      if (relation.kind !== 'many-to-one' || relation.from || (!relation.required && !nestedUnder.has(relationName))) continue
      if (sets.has(relationName) && !nestedUnder.has(relationName)) continue
      const target = project.entities.find((item) => item.name === relation.entity)
      const targetController = project.controllers.find(({definition}) => (definition.entity ?? definition.name) === relation.entity && Object.values(definition.routes).some((value) => (typeof value === 'string' ? value : value.action) === 'create'))
      if (!target || !targetController) {
        this.context.stderr.write(`\`${name}\` needs a \`${relation.entity}\` (\`${relationName}\` is required), and no controller creates one; add \`POST\` … \`create\` to a \`${relation.entity}\` controller\n`)
        return 1
      }
      // The record made first is made from its own fields only: one that needs a record of its own cannot be made so.
      const deeper = Object.entries(target.relations ?? {}).find(([, nested]) => nested.required && nested.kind === 'many-to-one' && !nested.from)
      if (deeper) {
        this.context.stderr.write(`\`${name}\` needs a \`${relation.entity}\` (\`${relationName}\` is required), which needs ${/^[aeiou]/i.test(deeper[1].entity) ? 'an' : 'a'} \`${deeper[1].entity}\` of its own (\`${relation.entity}.${deeper[0]}\` is required); pipe generate test makes related records one level deep: write this test by hand, or generate one for \`${relation.entity}\`\n`)
        return 1
      }
      related.push({relation: relationName, entity: target, controller: targetController.definition})
    }
    const authEntity = project.config.auth?.entity ? project.entities.find((item) => item.name === project.config.auth!.entity) : undefined
    const auth = authEntity ? {entity: authEntity, byDefault: project.config.auth?.default === true} : undefined
    return writeNew(this, `tests/${name}.test.ts`, testSource(entity, controller, related, auth, {ownErrorBody: project.formatProblem !== undefined}), this.force)
  }
}

/** `pipe generate types`: the entities' record types for user code, from the definitions. */
export class GenerateTypesCommand extends Command {
  static override paths = [['generate', 'types']]

  static override usage = Command.Usage({
    description: 'Write the entities\' record types for hooks and actions (src/apipe-types.d.ts)',
    details: `
      Reads the project's definitions and writes \`src/apipe-types.d.ts\`, which fills \`Entities\` and \`AuthEntity\`
      of \`apipe-kit/runtime\`: \`ctx.db.findOne('user', …)\` is then typed as the user's record and \`ctx.user.record\` as
      the auth entity's, without casts. Run it again after changing an entity; the file is always replaced.
    `,
    examples: [['Types for the project in the current folder', 'pipe generate types']]
  })

  project = projectOption()

  override async execute(): Promise<number> {
    const [{typesSource}, {loadProject}, path] = await Promise.all([import('../../runtime/scaffold.js'), import('../../runtime/project.js'), import('node:path')])
    let project
    try {
      project = await loadProject(path.resolve(this.project))
    } catch (error) {
      this.context.stderr.write(`${(error as {report?: string}).report ?? (error as Error).message}\n`)
      return 1
    }
    const {writeFile} = await import('node:fs/promises')
    const target = path.join(project.root, 'src/apipe-types.d.ts')
    makeFolder(path.dirname(target))
    await writeFile(target, typesSource(project.entities, project.config.auth?.entity))
    this.context.stdout.write(`Wrote ${path.relative(process.cwd(), target) || target}\n`)
    return 0
  }
}
