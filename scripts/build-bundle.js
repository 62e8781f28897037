// Bundles the CLI's own modules (dist/cli/main.js and what it imports from dist/) into dist/bundle/ with esbuild,
// one file per lazily imported part of it. Node's module loader pays for every file it resolves, reads and links:
// `pipe map` loaded 52 of apipe's files, about 40 ms of every command. Packages stay external, loaded as installed,
// so user plugins and code that import `apipe` or `apipe-kit/runtime` share them with the CLI — except the Markdown
// stack of the page (remark, rehype and the ~200 small modules under them, which only render-html uses, through
// processors of its own): bundled into the page's chunk, it loads in one file instead of costing every `pipe render`
// and `pipe map` about 150 ms of module resolution.
import {build} from 'esbuild'
import path from 'node:path'

/** The packages the page's Markdown module imports, whose whole dependency trees are bundled with it. */
const markdownRoots = /^(remark-parse|remark-gfm|remark-rehype|rehype-raw|rehype-sanitize|rehype-stringify)$/

/** esbuild plugin: every package import is external, but the Markdown stack and what it imports. */
const externalButMarkdown = {
  name: 'external-but-markdown',
  setup(context) {
    context.onResolve({filter: /^[^./]/}, (args) => {
      if (args.kind === 'entry-point' || path.isAbsolute(args.path)) return undefined
      const fromPackage = args.importer.split(path.sep).includes('node_modules')
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0]
      // node: built-ins and what our own modules import stay external; what a bundled package imports is bundled.
      if (args.path.startsWith('node:') || (!fromPackage && !markdownRoots.test(name))) return {path: args.path, external: true}
      return undefined
    })
  }
}

await build({
  entryPoints: {main: 'dist/cli/main.js'},
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [externalButMarkdown],
  logLevel: 'warning'
})
