/**
 * The page template and how it is compiled: `npm run build` precompiles it (scripts/build-templates.js) so that a
 * command does not run nunjucks' lexer, parser and compiler on every page.
 */
import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {packageRoot} from '../../pipeline/schemas.js'

const require = createRequire(import.meta.url)

/** Where the page's template, stylesheet and scripts are. */
export const assetDir = path.join(packageRoot, 'plugins', 'render-html')

/** The nunjucks environment options of the page template. */
export const environmentOptions = {autoescape: true, trimBlocks: true, lstripBlocks: true}

/**
 * The page template compiled by nunjucks, as a CommonJS module that keeps the source it was compiled from; `npm run
 * build` writes it to `dist/plugins/render-html/page.njk.cjs` (scripts/build-templates.js; package.json names it
 * `#page-template`) so that a command does not run nunjucks' lexer, parser and compiler on every page.
 */
export function precompiledTemplate(): string {
  const nunjucks = require('nunjucks') as typeof import('nunjucks')
  const source = readFileSync(path.join(assetDir, 'page.njk'), 'utf8')
  const env = new nunjucks.Environment(null, environmentOptions)
  return nunjucks.precompileString(source, {
    name: 'page.njk',
    env,
    wrapper: (templates) => {
      const [{template}] = templates as unknown as Array<{template: string}>
      return `module.exports = {source: ${JSON.stringify(source)}, template: (function () {\n${template}\n})()}\n`
    }
  })
}

