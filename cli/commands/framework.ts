import {Command, Option} from 'clipanion'
import {projectOption, usageError, useColor} from '../options.js'
import {makeFolder} from '../../pipeline/make-folder.js'
import type {Project} from '../../runtime/project.js'
import type {ProjectInfo} from '../../runtime/config.js'
import type {DocumentParts} from '../../runtime/openapi.js'

/**
 * Print why a project cannot run: its findings (one line each, file and place first), or one line for a database
 * that cannot open, a port that cannot be had or anything else that stops the start — never a stack trace.
 */
function reportFailure(command: Command, error: unknown): number {
  const name = (error as {name?: string}).name
  if (name === 'ProjectError') command.context.stderr.write(`${(error as {report: string}).report}\n`)
  else command.context.stderr.write(`pipe: ${String((error as Error)?.message ?? error).split('\n')[0]}\n`)
  return 1
}

/** `pipe init <dir>`: a runnable project. */
export class InitCommand extends Command {
  static override paths = [['init']]

  static override usage = Command.Usage({
    description: 'Create a framework project',
    details: `
      Writes a runnable project into \`<dir>\`: \`pipe.config.json\` on SQLite, an example \`post\` entity and its CRUD
      controller, an example hook (\`src/hooks/post/beforeCreate.ts\`) and middleware (\`src/middleware/requestId.ts\`),
      its first migration, a test, package.json with the scripts \`dev\`, \`start\`, \`test\` and \`migrate\`, a
      README and a .gitignore. The project depends on apipe-kit as the running pipe came: the registry version, a
      \`file:\` link to the checkout it runs from, or one to the package file it was installed from
      (\`npm install ./apipe-kit-0.1.0.tgz\`). Refuses a folder that is not empty unless \`--force\`.
    `,
    examples: [['A new project', 'pipe init my-api && cd my-api && npm install && npm run migrate && npm run dev']]
  })

  dir = Option.String({name: 'dir'})

  force = Option.Boolean('--force', false, {description: 'Write into a folder that is not empty, e.g. `--force`'})

  override async execute(): Promise<number> {
    const [{readdir, readFile, writeFile}, path, {apipeDependency, projectFiles}, {planMigration}, {migrationSource, nextMigrationName}, {packageRoot}] = await Promise.all([
      import('node:fs/promises'),
      import('node:path'),
      import('../../runtime/scaffold.js'),
      import('../../runtime/migrations/plan.js'),
      import('../../runtime/migrations/files.js'),
      import('../../pipeline/schemas.js')
    ])
    const existing = await readdir(this.dir).catch(() => [] as string[])
    if (existing.length > 0 && !this.force) {
      this.context.stderr.write(`Refusing to write into \`${this.dir}\`: it is not empty; pass --force to write anyway\n`)
      return 1
    }
    const {version, dependencies} = JSON.parse(await readFile(path.join(packageRoot, 'package.json'), 'utf8')) as {version: string; dependencies: Record<string, string>}
    const apipe = apipeDependency(packageRoot, version)
    const files = projectFiles(path.basename(path.resolve(this.dir)), apipe.spec, dependencies.uvu)
    const entity = JSON.parse(files['src/entities/post.json']) as import('../../schemas/types/entity.js').EntityDefinition
    const {$schema: _, ...snapshot} = entity
    const plan = await planMigration('sqlite', [], [entity])
    const name = nextMigrationName([], 'init')
    files[`migrations/${name}.js`] = migrationSource({name, database: 'sqlite', up: plan.up, down: plan.down, entities: [snapshot]})
    for (const [file, content] of Object.entries(files)) {
      const target = path.join(this.dir, file)
      makeFolder(path.dirname(target))
      await writeFile(target, content.endsWith('\n') ? content : `${content}\n`)
    }
    const from = {registry: 'the registry', checkout: 'the checkout this pipe runs from', 'package file': 'the package file this pipe was installed from'}[apipe.source]
    const source = apipe.source === 'registry' ? `apipe-kit ${apipe.spec} from ${from}` : `apipe-kit from ${apipe.spec} (${from})`
    this.context.stdout.write(`Created ${this.dir}: ${Object.keys(files).length} files, depending on ${source}\nNext: cd ${this.dir} && npm install && npm run migrate && npm run dev\n`)
    return 0
  }
}

/** Start the project's server; resolves when it stops. */
async function serveProject(command: Command & {project: string}, mode: 'dev' | 'start'): Promise<number> {
  const [{serve}] = await Promise.all([import('../../runtime/serve.js')])
  try {
    return await serve(command.context, command.project, mode)
  } catch (error) {
    // A server that cannot start exits at once, so that a supervisor restarts it or alerts, whatever is still open.
    process.exit(reportFailure(command, error))
  }
}

