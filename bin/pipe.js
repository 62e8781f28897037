#!/usr/bin/env node
// The `pipe` command. The CLI is compiled to dist/ and bundled into dist/bundle/ by `npm install` (the `prepare`
// script).
import {readFileSync} from 'node:fs'
import {setFlagsFromString} from 'node:v8'

const args = process.argv.slice(2)

// A reader that stops early (`pipe sentences api.json | head`) closes the pipe under what is left to print. That is
// the reader's choice, not a failure of the command: the rest of the output is dropped, and the exit code still says
// what the command found. Without a listener, Node would throw the write's EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error
  })
}

// Batch commands (validate, import, render, map, …) build a document once and exit, so memory matters more than
// the last few milliseconds of garbage collection: V8's young generation stays at its first size instead of doubling
// up to 32 MB, and the old generation grows by 20 % past what survived its last collection instead of up to 4x.
// On a 4 MB OpenAPI document that is a third less peak memory for about the same time (see the README's
// performance section). Both flags are read whenever V8 sizes its heap, so setting them here takes effect (the
// `--max-*-size` flags would not). Servers (`dev`, `start`) and user test runs keep V8's defaults, and so does `diff`,
// which has a time target and no memory one: with a growing young generation its two 4 MB imports take 13
// scavenges instead of 84, ~40 ms less of garbage collection, for ~30 MB more (bench/diff.js).
//
// TurboFan compiles on a background thread, whose memory glibc keeps for that thread once a compile is done: without
// inlining, each compile of a hot function is smaller (the YAML reader's biggest took ~20 ms and megabytes of zone
// memory), for the same speed of these short runs: Stripe's 3 MB YAML `pipe map` peaked at ~89 MB instead of ~96, in
// the same time (9 alternating runs each; JSON inputs and Kubernetes unchanged).
if (!['dev', 'start', 'test', 'diff'].includes(args[0])) {
  setFlagsFromString('--semi-space-growth-factor=1')
  setFlagsFromString('--heap-growing-percent=20')
  setFlagsFromString('--no-turbo-inlining')
}

// A batch command runs for well under a second on most inputs: a function is handed to TurboFan, V8's optimising
// compiler, only after six times V8's default budget of bytecode run (the budget is read whenever a function's
// counter is reset, so setting it here takes effect). With the default, TurboFan compiled ~60 functions on
// background threads during a `pipe diff` of Stripe's description, taking a core that the main thread needed on a
// 2-core machine, for code that ran a few milliseconds before the process ended: 300 ms against 255 ms, and
// `pipe map` 4-12 % faster on every large description (bench/diff.js, bench/import.js). A large budget keeps the
// truly hot loops (js-yaml's scanner) optimised; turning TurboFan off made YAML imports a third slower. Servers keep
// V8's default: their code runs for hours.
if (!['dev', 'start', 'test'].includes(args[0])) setFlagsFromString('--interrupt-budget=405504')

if (args.length === 0 || (args.length === 1 && (args[0] === '--help' || args[0] === '-h'))) {
  // The general help, rendered by clipanion at build time: no need to load the command parser to print it.
  const colored = !process.env.NO_COLOR && process.stdout.isTTY
  process.stdout.write(readFileSync(new URL(`../dist/cli/help${colored ? '.color' : ''}.txt`, import.meta.url)))
} else {
  // The CLI's own modules bundled into a few files (scripts/build-bundle.js): fewer files for Node to load.
  const {main} = await import('../dist/bundle/main.js')
  process.exitCode = await main(args)
}
