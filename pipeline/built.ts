/**
 * Modules that `npm run build` writes — the standalone schema validators (`#validators/<name>.cjs`) and the compiled
 * page template (`#page-template`) — loaded by the names package.json's `imports` gives them, which resolve alike
 * from the sources, from dist/ and from a bundle. Call it with the name written out: the CLI's CommonJS copy
 * (scripts/build-bundle.js) takes each such call in, so that V8's code cache holds their compiled code as well (a
 * validator is 200–270 KB of code that a command would otherwise compile as it runs).
 */
import {createRequire} from 'node:module'

export const requireBuilt = createRequire(import.meta.url)
