#!/usr/bin/env node
// The `pipe` command. The CLI is compiled to dist/ and bundled into dist/bundle/ by `npm install` (the `prepare`
// script).
import {closeSync, openSync, read, readFileSync, statSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {getHeapSpaceStatistics, setFlagsFromString} from 'node:v8'
import {runInNewContext, Script} from 'node:vm'

const args = process.argv.slice(2)
/** Commands that run until stopped, and user test runs: V8's defaults. */
const servers = ['dev', 'start', 'test']
/** The framework's commands, which load the ES module bundle; the catalogue's load the CommonJS copy (`compiledCli`). */
const framework = [...servers, 'init', 'openapi', 'asyncapi', 'migrate', 'generate']

// A reader that stops early (`pipe sentences api.json | head`) closes the pipe under what is left to print. That is
// the reader's choice, not a failure of the command: the rest of the output is dropped, and the exit code still says
// what the command found. Without a listener, Node would throw the write's EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error
  })
}

// Batch commands (validate, import, render, map, diff, …) build a document once and exit, so they touch as little
// memory as they can: V8's young generation stays at its first size instead of doubling up to 32 MB, and the old
// generation grows by 20 % past what survived its last collection instead of up to 4x. On a 4 MB OpenAPI document
// that is a third less peak memory for about the same time (see the README's performance section). Memory is time
// too: every page a process touches first costs a page fault, 10–13 µs each on one virtual machine the benchmarks ran
// on, 1.5–3 µs on another (bench/NOTES.md). On the first, `pipe diff` of Stripe's description and its copy took ~5,300
// fewer faults and ~80 ms less with these flags than with V8's defaults, whose growing young generation collects less
// often; on the second, letting the young generation grow took ~36 ms off it, for 22 MB more. Both flags are read
// whenever V8 sizes its heap, so setting them here takes effect (the `--max-*-size` flags would not). Servers (`dev`,
// `start`) and user test runs keep V8's defaults. An input of megabytes sizes the heap up again (`heapForInput`).
//
// TurboFan compiles on a background thread, whose memory glibc keeps for that thread once a compile is done: without
// inlining, each compile of a hot function is smaller (the YAML reader's biggest took ~20 ms and megabytes of zone
// memory), for the same speed of these short runs: Stripe's 3 MB YAML `pipe map` peaked at ~89 MB instead of ~96, in
// the same time (9 alternating runs each; JSON inputs and Kubernetes unchanged).
if (!servers.includes(args[0])) {
  setFlagsFromString('--semi-space-growth-factor=1')
  // `pipe diff` has a time target and none for memory: its old generation grows as V8 would (Stripe's diff −9 ms for
  // +5 MB, GitHub Enterprise Server's two 11 MB descriptions −93 ms for +26 MB; bench/NOTES.md, eighteenth session).
  if (args[0] !== 'diff') setFlagsFromString('--heap-growing-percent=20')
  setFlagsFromString('--no-turbo-inlining')
  // For the collection after loading (below). Set here, with the others: V8 refuses a code cache made under other
  // flags, and the cache is written after this.
  setFlagsFromString('--expose-gc')
}

// A batch command runs for well under a second on most inputs: a function is handed to TurboFan, V8's optimising
// compiler, only after six times V8's default budget of bytecode run (the budget is read whenever a function's
// counter is reset, so setting it here takes effect). With the default, TurboFan compiled ~60 functions on
// background threads during a `pipe diff` of Stripe's description, taking a core that the main thread needed on a
// 2-core machine, for code that ran a few milliseconds before the process ended: 300 ms against 255 ms, and
// `pipe map` 4-12 % faster on every large description (bench/diff.js, bench/import.js). A large budget keeps the
// truly hot loops (js-yaml's scanner) optimised; turning TurboFan off made YAML imports a third slower. Servers keep
// V8's default: their code runs for hours. A reader's loop over a big file runs with V8's default too (below).
const batchBudget = '--interrupt-budget=405504'
/** V8's default budget (Node 20 and 22). */
const defaultBudget = '--interrupt-budget=67584'
if (!servers.includes(args[0])) setFlagsFromString(batchBudget)

