// Bundles the CLI's own modules (dist/cli/main.js and what it imports from dist/) into dist/bundle/ with esbuild,
// one file per lazily imported part of it. Node's module loader pays for every file it resolves, reads and links:
// `pipe map` loaded 52 of apipe's files, about 40 ms of every command. Packages stay external, loaded as installed,
// so user plugins and code that import `apipe` or `apipe-kit/runtime` share them with the CLI — except the Markdown
// stack of the page (markdown-it and htmlparser2, and the small modules under them, which only render-html uses):
// bundled into the page's chunk, it loads in one file instead of costing every `pipe render` and `pipe map` tens of
// milliseconds of module resolution.
import {build} from 'esbuild'
import {rmSync} from 'node:fs'
import path from 'node:path'

/**
 * The packages bundled with their whole dependency trees: the page's Markdown stack; clipanion, the command line
 * parser, which only the CLI uses (28 files when loaded as installed); and unified with vfile and their small helper
 * packages, which every command loads (20 files as installed, 10–15 ms of a `pipe diff`). None of these hands objects
 * to user code that checks their class: a plugin gets the processor and the vfile it runs on, whatever copy made them.
 */
const bundledRoots =
  /^(markdown-it|htmlparser2|clipanion|unified|trough|bail|devlop|extend|is-plain-obj|vfile|vfile-message|vfile-statistics|unist-util-stringify-position|dset|leven)$/

/** esbuild plugin: every package import is external, but the bundled roots and what they import. */
const externalButBundled = {
  name: 'external-but-bundled',
  setup(context) {
    context.onResolve({filter: /^[^./]/}, (args) => {
      if (args.kind === 'entry-point' || path.isAbsolute(args.path)) return undefined
      const fromPackage = args.importer.split(path.sep).includes('node_modules')
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0]
      // node: built-ins and what our own modules import stay external; what a bundled package imports is bundled.
      if (args.path.startsWith('node:') || (!fromPackage && !bundledRoots.test(name))) return {path: args.path, external: true}
      return undefined
    })
  }
}

// Chunk names carry content hashes: what an earlier build wrote would stay beside the new files.
rmSync('dist/bundle', {recursive: true, force: true})

await build({
  entryPoints: {main: 'dist/cli/main.js'},
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [externalButBundled],
  // clipanion is CommonJS: its `require('tty')` needs a `require` in these ES modules.
  banner: {js: "import {createRequire as __createRequire} from 'node:module'; const require = __createRequire(import.meta.url);"},
  logLevel: 'warning'
})
