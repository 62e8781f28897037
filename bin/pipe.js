#!/usr/bin/env node
// The `pipe` command. The CLI is compiled to dist/ by `npm install` (the `prepare` script).
import {readFile} from 'node:fs/promises'

const args = process.argv.slice(2)

if (args.length === 0 || (args.length === 1 && (args[0] === '--help' || args[0] === '-h'))) {
  // The general help, rendered by clipanion at build time: no need to load the command parser to print it.
  const colored = !process.env.NO_COLOR && process.stdout.isTTY
  process.stdout.write(await readFile(new URL(`../dist/cli/help${colored ? '.color' : ''}.txt`, import.meta.url)))
} else {
  const {main} = await import('../dist/cli/main.js')
  process.exitCode = await main(args)
}
