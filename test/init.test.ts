/**
 * `pipe init` end to end, as a user runs it: init, `npm install` (apipe linked from this checkout), `npm run
 * migrate`, then the project's own `npm test`; plus the refusals of init and the generators.
 */
import {execFileSync, spawn} from 'node:child_process'
import {existsSync, readFileSync, readdirSync, writeFileSync} from 'node:fs'
import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {temporaryProject} from './helpers/databases.js'
import {root} from './helpers/fixtures.js'
import {runPipe} from './helpers/run-pipe.js'

function run(command: string, args: string[], cwd: string): Promise<{code: number | null; output: string}> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {cwd, env: {...process.env, NO_COLOR: '1', FORCE_COLOR: '0'}, stdio: ['ignore', 'pipe', 'pipe']})
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({code, output}))
  })
}

test('pipe init, npm install, npm run migrate, npm test: nothing linked by hand', async () => {
  const parent = temporaryProject('init')
  const dir = path.join(parent, 'shop-api')
  const init = await runPipe(['init', dir], {cwd: parent})
  assert.is(init.code, 0, init.stderr)
  assert.is(init.stdout, `Created ${dir}: 10 files, depending on apipe-kit from file:${root.replace(/\/$/, '')} (the checkout this pipe runs from)\nNext: cd ${dir} && npm install && npm run migrate && npm run dev\n`)
  const files = ['.gitignore', 'README.md', 'package.json', 'pipe.config.json', 'src/controller/post.json', 'src/entities/post.json', 'src/hooks/post/beforeCreate.ts', 'src/middleware/requestId.ts', 'tests/post.test.ts']
  for (const file of files) assert.ok(existsSync(path.join(dir, file)), file)
  assert.match(readdirSync(path.join(dir, 'migrations')).join(), /^\d{14}_init\.js$/)
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))
  assert.equal(manifest.scripts, {dev: 'pipe dev', start: 'pipe start', test: 'pipe test', migrate: 'pipe migrate'})
  assert.is(manifest.name, 'shop-api')
  assert.equal(manifest.dependencies, {'apipe-kit': `file:${root.replace(/\/$/, '')}`})
  assert.equal(manifest.allowScripts, {[`file:${root.replace(/\/$/, '')}`]: true, bcrypt: true, 'better-sqlite3': true, esbuild: true})

  const install = await run('npm', ['install', '--no-audit', '--no-fund'], dir)
  assert.is(install.code, 0, install.output)
  // npm 11 lists the install scripts that allowScripts does not cover; a new project leaves none out.
  assert.not.match(install.output, /allowScripts/)
  const migrate = await run('npm', ['run', '--silent', 'migrate'], dir)
  assert.is(migrate.code, 0, migrate.output)
  assert.match(migrate.output, /Applied \d{14}_init \(1 statement\(s\)\)\n/)
  assert.ok(existsSync(path.join(dir, 'data/app.sqlite')), 'the SQLite file is created on first use')
  const tests = await run('npm', ['test'], dir)
  assert.is(tests.code, 0, tests.output)
  assert.match(tests.output, /Total: +5\n +Passed: +5\n/)
  const {createTestApp} = await import('../runtime/testing.js')
  const app = await createTestApp({root: dir})
  const created = await app.inject({method: 'POST', url: '/posts', payload: {title: '  Padded  '}, headers: {'x-request-id': 'abc'}})
  assert.is(created.json().title, 'Padded', 'the example hook ran')
  assert.is(created.headers['x-request-id'], 'abc', 'the example middleware ran')
  // A title of spaces is no title: the hook checks the trimmed one again.
  const blank = await app.inject({method: 'POST', url: '/posts', payload: {title: '   '}})
  assert.equal([blank.statusCode, blank.json().errors], [422, [{pointer: '/title', code: 'minLength', detail: '`title` must NOT have fewer than 1 characters'}]])
  await app.close()

  const again = await runPipe(['init', dir])
  assert.is(again.code, 1)
  assert.is(again.stderr, `Refusing to write into \`${dir}\`: it is not empty; pass --force to write anyway\n`)
})

