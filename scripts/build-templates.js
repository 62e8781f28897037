// Precompiles the page template of render-html to dist/plugins/render-html/page.njk.cjs, so that `pipe render` and
// `pipe map` skip nunjucks' lexer, parser and compiler (about 15 ms a page). The module keeps its source: render-html
// compiles at run time instead when page.njk has changed since the build.
import {writeFile} from 'node:fs/promises'
import {precompiledTemplate} from '../dist/plugins/render-html/index.js'

await writeFile(new URL('../dist/plugins/render-html/page.njk.cjs', import.meta.url), precompiledTemplate())
