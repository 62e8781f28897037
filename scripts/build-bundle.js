// Bundles the CLI's own modules (dist/cli/main.js and what it imports from dist/) into dist/bundle/ with esbuild,
// one file per lazily imported part of it. Node's module loader pays for every file it resolves, reads and links:
// `pipe map` loaded 52 of apipe's files, about 40 ms of every command. Packages stay external, loaded as installed,
// so user plugins and code that import `apipe` or `apipe-kit/runtime` share them with the CLI.
import {build} from 'esbuild'

await build({
  entryPoints: {main: 'dist/cli/main.js'},
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning'
})