test('allowScripts names every package under apipe-kit that has an install script', async () => {
  const {installScriptPackages} = await import('../runtime/scaffold.js')
  const manifestOf = (name: string) => JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8'))
  const found = new Set<string>()
  const seen = new Set<string>()
  const queue = Object.keys(JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).dependencies)
  while (queue.length > 0) {
    const name = queue.shift()!
    // Optional dependencies that this platform did not install, and packages nested under another one, are not walked.
    if (seen.has(name) || !existsSync(path.join(root, 'node_modules', name, 'package.json'))) continue
    seen.add(name)
    const manifest = manifestOf(name)
    if (['preinstall', 'install', 'postinstall'].some((script) => manifest.scripts?.[script])) found.add(name)
    queue.push(...Object.keys({...manifest.dependencies, ...manifest.optionalDependencies}))
  }
  assert.ok(seen.size > 100, `walked ${seen.size} packages`)
  assert.equal([...found].sort(), [...installScriptPackages].sort())
})

test('a project depends on apipe-kit as pipe came: the registry version, the checkout, or the package file the lock names', async () => {
  const {apipeDependency} = await import('../runtime/scaffold.js')
  const lock = (resolved: string) => (file: string) => (file === '/home/me/app/package-lock.json' ? JSON.stringify({packages: {'node_modules/apipe-kit': {version: '0.2.0', resolved}}}) : undefined)
  assert.equal(apipeDependency('/home/me/app/node_modules/apipe-kit', '0.2.0', lock('https://registry.npmjs.org/apipe-kit/-/apipe-kit-0.2.0.tgz')), {spec: '^0.2.0', source: 'registry'})
  assert.equal(apipeDependency('/home/me/app/node_modules/apipe-kit', '0.2.0', () => undefined), {spec: '^0.2.0', source: 'registry'})
  assert.equal(apipeDependency('/home/me/app/node_modules/apipe-kit', '0.2.0', lock('file:vendor/apipe-kit-0.2.0.tgz')), {spec: 'file:/home/me/app/vendor/apipe-kit-0.2.0.tgz', source: 'package file'})
  assert.equal(apipeDependency('/work/apipe', '0.2.0'), {spec: 'file:/work/apipe', source: 'checkout'})
})

