#!/usr/bin/env node
// The `pipe` command. The CLI is compiled to dist/ by `npm install` (the `prepare` script).
import {main} from '../dist/cli/main.js'

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code
})
