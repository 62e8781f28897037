/**
 * render-docs: render a document template (nunjucks) that asks for the sentences of one or more catalogues, and add
 * the document as an output (`docs/api.md.njk` -> `docs/api.md`). The template sees:
 *
 * - `endpoints`: the first catalogue's sections: `operations`, `types` (lists that print in the document's format:
 *   Markdown `- ` items, HTML `<ul>`, text lines; and iterate as sentence objects with `method`, `path`, `id`,
 *   `group`, `tags`, `summary`, `text`, or `name`, `kind`, `text`), `meta` and `groups`;
 * - `catalogues.<name>`: the same for each catalogue (the name is the file name without `.endpoints.json`, or the key
 *   when the setting maps names to paths);
 * - filters `group('id')`, `tag('t')`, `method('GET')` and `kind('enum')` that narrow a list and keep it printable.
 *
 * HTML documents are autoescaped. A catalogue with errors, an unknown section or catalogue, and a template error are
 * findings with line:column (in the spec or the template), and then no document is written.
 */
import path from 'node:path'
import {createRequire} from 'node:module'
import type {Processor} from 'unified'
import {VFile} from 'vfile'
import type {TemplateTree} from '../parse-template.js'
import {addOutput} from '../../pipeline/data.js'
import {docsUrl, fatalFinding, source as apipe} from '../../pipeline/rule.js'
import {catalogueRefs, loadCatalogues, type CatalogueSetting, type LoadedCatalogue} from './catalogues.js'
import {checkReferences, firstUse} from './references.js'
import {guard, ListPrinter, templateSections, type DocumentFormat} from './sections.js'
import {templatePlace} from './template-place.js'

/** Options of render-docs. */
export interface Options {
  /** The catalogue(s) the document asks about (default: the `catalogue` setting). Paths are relative to the working directory. */
  catalogue?: CatalogueSetting
}

declare module 'unified' {
  interface Settings {
    /** The catalogue(s) documents ask about: a path, a list of paths, or names mapped to paths. */
    catalogue?: CatalogueSetting
  }
}

const require = createRequire(import.meta.url)

/** Render document templates. */
export default function renderDocs(this: Processor, options: Options = {}) {
  const settings = this.data('settings') ?? {}
  const refs = catalogueRefs(options.catalogue ?? settings.catalogue)
  return async (tree: TemplateTree, file: VFile) => {
    if (tree.type !== 'template') return
    if (refs.length === 0) {
      fail(file, 'Missing catalogue, expected the `catalogue` setting (e.g. `--setting catalogue=api.endpoints.json`)', 1, 1)
      return
    }
    const catalogues = await loadCatalogues(refs, file.cwd, settings)
    if (reportCatalogueErrors(file, catalogues, tree.source)) return
    const names = catalogues.map((catalogue) => catalogue.name)
    const problems = checkReferences(tree.source, names)
    for (const problem of problems) {
      const {line, column} = pointAt(tree.source, problem.offset)
      fail(file, problem.reason, line, column)
    }
    if (problems.length > 0) return
    const document = render(tree.source, file, catalogues)
    if (document !== undefined) addOutput(file, new VFile({cwd: file.cwd, path: file.path.slice(0, -'.njk'.length), value: document}))
  }
}

function render(template: string, file: VFile, catalogues: LoadedCatalogue[]): string | undefined {
  const nunjucks = require('nunjucks') as typeof import('nunjucks')
  const format = formatOf(file.path.slice(0, -'.njk'.length))
  const printer = new ListPrinter(format)
  const env = new nunjucks.Environment(new nunjucks.FileSystemLoader(path.dirname(path.resolve(file.cwd, file.path))), {
    autoescape: format === 'html',
    throwOnUndefined: true,
    trimBlocks: true,
    lstripBlocks: true
  })
  const narrow = (key: 'group' | 'method' | 'kind') => (list: Array<{text: string} & Record<string, unknown>>, value: string) =>
    printer.list(list.filter((item) => item[key] === value))
  env.addFilter('group', narrow('group'))
  env.addFilter('method', narrow('method'))
  env.addFilter('kind', narrow('kind'))
  env.addFilter('tag', (list: Array<{text: string; tags?: string[]}>, value: string) => printer.list(list.filter((item) => item.tags?.includes(value))))
  const byName: Record<string, unknown> = {}
  for (const catalogue of catalogues) byName[catalogue.name] = templateSections(catalogue.tree!.spec, catalogue.file.data.endpoints!, printer)
  const context = {endpoints: byName[catalogues[0].name], catalogues: guard(byName, 'catalogue', Object.keys(byName))}
  try {
    return printer.finish(new nunjucks.Template(template, env, file.path).render(context))
  } catch (error) {
    const text = String((error as Error).message)
    const given = /\[Line (\d+), Column (\d+)\]/.exec(text)
    const reason = text.split('\n').slice(1).join(' ').trim().replace(/^Error: /, '') || text
    const place = given ? {line: Number(given[1]), column: Number(given[2])} : templatePlace(reason, template)
    fail(file, `Cannot render template: ${reason}${place?.note ?? ''}`, place?.line ?? 1, place?.column ?? 1)
    return undefined
  }
}

/**
 * Each error of a catalogue as a finding of the template, at the place the template first reads that catalogue
 * (1:1 when it never does), with the catalogue's own file, line and column in its reason.
 */
function reportCatalogueErrors(file: VFile, catalogues: LoadedCatalogue[], source: string): boolean {
  let failed = false
  for (const [index, catalogue] of catalogues.entries()) {
    const offset = firstUse(source, catalogue.name, index === 0)
    const place = offset === undefined ? {line: 1, column: 1} : pointAt(source, offset)
    for (const message of catalogue.file.messages) {
      if (message.fatal !== true) continue
      failed = true
      const where = message.line ? `${catalogue.path}:${message.line}:${message.column}` : catalogue.path
      const finding = file.message(`Catalogue \`${where}\`: ${message.reason}`, {ruleId: message.ruleId ?? 'catalogue', source: apipe, place})
      finding.fatal = true
      finding.url = message.url ?? `${docsUrl}#catalogue`
    }
  }
  return failed
}

function formatOf(documentPath: string): DocumentFormat {
  const extension = path.extname(documentPath).toLowerCase()
  if (extension === '.md' || extension === '.markdown') return 'markdown'
  if (extension === '.html' || extension === '.htm') return 'html'
  return 'text'
}

function pointAt(text: string, offset: number): {line: number; column: number} {
  const before = text.slice(0, offset).split('\n')
  return {line: before.length, column: before[before.length - 1].length + 1}
}

function fail(file: VFile, reason: string, line: number, column: number) {
  fatalFinding(file, reason, 'template', {line, column})
}