if (args.length === 0 || (args.length === 1 && (args[0] === '--help' || args[0] === '-h'))) {
  // The general help, rendered by clipanion at build time: no need to load the command parser to print it.
  const colored = !process.env.NO_COLOR && process.stdout.isTTY
  process.stdout.write(readFileSync(new URL(`../dist/cli/help${colored ? '.color' : ''}.txt`, import.meta.url)))
} else if (framework.includes(args[0])) {
  // The CLI's own modules bundled into a few ES modules (scripts/build-bundle.js): fewer files for Node to load.
  const {main} = await import('../dist/bundle/main.js')
  process.exitCode = await main(args)
} else {
  const profile = args[0] === 'diff' ? 'diff' : 'batch'
  // Started before the CLI is compiled, which takes this core meanwhile (`earlyReads`).
  const reads = earlyReads(args)
  const {main, setHotCode, setInputSizeHook, setEarlyReads, script} = compiledCli(profile)
  // Which early reads the command took (test/early-reads.test.ts): pipeline/read.ts deletes each it takes.
  if (process.env.APIPE_DEBUG_EARLY_READS) {
    const started = [...reads.keys()]
    process.on('exit', () => process.stderr.write(started.map((file) => `early read ${reads.has(file) ? 'unused' : 'used'}: ${file}\n`).join('')))
  }
  setEarlyReads(reads)
  // A reader's loop over a big file (the block-YAML reader on Stripe's 3 MB) runs with V8's default budget, so that
  // TurboFan compiles its few hot functions while most of the file is still to read (pipeline/tiering.ts). `diff`
  // reads JSON, which V8 parses itself.
  if (profile === 'batch') setHotCode({enter: () => setFlagsFromString(defaultBudget), leave: () => setFlagsFromString(batchBudget)})
  // The heap sized up for inputs of megabytes (`heapForInput`).
  if (profile === 'batch') setInputSizeHook(heapForInput())
  // One full collection once the CLI is loaded (~5 ms): V8 grows the old generation from what survived its last full
  // collection, and without one this early the first comes late, over pages that the code cache's functions were
  // spread on. `pipe map` of a 1 MB description peaked ~4 MB lower (64 against 68 MB), a 4 MB one the same. `pipe
  // diff` has a time target and makes none: with the flags above, Stripe's diff took 6-14 ms less without one
  // (before its inputs, where it was; 31 and 41 alternating runs, bench/NOTES.md).
  if (profile === 'batch') runInNewContext('gc')()
  // scripts/build-code-cache.js: more commands of the same kind first (a JSON list of argument lists), then this one;
  // then the functions they compiled are written, for the next command with the same V8 flags.
  const cacheFile = process.env.APIPE_WRITE_CODE_CACHE
  if (cacheFile) for (const more of JSON.parse(process.env.APIPE_CODE_CACHE_RUNS ?? '[]')) await main(more)
  process.exitCode = await main(args)
  if (cacheFile) writeFileSync(cacheFile, script.createCachedData())
}

/**
 * The CLI as one CommonJS script (dist/bundle/cli.cjs, see scripts/build-bundle.js), compiled with the code cache of
 * `profile`'s V8 flags when there is one: V8 then reads the bytecode of the functions a command like this one called
 * instead of parsing and compiling each on its first call (Stripe's `pipe map` 12 % faster, see the README's
 * performance section). A cache that another Node or other flags made is refused by V8, and everything is compiled
 * as it is called, as without one.
 */
function compiledCli(profile) {
  const file = fileURLToPath(new URL('../dist/bundle/cli.cjs', import.meta.url))
  let cachedData
  try {
    cachedData = readFileSync(new URL(`../dist/bundle/cli.${profile}.cache`, import.meta.url))
  } catch {
    // No cache for these flags: compiled as called.
  }
  // ASCII (the build escapes every other character), so Latin-1 is its exact text, in a one-byte string.
  const script = new Script(readFileSync(file, 'latin1'), {filename: file, cachedData})
  // Whether V8 took the cache (the README's performance section; test/code-cache.test.ts).
  if (process.env.APIPE_DEBUG_CODE_CACHE) process.stderr.write(`code cache ${profile}: ${cachedData === undefined ? 'missing' : script.cachedDataRejected ? 'refused' : 'used'}\n`)
  const module = {exports: {}}
  const importer = (specifier) => import(specifier)
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file), importer)
  return {main: module.exports.main, setHotCode: module.exports.setHotCode, setInputSizeHook: module.exports.setInputSizeHook, setEarlyReads: module.exports.setEarlyReads, script}
}

/**
 * The big input files named on the command line, each read whole by one request to libuv's thread pool, started
 * before the CLI is compiled and run (~35 ms), so that the bytes come in on the second core meanwhile: GitHub's 13 MB
 * REST description took ~18 ms to read on the main thread, the two 4 MB files of the diff benchmark ~8 (bench/NOTES.md,
 * twenty-second session). By absolute path, for pipeline/read.ts, which takes them as it would read them and reads a
 * file itself when its early read failed. Files under a megabyte are left to it: there is little to gain. The
 * command's output is not read: the value of `--output`, and the last argument of `import` and `merge`.
 */