/** `pipe dev`: the server, reloaded on change. */
export class DevCommand extends Command {
  static override paths = [['dev']]

  static override usage = Command.Usage({
    description: 'Run the server for development, reloading on change',
    details: `
      Serves the project on \`port\` of pipe.config.json (the \`PORT\` environment variable wins) and reloads
      definitions, hooks, middleware and services when a file under \`src/\` or pipe.config.json changes, keeping the
      port. One log line per request. A change that breaks the project prints its findings and keeps the last good
      version running.
    `,
    examples: [['Serve the project in this folder', 'pipe dev']]
  })

  project = projectOption()

  override async execute(): Promise<number> {
    return serveProject(this, 'dev')
  }
}

/** `pipe start`: the server for production. */
export class StartCommand extends Command {
  static override paths = [['start']]

  static override usage = Command.Usage({
    description: 'Run the server for production',
    details: `
      Serves the project with JSON logs (pino). On SIGTERM or SIGINT it stops accepting connections, closes idle
      keep-alive ones, answers 503 to new requests on busy ones, finishes the requests in flight (a body still uploading included) for up to
      \`requestTimeout\`, closes the database and exits 0. With
      \`--workers\`, several processes serve the port and a worker that dies is replaced.
    `,
    examples: [
      ['Serve on port 8080', 'PORT=8080 pipe start'],
      ['One worker per core, on one port', 'pipe start --workers auto']
    ]
  })

  project = projectOption()

  workers = Option.String('--workers,-w', {description: 'Processes serving one port: a number, or `auto` for one per core (default: 1); a worker that dies is replaced'})

  override async execute(): Promise<number> {
    const cluster = (await import('node:cluster')).default
    // A worker's channel to its primary would keep it alive after a graceful stop: it exits once it has stopped.
    if (cluster.isWorker) process.exit(await serveProject(this, 'start'))
    if (this.workers === undefined) return serveProject(this, 'start')
    const {superviseWorkers, workerCount} = await import('../../runtime/cluster.js')
    const count = workerCount(this.workers)
    if (count === undefined) return usageError(this, `--workers takes a whole number from 1, or \`auto\`; got \`${this.workers}\``)
    return count === 1 ? serveProject(this, 'start') : superviseWorkers(this.context, count)
  }
}

/** `pipe test`: the project's tests. */
export class TestCommand extends Command {
  static override paths = [['test']]

  static override usage = Command.Usage({
    description: "Run the project's tests",
    details: `
      Runs \`tests/**/*.test.ts\` (and \`.js\`) with uvu, TypeScript through tsx, \`NODE_ENV=test\`. \`createTestApp()\`
      from \`apipe-kit/runtime\` gives each test an app on a throw-away database (in-memory SQLite; set
      \`APIPE_TEST_DATABASE_URL\` and \`APIPE_TEST_DATABASE_TYPE\` for a server). Exits with the tests' status.
    `,
    examples: [['Run the tests', 'pipe test'], ['Only the post tests', 'pipe test post']]
  })

  pattern = Option.String({required: false, name: 'pattern'})

  project = projectOption()

