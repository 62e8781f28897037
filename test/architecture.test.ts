/**
 * The house rules of ARCHITECTURE.md section 1, read off the sources: every import (type imports included) goes down
 * the direction `cli -> presets -> plugins -> runtime -> pipeline -> schemas`, and no file reaches itself again
 * through its imports.
 */
import {readdirSync, readFileSync, statSync} from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {root} from './helpers/fixtures.js'

/** The layers from the top; a file may import its own layer and the ones after it. */
const layers = ['cli', 'presets', 'plugins', 'runtime', 'pipeline', 'schemas']
const rooms = [...layers, 'index.ts']

function sources(folder: string): string[] {
  const full = path.join(root, folder)
  if (statSync(full).isFile()) return [folder]
  return readdirSync(full).flatMap((name) => {
    const child = path.join(folder, name)
    if (statSync(path.join(root, child)).isDirectory()) return name === 'validators' ? [] : sources(child)
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [child] : []
  })
}

/** Each source file and the source files it imports (static, dynamic and `import('…')` types alike). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of rooms.flatMap(sources)) {
    const info = ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true)
    const targets = info.importedFiles
      .map(({fileName}) => fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => path.normalize(path.join(path.dirname(file), name)).replace(/\.js$/, '.ts'))
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

const layerOf = (file: string) => (file === 'index.ts' ? -1 : layers.indexOf(file.split(path.sep)[0]))

test('every import goes down the layers cli -> presets -> plugins -> runtime -> pipeline -> schemas', () => {
  const against: string[] = []
  for (const [file, targets] of importGraph()) {
    for (const target of targets) if (layerOf(target) < layerOf(file)) against.push(`${file} -> ${target}`)
  }
  assert.equal(against, [])
})

test('no import circle', () => {
  const graph = importGraph()
  const circles: string[] = []
  // Tarjan's strongly connected components: any component of two or more files is a circle.
  let index = 0
  const order = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const visit = (file: string) => {
    order.set(file, index)
    low.set(file, index++)
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue
      if (!order.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file)!, low.get(target)!))
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, order.get(target)!))
    }
    if (low.get(file) === order.get(file)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== file)
      if (component.length > 1) circles.push(component.sort().join(' <-> '))
    }
  }
  for (const file of graph.keys()) if (!order.has(file)) visit(file)
  assert.equal(circles, [])
})

test('no top-level function in runtime/ is longer than 80 lines', () => {
  const long: string[] = []
  for (const file of sources('runtime')) {
    const text = readFileSync(path.join(root, file), 'utf8')
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
    const lines = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart()).line + 1
    for (const statement of source.statements) {
      const functions: Array<[string, ts.Node]> = []
      if (ts.isFunctionDeclaration(statement)) functions.push([statement.name?.text ?? 'default', statement])
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          const value = declaration.initializer
          if (value && (ts.isArrowFunction(value) || ts.isFunctionExpression(value) || ts.isCallExpression(value))) functions.push([declaration.name.getText(), value])
        }
      }
      for (const [name, node] of functions) if (lines(node) > 80) long.push(`${file} ${name}: ${lines(node)} lines`)
    }
  }
  assert.equal(long, [])
})

test.run()
