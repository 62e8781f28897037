/**
 * `pipe generate types`: the entities' records for user code, checked by the TypeScript compiler on a project that
 * uses them (a typed `ctx.db.findOne('user', …)` and `ctx.user.record`, no casts).
 */
import {execFileSync} from 'node:child_process'
import {mkdirSync, readFileSync, symlinkSync, writeFileSync, cpSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {temporaryProject} from './helpers/databases.js'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'

test('pipe generate types writes record types that make ctx.db and ctx.user typed', async () => {
  const dir = temporaryProject('types')
  cpSync(path.join(root, 'fixtures/envelope-app'), dir, {recursive: true})
  const written = await runPipe(['generate', 'types', '--project', dir])
  assert.equal([written.code, written.stdout, written.stderr], [0, `Wrote ${path.relative(root, path.join(dir, 'src/apipe-types.d.ts'))}\n`, ''])
  const source = readFileSync(path.join(dir, 'src/apipe-types.d.ts'), 'utf8')
  assert.match(source, /    article: \{\n      id: number\n      title: string\n      body: string \| null\n      author: Entities\["user"\] \| null\n      favoritedBy: Collection<Entities\["user"\]>\n    \}/)
  assert.match(source, /  interface AuthEntity \{\n    entity: "user"\n  \}/)
  // A hook that uses the types: each @ts-expect-error must meet an error, or tsc fails.
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({name: 'typed', type: 'module'}))
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({compilerOptions: {strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, skipLibCheck: true}, include: ['src']}))
  mkdirSync(path.join(dir, 'src/hooks/article'), {recursive: true})
  writeFileSync(
    path.join(dir, 'src/hooks/article/beforeCreate.ts'),
    [
      "import type {ActionContext} from 'apipe-kit/runtime'",
      'export default async function beforeCreate(ctx: ActionContext) {',
      "  const author = await ctx.db.findOne('user', {username: 'jake'})",
      '  const name: string | undefined = author?.username',
      '  // @ts-expect-error: a username is a string',
      '  const wrong: number | undefined = author?.username',
      '  // @ts-expect-error: the auth record is a user, whose email is a string',
      '  const email: number | undefined = ctx.user?.record?.email',
      '  // @ts-expect-error: no entity is named comment',
      "  await ctx.db.findOne('comment', {id: 1})",
      '  ctx.events.publish(\'article.published\', {id: 1})',
      '  return {name, wrong, email}',
      '}',
      ''
    ].join('\n')
  )
  // A test's app is typed with what the server adds (`app.orm`, `app.signToken`), as generated tests use it.
  writeFileSync(
    path.join(dir, 'src/app.check.ts'),
    [
      "import {createTestApp} from 'apipe-kit/runtime'",
      'export async function check() {',
      '  const app = await createTestApp()',
      "  const token: string = app.signToken({id: 1, roles: ['editor']})",
      "  return {token, users: await app.orm.em.fork().count('user')}",
      '}',
      ''
    ].join('\n')
  )
  mkdirSync(path.join(dir, 'node_modules/@mikro-orm'), {recursive: true})
  symlinkSync(root, path.join(dir, 'node_modules/apipe-kit'))
  symlinkSync(path.join(root, 'node_modules/@mikro-orm/core'), path.join(dir, 'node_modules/@mikro-orm/core'))
  let output = ''
  try {
    execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], {encoding: 'utf8'})
  } catch (error) {
    output = String((error as {stdout?: string}).stdout)
  }
  assert.is(output, '', 'the hook type-checks against the generated types')
})

test.run()