  override async execute(): Promise<number> {
    const [{spawn}, path, {createRequire}, {pathToFileURL}] = await Promise.all([import('node:child_process'), import('node:path'), import('node:module'), import('node:url')])
    const require = createRequire(import.meta.url)
    // uvu's package exports hide bin.js; it sits beside dist/.
    const uvu = path.resolve(path.dirname(require.resolve('uvu')), '..', 'bin.js')
    // Resolved as `import.meta.resolve` would (tsx exports one file for every condition), from CommonJS too.
    const tsx = pathToFileURL(require.resolve('tsx')).href
    const pattern = `${this.pattern ? `${this.pattern.replace(/[^\w-]/g, '')}.*` : ''}\\.test\\.(ts|mts|js|mjs)$`
    // uvu runs nothing and passes when nothing matches: a typo in the pattern would look like a green run.
    const {existsSync, readdirSync} = await import('node:fs')
    const folder = path.resolve(this.project, 'tests')
    const files = (() => {
      try {
        return readdirSync(folder, {recursive: true}).map(String)
      } catch {
        return []
      }
    })()
    const matcher = new RegExp(pattern)
    if (!files.some((file) => matcher.test(file))) {
      this.context.stderr.write(`No test file in ${path.relative(process.cwd(), folder) || '.'}/ ${this.pattern ? `matches \`${this.pattern}\`` : 'ends in `.test.ts` or `.test.js`'}\n`)
      return 1
    }
    // The tests import uvu and apipe-kit from the project: without them every file would fail with Node's stack trace.
    const projectRequire = createRequire(path.join(path.resolve(this.project), 'package.json'))
    // Looked up as Node looks a package up (each node_modules above), whatever the package's exports let a require see.
    const missing = ['uvu', 'apipe-kit'].filter((name) => !(projectRequire.resolve.paths(name) ?? []).some((folder) => existsSync(path.join(folder, name, 'package.json'))))
    if (missing.length > 0) {
      this.context.stderr.write(`The tests import ${missing.map((name) => `\`${name}\``).join(' and ')}, which this project does not have: run \`npm install --save-dev ${missing.join(' ')}\` (a \`pipe init\` project lists them; run \`npm install\`)\n`)
      return 1
    }
    return new Promise<number>((resolve) => {
      // uvu colours its report unless told not to: colour for a terminal only, as every other command does.
      const colour = useColor(undefined, process.stdout)
      const child = spawn(process.execPath, ['--import', tsx, uvu, 'tests', pattern, ...(colour ? [] : ['--no-color'])], {
        cwd: path.resolve(this.project),
        env: {...process.env, NODE_ENV: 'test'},
        stdio: ['ignore', 'inherit', 'inherit']
      })
      child.on('close', (code) => resolve(code ?? 1))
    })
  }
}

/** `pipe openapi`: the OpenAPI 3.1 document of the project. */
export class OpenapiCommand extends Command {
  static override paths = [['openapi']]

  static override usage = Command.Usage({
    description: 'Write the OpenAPI 3.1 document of a framework project',
    details: `
      Describes every route of the project: parameters, request bodies with the JSON Schemas the server validates
      with, responses with the entity schemas, errors as RFC 9457 problems, bearer security on authenticated
      routes. The running server serves the same document at \`/openapi.json\`.
    `,
    examples: [['Write openapi.json', 'pipe openapi --output openapi.json']]
  })

  project = projectOption()

  output = Option.String('--output,-o', 'openapi.json', {description: 'File to write (default: `openapi.json`), e.g. `--output docs/openapi.json`'})

  override async execute(): Promise<number> {
    const {openapiDocument} = await import('../../runtime/openapi.js')
    return writeProjectDocument(this, this.project, this.output, openapiDocument)
  }
}

/** `pipe asyncapi`: the AsyncAPI 3.0 document of the project's declared events. */
export class AsyncapiCommand extends Command {
  static override paths = [['asyncapi']]

  static override usage = Command.Usage({
    description: 'Write the AsyncAPI 3.0 document of a framework project\'s events',
    details: `
      One channel per declared event (entities' \`events\`, custom actions' \`events\`), addressed by its subject
      (\`events.prefix\` and the type), one \`send\` operation tagged with its controller, and the entity schemas
      as payloads. \`pipe import asyncapi\` reads it back to the EVENT rows that \`pipe map\` lists.
    `,
    examples: [['Write asyncapi.json', 'pipe asyncapi --output asyncapi.json']]
  })

  project = projectOption()

  output = Option.String('--output,-o', 'asyncapi.json', {description: 'File to write (default: `asyncapi.json`), e.g. `--output docs/asyncapi.json`'})

  override async execute(): Promise<number> {
    const {asyncapiDocument} = await import('../../runtime/asyncapi.js')
    return writeProjectDocument(this, this.project, this.output, asyncapiDocument)
  }
}

type ProjectDocument = (config: Project['config'], entities: Project['entities'], controllers: Project['controllers'], info: ProjectInfo, options: DocumentParts) => unknown

/** Load the project, write the document it describes as JSON, and say where. */
async function writeProjectDocument(command: Command, project: string, output: string, build: ProjectDocument): Promise<number> {
  const [{writeFile}, path, {loadProject}, {projectInfo}] = await Promise.all([
    import('node:fs/promises'),
    import('node:path'),
    import('../../runtime/project.js'),
    import('../../runtime/config.js')
  ])
  try {
    const loaded = await loadProject(path.resolve(project))
    const document = build(loaded.config, loaded.entities, loaded.controllers, projectInfo(loaded.root), {errorSchema: loaded.problemSchema, authSchemes: loaded.authSchemes})
    makeFolder(path.dirname(path.resolve(output)))
    await writeFile(output, JSON.stringify(document, null, 2) + '\n')
    command.context.stdout.write(`Wrote ${output}\n`)
    return 0
  } catch (error) {
    return reportFailure(command, error)
  }
}
