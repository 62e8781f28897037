#!/usr/bin/env node
// The `pipe` command. The CLI is compiled to dist/ by `npm install` (the `prepare` script).
import {readFile} from 'node:fs/promises'
import {setFlagsFromString} from 'node:v8'

const args = process.argv.slice(2)

// Batch commands (validate, import, render, map, …) build a document once and exit: let V8's young generation stay
// at its first size instead of doubling up to 32 MB, which is most of the difference in peak memory on a 4 MB
// OpenAPI document, for the same time. Servers (`dev`, `start`) and user test runs keep V8's defaults. The flag is
// read whenever the young generation would grow, so setting it here takes effect (the size flags would not).
if (!['dev', 'start', 'test'].includes(args[0])) setFlagsFromString('--semi-space-growth-factor=1')

if (args.length === 0 || (args.length === 1 && (args[0] === '--help' || args[0] === '-h'))) {
  // The general help, rendered by clipanion at build time: no need to load the command parser to print it.
  const colored = !process.env.NO_COLOR && process.stdout.isTTY
  process.stdout.write(await readFile(new URL(`../dist/cli/help${colored ? '.color' : ''}.txt`, import.meta.url)))
} else {
  const {main} = await import('../dist/cli/main.js')
  process.exitCode = await main(args)
}