function earlyReads(args) {
  const reads = new Map()
  const last = args[0] === 'import' || args[0] === 'merge' ? args.length - 1 : args.length
  for (let index = 1; index < last; index++) {
    const arg = args[index]
    if (arg === '--output' || arg === '-o') index++
    if (arg.startsWith('-')) continue
    let size
    try {
      const stats = statSync(arg)
      if (!stats.isFile() || stats.size < 1024 * 1024) continue
      size = stats.size
    } catch {
      continue
    }
    reads.set(path.resolve(arg), readWhole(arg, size))
  }
  return reads
}

/**
 * The first `size` bytes of `file`, read by one request to the thread pool (more only after a short read), or
 * undefined when it could not be read: pipeline/read.ts then reads it itself, and says why it cannot.
 */
function readWhole(file, size) {
  return new Promise((resolve) => {
    let descriptor
    try {
      descriptor = openSync(file, 'r')
      const buffer = Buffer.allocUnsafeSlow(size)
      const from = (offset) =>
        read(descriptor, buffer, offset, size - offset, offset, (error, bytes) => {
          if (!error && bytes > 0 && offset + bytes < size) return from(offset + bytes)
          closeSync(descriptor)
          resolve(error ? undefined : buffer.subarray(0, offset + bytes))
        })
      from(0)
    } catch {
      // Too big for one buffer, or gone since it was found: the command reads it and says why it cannot.
      if (descriptor !== undefined) closeSync(descriptor)
      resolve(undefined)
    }
  })
}

/**
 * What a batch command does to V8's heap as bigger inputs are read (told each size by pipeline/input-size.ts). The
 * flags at the top keep the heap small, right for the documents of a megabyte or two that most APIs are; a bigger
 * document's catalogue and page are built of objects that outlive many collections of so small a heap, and each
 * collection copies or marks them again. Measured with `pipe map` against the flags at the top, alternating runs
 * (bench/NOTES.md, eighteenth and twentieth sessions):
 *
 * - from 3 MB, the old generation grows by 100 % past what survived a full collection instead of 20 %: Stripe's 3 MB
 *   YAML −23 ms, Kubernetes' 4 MB −22 ms, Zoom's 3.3 MB −8 ms, for 0–5 MB more (below that size, nothing to gain:
 *   Box, Slack, Discord ±8 ms, up to +1 MB); and the young generation is made 3 MB a semi-space: on a second
 *   machine, Zoom −14 ms, Stripe's 4 MB JSON −16, Kubernetes −11, Stripe's YAML −11, for +1 to +4 MB (4 MB a
 *   semi-space took Kubernetes to half of redocly's peak memory);
 * - from 5 MB, by 200 %: loket.nl's 6 MB description −47 ms (+9 MB), GitHub's 13 MB one −65 ms (±0 MB). Their young
 *   generation made 4 MB a semi-space instead of 1 took −44 and −56 ms; 3 MB is as fast as 4 (loket.nl −3 ms, GitHub
 *   +3, Microsoft Graph −42, within their noise) and 8 MB no faster, for more memory;
 * - from 16 MB, the young generation grows as V8 would: Microsoft Graph's 20 MB description made 848 scavenges (538
 *   ms, a fifth of the run) with it at 1 MB, 54 grown, and took 341 ms less for 41 MB more (its 47 MB beta: −912 ms,
 *   +30 MB), where `redocly build-docs` peaks at 867 MB.
 */
function heapForInput() {
  const megabyte = 1024 * 1024
  const steps = [
    {from: 3 * megabyte, take: () => (setFlagsFromString('--heap-growing-percent=100'), growYoungGeneration(3))},
    {from: 5 * megabyte, take: () => setFlagsFromString('--heap-growing-percent=200')},
    {from: 16 * megabyte, take: () => setFlagsFromString('--semi-space-growth-factor=2')}
  ]
  // Sizes only grow (each is bigger than every one before), so the steps are taken in order, each once.
  let taken = 0
  return (bytes) => {
    while (taken < steps.length && bytes >= steps[taken].from) steps[taken++].take()
  }
}

/**
 * Make the young generation `factor` times its size, once. V8 grows it only after a scavenge, when more has survived
 * since it last grew than it holds, by `--semi-space-growth-factor` (read at each growth; kept at 1 above): so the
 * factor is set, a megabyte of objects is held across one young collection, and the factor is set back. A second try
 * covers a collection that found too little alive.
 */
function growYoungGeneration(factor) {
  const collect = runInNewContext('gc')
  const size = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0
  const wanted = size() * factor
  setFlagsFromString(`--semi-space-growth-factor=${factor}`)
  try {
    for (let tries = 0; tries < 2 && size() < wanted; tries++) {
      const held = Array.from({length: 32768}, (_, index) => ({index}))
      collect({type: 'minor'})
      held.length = 0
    }
  } finally {
    setFlagsFromString('--semi-space-growth-factor=1')
  }
}
