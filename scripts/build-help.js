// Renders `pipe --help` once at build time (dist/cli/help.txt and help.color.txt) from the same clipanion CLI, so
// that bin/pipe.js can answer `pipe` and `pipe --help` without loading clipanion. test/cli.test.ts checks that the
// saved text equals what clipanion renders now.
import {writeFile} from 'node:fs/promises'
import {createCli} from '../dist/cli/main.js'

const cli = createCli()
await writeFile(new URL('../dist/cli/help.txt', import.meta.url), cli.usage(null, {colored: false}))
await writeFile(new URL('../dist/cli/help.color.txt', import.meta.url), cli.usage(null, {colored: true}))