test('pipe generate test writes a passing test that creates the required related record first', async () => {
  const dir = temporaryProject('generate-test')
  writeFileSync(path.join(dir, 'pipe.config.json'), '{}')
  for (const [args, expected] of [
    [['generate', 'entity', 'Author', '--fields', 'name:string:required,email:email:required:unique'], 'Wrote src/entities/author.json\nNext: `pipe generate controller Author --crud` for its routes, `pipe migrate create add-author` and `pipe migrate` for its table\n'],
    [['generate', 'entity', 'Book', '--fields', 'title:string:required,isbn:string:unique'], 'Wrote src/entities/book.json\nNext: `pipe generate controller Book --crud` for its routes, `pipe migrate create add-book` and `pipe migrate` for its table\n'],
    [['generate', 'controller', 'Author', '--crud'], 'Wrote src/controller/author.json\n'],
    [['generate', 'controller', 'Book', '--crud'], 'Wrote src/controller/book.json\n']
  ] as const) {
    const result = await runPipe([...args], {cwd: dir})
    assert.is(result.stdout, expected, result.stderr)
  }
  const bookFile = path.join(dir, 'src/entities/book.json')
  const book = JSON.parse(readFileSync(bookFile, 'utf8'))
  book.relations = {author: {kind: 'many-to-one', entity: 'author', required: true}}
  writeFileSync(bookFile, JSON.stringify(book, null, 2))
  const generated = await runPipe(['generate', 'test', 'Book'], {cwd: dir})
  assert.is(generated.stdout, 'Wrote tests/book.test.ts\n', generated.stderr)
  assert.match(readFileSync(path.join(dir, 'tests/book.test.ts'), 'utf8'), "const author = await app.inject({method: 'POST', url: '/authors', payload: {name: 'Example name', email: 'email@example.com'}})")
  const refused = await runPipe(['generate', 'test', 'Book'], {cwd: dir})
  assert.is(refused.code, 1)
  assert.is(refused.stderr, 'Refusing to overwrite `tests/book.test.ts`; pass --force to replace it\n')
  const missing = await runPipe(['generate', 'test', 'Shelf'], {cwd: dir})
  assert.is(missing.stderr, 'No controller `shelf` in src/controller; write one with `pipe generate controller Shelf --crud`\n')
  // The tests run against this checkout's runtime (the project has no node_modules of its own).
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({name: 'books', type: 'module', private: true}))
  // Not installed yet: one line saying what to install, not a stack trace per test file.
  assert.equal(await runPipe(['test'], {cwd: dir}), {code: 1, stdout: '', stderr: 'The tests import `uvu` and `apipe-kit`, which this project does not have: run `npm install --save-dev uvu apipe-kit` (a `pipe init` project lists them; run `npm install`)\n'})
  const {symlinkSync, mkdirSync} = await import('node:fs')
  mkdirSync(path.join(dir, 'node_modules'))
  symlinkSync(root, path.join(dir, 'node_modules', 'apipe-kit'))
  symlinkSync(path.join(root, 'node_modules', 'uvu'), path.join(dir, 'node_modules', 'uvu'))
  const tests = await runPipe(['test'], {cwd: dir})
  assert.is(tests.code, 0, tests.stdout + tests.stderr)
  assert.match(tests.stdout, /Total: +5\n +Passed: +5\n/)
  // A pattern that matches no file is a failed run, not a green one of nothing.
  assert.equal(await runPipe(['test', 'nomatch'], {cwd: dir}), {code: 1, stdout: '', stderr: 'No test file in tests/ matches `nomatch`\n'})
  // Behind auth: the test signs a user in with the role the routes ask for (roles come from the user's record).
  writeFileSync(path.join(dir, 'pipe.config.json'), JSON.stringify({auth: {entity: 'author'}}))
  const authorFile = path.join(dir, 'src/entities/author.json')
  const author = JSON.parse(readFileSync(authorFile, 'utf8'))
  author.fields.password = {type: 'password', required: true}
  author.fields.role = {type: 'enum', enum: ['reader', 'editor'], required: true, default: 'reader'}
  writeFileSync(authorFile, JSON.stringify(author, null, 2))
  const controllerFile = path.join(dir, 'src/controller/book.json')
  const controller = JSON.parse(readFileSync(controllerFile, 'utf8'))
  controller.auth = true
  controller.routes['DELETE /books/{id}'] = {action: 'delete', roles: ['editor']}
  writeFileSync(controllerFile, JSON.stringify(controller, null, 2))
  assert.is((await runPipe(['generate', 'test', 'Book', '--force'], {cwd: dir})).code, 0)
  const signedIn = readFileSync(path.join(dir, 'tests/book.test.ts'), 'utf8')
  assert.match(signedIn, "app.signToken({id: user.id, roles: ['editor']})")
  const guarded = await runPipe(['test'], {cwd: dir})
  assert.is(guarded.code, 0, guarded.stdout + guarded.stderr)
  assert.match(guarded.stdout, /Total: +5\n +Passed: +5\n/)
  // An enveloped controller that finds its records by a unique name and replaces them with PUT only: the test sends
  // and reads bodies in the envelope, fills `{name}` from the record, and sends the whole record to PUT.
  writeFileSync(path.join(dir, 'src/entities/club.json'), JSON.stringify({name: 'club', fields: {name: {type: 'string', required: true, unique: true}, motto: {type: 'string'}}, timestamps: true}))
  writeFileSync(path.join(dir, 'src/controller/club.json'), JSON.stringify({name: 'club', envelope: {single: 'club', list: 'clubs', count: 'clubsCount'}, routes: {'GET /clubs': 'list', 'POST /clubs': 'create', 'GET /clubs/{name}': 'read', 'PUT /clubs/{name}': 'update', 'DELETE /clubs/{name}': 'delete'}}))
  assert.is((await runPipe(['generate', 'test', 'Club'], {cwd: dir})).code, 0)
  const clubs = readFileSync(path.join(dir, 'tests/club.test.ts'), 'utf8')
  assert.match(clubs, "payload: {club: {name: 'Example name'}}")
  assert.match(clubs, "test('PUT /clubs/{name} changes a field'")
  const enveloped = await runPipe(['test', 'club'], {cwd: dir})
  assert.is(enveloped.code, 0, enveloped.stdout + enveloped.stderr)
  assert.match(enveloped.stdout, /Total: +5\n +Passed: +5\n/)
  // A required relation the server fills from the token (`from: "user"`) needs no record made first: the test's
  // signed-in user is it.
  writeFileSync(path.join(dir, 'src/entities/review.json'), JSON.stringify({name: 'review', fields: {text: {type: 'string', required: true}}, relations: {reviewer: {kind: 'many-to-one', entity: 'author', required: true, from: 'user'}}}))
  writeFileSync(path.join(dir, 'src/controller/review.json'), JSON.stringify({name: 'review', auth: true, routes: {'GET /reviews': 'list', 'POST /reviews': 'create', 'GET /reviews/{id}': 'read', 'PATCH /reviews/{id}': 'update', 'DELETE /reviews/{id}': 'delete'}}))
  const reviewTest = await runPipe(['generate', 'test', 'Review'], {cwd: dir})
  assert.is(reviewTest.code, 0, reviewTest.stderr)
  const reviews = await runPipe(['test', 'review'], {cwd: dir})
  assert.is(reviews.code, 0, reviews.stdout + reviews.stderr)
  assert.match(reviews.stdout, /Total: +5\n +Passed: +5\n/)
  // A nested create (`POST /clubs/{name}/notes`, `where: {"club.name": "params.name"}`): the club is made first, its
  // name fills the path of every nested route, and neither the club nor a readOnly field is sent in the body.
  writeFileSync(path.join(dir, 'src/entities/note.json'), JSON.stringify({name: 'note', fields: {text: {type: 'string', required: true}, stamp: {type: 'string', required: true, readOnly: true}}, relations: {club: {kind: 'many-to-one', entity: 'club', required: true}}}))
  writeFileSync(path.join(dir, 'src/controller/note.json'), JSON.stringify({name: 'note', routes: {'GET /clubs/{name}/notes': {action: 'list', where: {'club.name': 'params.name'}}, 'POST /clubs/{name}/notes': {action: 'create', where: {'club.name': 'params.name'}}, 'DELETE /clubs/{name}/notes/{id}': {action: 'delete', where: {'club.name': 'params.name'}}}}))
  mkdirSync(path.join(dir, 'src/hooks/note'), {recursive: true})
  writeFileSync(path.join(dir, 'src/hooks/note/beforeCreate.ts'), "export default function beforeCreate(ctx: {data: Record<string, unknown>}) {\n  ctx.data.stamp = 'set by the server'\n}\n")
  assert.is((await runPipe(['generate', 'test', 'Note'], {cwd: dir})).code, 0)
  const notesSource = readFileSync(path.join(dir, 'tests/note.test.ts'), 'utf8')
  assert.match(notesSource, "url: `/clubs/${params.name}/notes`, payload: {text: 'Example text'}")
  assert.match(notesSource, 'url: `/clubs/${created.params.name}/notes?page=1&limit=10`')
  const notes = await runPipe(['test', 'note'], {cwd: dir})
  assert.is(notes.code, 0, notes.stdout + notes.stderr)
  assert.match(notes.stdout, /Total: +4\n +Passed: +4\n/)
  // Nested by the parent's key (`{"club": "params.id"}`), with routes of its own by its own `{id}`: those name the
  // memo, not the club (on a fresh database both are 1, so only the source tells them apart).
  writeFileSync(path.join(dir, 'src/entities/memo.json'), JSON.stringify({name: 'memo', fields: {text: {type: 'string', required: true}}, relations: {club: {kind: 'many-to-one', entity: 'club', required: true}}}))
  writeFileSync(path.join(dir, 'src/controller/memo.json'), JSON.stringify({name: 'memo', routes: {'POST /clubs/{id}/memos': {action: 'create', where: {club: 'params.id'}}, 'GET /clubs/{id}/memos': {action: 'list', where: {club: 'params.id'}}, 'PATCH /memos/{id}': 'update', 'DELETE /memos/{id}': 'delete'}}))
  assert.is((await runPipe(['generate', 'test', 'Memo'], {cwd: dir})).code, 0)
  const memosSource = readFileSync(path.join(dir, 'tests/memo.test.ts'), 'utf8')
  assert.match(memosSource, "const params = {id: encodeURIComponent(String(club.json().club.id))}")
  assert.match(memosSource, 'assert.is(created.headers.location, `/clubs/${created.params.id}/memos/${encodeURIComponent(String(record.id))}`)')
  assert.match(memosSource, "url: `/clubs/${created.params.id}/memos?page=1&limit=10`")
  assert.match(memosSource, 'const url = `/memos/${encodeURIComponent(String(record.id))}`')
  assert.match(memosSource, "method: 'PATCH', url: `/memos/${encodeURIComponent(String(record.id))}`")
  const memos = await runPipe(['test', 'memo'], {cwd: dir})
  assert.is(memos.code, 0, memos.stdout + memos.stderr)
  assert.match(memos.stdout, /Total: +5\n +Passed: +5\n/)
  // An entity whose only text is unique still gets its update test: the test's record is the only one.
  writeFileSync(path.join(dir, 'src/entities/badge.json'), JSON.stringify({name: 'badge', fields: {name: {type: 'string', required: true, unique: true}}}))
  writeFileSync(path.join(dir, 'src/controller/badge.json'), JSON.stringify({name: 'badge', routes: {'POST /badges': 'create', 'PATCH /badges/{id}': 'update'}}))
  assert.is((await runPipe(['generate', 'test', 'Badge'], {cwd: dir})).code, 0)
  assert.match(readFileSync(path.join(dir, 'tests/badge.test.ts'), 'utf8'), "test('PATCH /badges/{id} changes a field'")
  const badges = await runPipe(['test', 'badge'], {cwd: dir})
  assert.match(badges.stdout, /Total: +3\n +Passed: +3\n/, badges.stdout + badges.stderr)
  // A related record that needs one of its own (a copy needs a book, which needs an author) is past what the
  // generator makes: it says so rather than write a test that fails.
  writeFileSync(path.join(dir, 'src/entities/copy.json'), JSON.stringify({name: 'copy', fields: {shelf: {type: 'string'}}, relations: {book: {kind: 'many-to-one', entity: 'book', required: true}}}))
  writeFileSync(path.join(dir, 'src/controller/copy.json'), JSON.stringify({name: 'copy', routes: {'GET /copies': 'list', 'POST /copies': 'create'}}))
  assert.equal(await runPipe(['generate', 'test', 'Copy'], {cwd: dir}), {code: 1, stdout: '', stderr: '`copy` needs a `book` (`book` is required), which needs an `author` of its own (`book.author` is required); pipe generate test makes related records one level deep: write this test by hand, or generate one for `book`\n'})
  assert.not.ok(existsSync(path.join(dir, 'tests/copy.test.ts')))
  // Piped, without NO_COLOR: the report is plain text (uvu colours by default).
  const {NO_COLOR: _noColor, FORCE_COLOR: _forceColor, ...environment} = process.env
  const piped = execFileSync(process.execPath, [path.join(root, 'bin', 'pipe.js'), 'test', 'book'], {cwd: dir, env: environment, encoding: 'utf8'})
  assert.match(piped, /Total: +5\n +Passed: +5\n/)
  assert.not.ok(piped.includes('\u001b['), 'no escape codes when piped')
})

test.run()
