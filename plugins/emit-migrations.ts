/**
 * emit-migrations: compare a project's entity definitions with the snapshot of its newest migration and, when they
 * differ, either write the next migration (`create`) or warn that one is missing (`pending-migration`, so that CI
 * can catch a change committed without its migration).
 *
 * Steps that could lose data (drop a table or column, narrow a type or an enum, NOT NULL without a default) are
 * `destructive-migration` errors in the definition at fault, and no migration is written, unless
 * `allowDestructive` (`pipe migrate create --allow-destructive`) turns them into warnings.
 */
import path from 'node:path'
import {isDeepStrictEqual} from 'node:util'
import type {Processor} from 'unified'
import {VFile} from 'vfile'
import {addOutput, hasErrors} from '../pipeline/data.js'
import {ApipeError} from '../pipeline/errors.js'
import type {JsonPath} from '../pipeline/json-path.js'
import {defineRule, fatalFinding, ruleSet} from '../pipeline/rule.js'
import {fieldColumn, relationColumn} from '../runtime/entity-schema.js'
import {lastSnapshot, listMigrationFiles, migrationSource, moduleExtension, nextMigrationName} from '../runtime/migrations/files.js'
import {changedElsewhere, planMigration, UnplannableChange, type DestructiveStep, type MigrationPlan} from '../runtime/migrations/plan.js'
import type {EntityDefinition} from '../schemas/types/entity.js'
import type {DefinitionsTree, RelatedTree} from './parse-definitions.js'

/** Options of emit-migrations. */
export interface Options {
  /** Write the next migration, named after this (`true`: `migration`). Without it, changes are a warning. */
  create?: string | boolean
  /** Write the migration even with destructive steps (they become warnings). */
  allowDestructive?: boolean
}

declare module 'vfile' {
  interface DataMap {
    /** The migration that emit-migrations planned (and, with `create`, wrote as an output). */
    migration: MigrationPlan & {
      name?: string
      file?: string
      destructiveAllowed?: boolean
      /** Another database type the change takes statements on, when it takes none on the project's own. */
      elsewhere?: {type: string; statements: number}
    }
  }
}

/** Rule `destructive-migration` (error; a warning with `allowDestructive`): a step that could lose data. */
export const destructiveMigration = defineRule<DefinitionsTree>({id: 'destructive-migration', severity: 'error'}, (tree, file, report) => {
  for (const step of file.data.migration?.destructive ?? []) {
    const {target, where} = placeOf(step, tree, file)
    const why = file.data.migration?.destructiveAllowed ? ' (allowed by --allow-destructive)' : '; pass --allow-destructive to write it anyway'
    report(`Destructive step: ${step.description}${why}`, {path: where, file: target})
  }
})

/** Rule `pending-migration` (warning): the definitions changed and no migration says so. */
export const pendingMigration = defineRule<DefinitionsTree>({id: 'pending-migration', severity: 'warn'}, (_tree, file, report) => {
  const statements = file.data.migration?.up.length ?? 0
  const elsewhere = file.data.migration?.elsewhere
  if (statements === 0 && !elsewhere) return
  const count = elsewhere ? `none here, ${elsewhere.statements} statement(s) on ${elsewhere.type}` : `${statements} statement(s)`
  const message = report(`The definitions changed since the last migration (${count}); run \`pipe migrate create\``, {path: []})
  message.jsonPath = undefined
})

/** Plan (and with `create`, write) the next migration of a project. */
export default function emitMigrations(this: Processor, options: Options = {}) {
  const rules = this.data('settings')?.rules ?? {}
  const checkSteps = ruleSet([destructiveMigration], options.allowDestructive ? {'destructive-migration': 'warn'} : {}, rules)
  const checkPending = options.create ? undefined : ruleSet([pendingMigration], {}, rules)
  return async (tree: DefinitionsTree | RelatedTree, file: VFile) => {
    if (tree.type !== 'definitions' || hasErrors(file) || (file.data.related ?? []).some(hasErrors)) return
    const directory = path.resolve(tree.root, tree.config.migrations)
    const entities = tree.entities.map(({definition}) => definition)
    let plan: MigrationPlan
    let snapshot: EntityDefinition[]
    try {
      snapshot = await lastSnapshot(directory)
      plan = await planMigration(tree.config.database.type, snapshot, entities)
    } catch (error) {
      if (error instanceof UnplannableChange) {
        fatalFinding(file, error.message, 'migration-plan')
        return
      }
      if (!(error instanceof ApipeError)) throw error
      fatalFinding(file, error.message, 'migration-file')
      return
    }
    // A change that is nothing on this database may be statements on another the same migrations serve; definitions
    // that are the snapshot's (the usual case) are nothing anywhere, and need no other plan.
    const unchanged = plan.up.length === 0 && isDeepStrictEqual(snapshot, entities.map(snapshotOf))
    const elsewhere = plan.up.length === 0 && !unchanged ? await changedElsewhere(tree.config.database.type, snapshot, entities) : undefined
    file.data.migration = {...plan, destructiveAllowed: options.allowDestructive === true, ...(elsewhere ? {elsewhere} : {})}
    if (plan.up.length === 0 && !elsewhere) return
    checkSteps?.(tree, file)
    checkPending?.(tree, file)
    if (!options.create || [file, ...(file.data.related ?? [])].some(hasErrors)) return
    const existing = listMigrationFiles(directory)
    const name = nextMigrationName(existing, typeof options.create === 'string' ? options.create : 'migration')
    const full = path.join(directory, name + moduleExtension(directory))
    const value = migrationSource({name, database: tree.config.database.type, up: plan.up, down: plan.down, entities: entities.map(snapshotOf)})
    addOutput(file, new VFile({cwd: file.cwd, path: path.relative(file.cwd, full), value}))
    file.data.migration = {...file.data.migration, name, file: full}
  }
}

/**
 * A definition as the snapshot keeps it: without extension data. Rename hints stay: a portable migration derives its
 * statements from the snapshots when it runs, and `renamedFrom` is what makes a rename keep its data there too.
 */
function snapshotOf(definition: EntityDefinition): EntityDefinition {
  return JSON.parse(JSON.stringify(definition, (key, value: unknown) => (key.startsWith('x-') || key === '$schema' ? undefined : value))) as EntityDefinition
}

/** `created_at` -> `createdAt` style lookup: the field or relation of an entity a column belongs to. */
function fieldOfColumn(definition: EntityDefinition, column: string): JsonPath | undefined {
  for (const name of Object.keys(definition.fields)) if (fieldColumn(name) === column) return ['fields', name]
  for (const name of Object.keys(definition.relations ?? {})) if (relationColumn(name) === column) return ['relations', name]
  return undefined
}

/** The definition file (and the field in it) a destructive step comes from; the project file when it is gone. */
function placeOf(step: DestructiveStep, tree: DefinitionsTree, project: VFile): {target: VFile; where: JsonPath} {
  const owner = tree.entities.find(({definition}) => (definition.table ?? definition.name) === step.table || step.table.startsWith(`${definition.table ?? definition.name}_`))
  if (!owner) return {target: project, where: ['entities']}
  const field = step.column ? fieldOfColumn(owner.definition, step.column) : undefined
  return {target: owner.file, where: field ?? (step.column ? ['fields'] : ['name'])}
}
