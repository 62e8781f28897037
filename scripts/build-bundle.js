// Bundles the CLI's own modules (dist/cli/main.js and what it imports from dist/) into dist/bundle/ with esbuild,
// one file per lazily imported part of it. Node's module loader pays for every file it resolves, reads and links:
// `pipe map` loaded 52 of apipe's files, about 40 ms of every command. Packages stay external, loaded as installed,
// so user plugins and code that import `apipe` or `apipe-kit/runtime` share them with the CLI — except the Markdown
// stack of the page (markdown-it and htmlparser2, and the small modules under them, which only render-html uses):
// bundled into the page's chunk, it loads in one file instead of costing every `pipe render` and `pipe map` tens of
// milliseconds of module resolution.
import {build} from 'esbuild'
import {existsSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {builtinModules, createRequire} from 'node:module'
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

/**
 * esbuild plugin: markdown-it's build lowers its classes' instance fields to calls of a Babel-style helper,
 * `_defineProperty(this, "key", value)`, which runs the key through `toPropertyKey` (two `_typeof` calls and a
 * `toPrimitive`), asks `key in this` and then assigns by a computed key: ~10 such calls for every token markdown-it
 * makes, tens of thousands of tokens on a big page, and the computed keys make each access in the helper megamorphic.
 * Each call becomes the assignment it ends in (`this.key = value`): the object is the one just constructed, and none
 * of markdown-it's classes has an accessor or an earlier field of that name, so assigning defines the same property.
 */
const directFields = {
  name: 'direct-fields',
  setup(context) {
    context.onLoad({filter: /[\\/]node_modules[\\/]markdown-it[\\/].*\.m?js$/}, (args) => {
      const source = readFileSync(args.path, 'utf8')
      const fields = /_defineProperty\(\s*this,\s*(?:\/\*[^]*?\*\/\s*)?"([A-Za-z_$][\w$]*)",\s*([^;]*?)\s*\);/g
      return fields.test(source) ? {contents: source.replace(fields, 'this.$1 = $2;'), loader: 'js'} : undefined
    })
  }
}

// Chunk names carry content hashes: what an earlier build wrote would stay beside the new files.
rmSync('dist/bundle', {recursive: true, force: true})

const {metafile} = await build({
  entryPoints: {main: 'dist/cli/main.js'},
  outdir: 'dist/bundle',
  metafile: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [externalButBundled, directFields],
  // clipanion is CommonJS: its `require('tty')` needs a `require` in these ES modules.
  banner: {js: "import {createRequire as __createRequire} from 'node:module'; const require = __createRequire(import.meta.url);"},
  logLevel: 'warning'
})

// The same CLI once more as one CommonJS script, dist/bundle/cli.cjs, for the commands that run once and exit:
// bin/pipe.js compiles it with V8's code cache (scripts/build-code-cache.js writes one per set of V8 flags), which
// Node 20 offers for scripts (`vm.Script`'s `cachedData`) but not for ES modules. A cached function skips parsing and
// compiling to bytecode on its first call; a command that loads apipe's modules and runs most of them once pays for
// that on every function it calls (see the README's performance section).
//
// The script is a function expression that bin/pipe.js calls with CommonJS's five arguments and `__import`, an
// `import()` made in bin/pipe.js: `import()` inside a `vm.Script` needs Node's experimental dynamic-import callback,
// which functions read from a code cache lose. So every `import()` of a package, a built-in or a computed path in
// apipe's own modules is written `__import()` before esbuild reads them, and the build fails if one is left.
// Packages are bundled, but those below, which load as CommonJS where they are installed: those of the servers and
// databases (never loaded by the batch commands), the native ones, and the ones loaded on demand by name
// (pipeline/lazy.ts, the page template's compiler, ajv for schemas without a standalone validator). ES-module-only
// packages cannot be required by Node 20, so the build checks that each package left outside is CommonJS. What a
// command loads that the build wrote (the standalone validators, the compiled page template, nunjucks' runtime that
// runs it: `requireBuilt('…')` in apipe's modules, see pipeline/built.ts) is taken into the script, so that its code
// cache holds their compiled code too: `requireBuilt(` becomes the `require(` esbuild follows.
const cjsExternal = [
  'fastify', '@fastify/*', 'fastify-plugin', '@mikro-orm/*', 'better-sqlite3', 'bcrypt', 'pg', 'amqplib', 'ioredis', 'nats', 'pino', 'helmet',
  'jsonwebtoken', 'graphql', 'ajv', 'ajv-formats', 'ajv-draft-04', 'js-yaml', 'yaml', 'jsonc-parser', 'tsx', 'tsx/*',
  '@readme/openapi-parser', 'tinyglobby', 'uvu'
]

/**
 * The framework's modules (dist/runtime/) and every module that imports one of them statically: the CommonJS copy
 * leaves them out and loads them as the ES modules tsc wrote, on the rare catalogue path that needs them (`pipe map`
 * of a project); the framework's commands run from the ES module bundle (bin/pipe.js). A script V8 compiles whole
 * costs memory for all of its functions, used or not: without them the script is 450 KB instead of 625, and compiling
 * it with its cache peaks ~1.5 MB lower (3.3 against 5.0 MB).
 */
const framework = new Set(Object.keys(metafile.inputs).filter((input) => input.startsWith('dist/runtime/')))
for (let grown = true; grown; ) {
  grown = false
  for (const [input, {imports}] of Object.entries(metafile.inputs)) {
    if (!framework.has(input) && imports.some((entry) => entry.kind === 'import-statement' && framework.has(entry.path))) grown = framework.add(input)
  }
}
if (framework.has('dist/cli/main.js')) throw new Error('dist/cli/main.js imports the framework statically: the CommonJS copy would hold it all')

/**
 * esbuild plugin for apipe's own modules: `import(` of a package, a built-in or a computed path becomes `__import(`,
 * and `import('./x.js')` of a framework module becomes `__import(<its URL>)`.
 */
const importThroughLoader = {
  name: 'import-through-loader',
  setup(context) {
    context.onLoad({filter: /[\\/]dist[\\/].*\.js$/}, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined
      const relativeToBundle = (specifier) => path.relative(path.resolve('dist/bundle'), path.resolve(path.dirname(args.path), specifier)).split(path.sep).join('/')
      const source = readFileSync(args.path, 'utf8')
        .replace(/(?<![\w$.])requireBuilt\((?=\s*['"])/g, 'require(')
        .replace(/(?<![\w$.])import\((?!\s*['"]\.)/g, '__import(')
        .replace(/(?<![\w$.])import\(\s*(['"])(\.[^'"]+)\1\s*\)/g, (call, quote, specifier) => {
          const target = path.relative(process.cwd(), path.resolve(path.dirname(args.path), specifier)).split(path.sep).join('/')
          return framework.has(target) ? `__import(new URL(${JSON.stringify(relativeToBundle(specifier))}, __importMetaUrl).href)` : call
        })
      return {contents: source, loader: 'js'}
    })
  }
}

const cjs = 'dist/bundle/cli.cjs'
await build({
  entryPoints: ['dist/cli/main.js'],
  outfile: cjs,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: cjsExternal,
  plugins: [importThroughLoader, directFields],
  // No comments or indentation: less for V8 to read; the ES module bundle stays readable for the servers.
  minify: true,
  charset: 'ascii',
  legalComments: 'eof',
  define: {'import.meta.url': '__importMetaUrl'},
  // ES modules are strict code, and so is their CommonJS copy.
  banner: {js: '(function (exports, require, module, __filename, __dirname, __import) {"use strict";const __importMetaUrl = require("node:url").pathToFileURL(__filename).href;'},
  footer: {js: '})'},
  logLevel: 'warning'
})

// bin/pipe.js reads the script as Latin-1, one byte a character (half the memory of UTF-16), which only ASCII text
// survives unchanged. esbuild writes strings in ASCII but leaves a few characters in regular expressions (markdown-it's
// typographer): each is written as its `\uXXXX` escape, which means the same character in a string, a regular
// expression or a comment.
const bundled = readFileSync(cjs, 'utf8').replace(/[^\x00-\x7f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
writeFileSync(cjs, bundled)
const leftImport = /(?<![\w$.])import\(/.exec(bundled)
if (leftImport) throw new Error(`${cjs}: an import() left at offset ${leftImport.index}: ${bundled.slice(leftImport.index, leftImport.index + 60)}`)
// Bundled, a module's name is gone from the script: one of package.json's `imports` still written there is loaded at
// run time (from a computed name, or a `require` that is not `requireBuilt`).
const builtNames = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).imports ?? {}).map((name) => name.replace(/\*$/, ''))
const leftBuilt = builtNames.find((name) => bundled.includes(`"${name}`) || bundled.includes(`'${name}`))
if (leftBuilt) throw new Error(`${cjs}: \`${leftBuilt}\` is loaded at run time, outside the code cache: name it in full in \`requireBuilt('…')\``)
const require = createRequire(import.meta.url)
for (const [, name] of bundled.matchAll(/\brequire\("([^"]+)"\)/g)) {
  if (name.startsWith('node:') || builtinModules.includes(name)) continue
  const file = require.resolve(name)
  const esm = file.endsWith('.mjs') || (file.endsWith('.js') && packageType(file) === 'module')
  if (esm) throw new Error(`${cjs}: \`${name}\` is an ES module, which Node 20 cannot require: bundle it (remove it from cjsExternal)`)
}

/** The `type` of the package.json nearest to `file`. */
function packageType(file) {
  for (let folder = path.dirname(file); folder !== path.dirname(folder); folder = path.dirname(folder)) {
    const manifest = path.join(folder, 'package.json')
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type
  }
  return undefined
}
