/** The shapes of a loaded project's definitions, shared by the loader, the checks, the server and the plugins. */
import type {Node} from 'unist'
import type {VFile} from 'vfile'
import type {ControllerDefinition} from '../../schemas/types/controller.js'
import type {EntityDefinition} from '../../schemas/types/entity.js'
import type {ResolvedConfig} from '../config.js'
import type {CodeController} from '../define.js'

/** One definition and the file it came from. */
export interface DefinitionFile<Definition> {
  file: VFile
  definition: Definition
}

/** A controller and, for a code controller, its custom actions. */
export interface ControllerFile extends DefinitionFile<ControllerDefinition> {
  actions?: CodeController['actions']
}

/** A project's definitions, as a unified tree. */
export interface DefinitionsTree extends Node {
  type: 'definitions'
  /** The project folder (where pipe.config.json is). */
  root: string
  config: ResolvedConfig
  /** pipe.config.json as written (before `${NAME}` values are read), which `project.schema.json` checks. */
  declared: unknown
  entities: Array<DefinitionFile<EntityDefinition>>
  controllers: ControllerFile[]
  /** The names of the middleware files in `src/middleware/` (`requestId` for `requestId.ts`). */
  middleware: string[]
  /** The hook files in `src/hooks/`, by folder (a controller's name): `{post: ['beforeCreate']}`. */
  hooks: Record<string, string[]>
}

/** A file another file's plugins already read: nothing to do with it but report it. */
export interface RelatedTree extends Node {
  type: 'related'
}

/** A code definition found while reading, imported after parsing (imports are asynchronous, parsers are not). */
export interface PendingCode {
  kind: 'entity' | 'controller'
  file: VFile
  /** Absolute path of the module. */
  full: string
}

declare module 'vfile' {
  interface DataMap {
    /** The code definitions a project file names, waiting to be imported. */
    pendingCode: PendingCode[]
  }
}
