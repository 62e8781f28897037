import {readFileSync} from 'node:fs'
import {proseParagraphs, proseBlocks} from './dist/plugins/render-html/markdown.js'
const cat = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const texts = new Set()
const walk = (v, k) => { if (typeof v === 'string') { if (k === 'description' || k === 'summary') texts.add(v) } else if (v && typeof v === 'object') for (const [kk, vv] of Object.entries(v)) walk(vv, kk) }
walk(cat)
const ok = (t) => proseParagraphs(t) !== undefined || proseBlocks(t) !== undefined
const refused = [...texts].filter(t => t.length < 20000 && !ok(t))
const norms = {
  strongLink: t => t.replace(/\*\*(\[[^\]]+\]\([^)]+\)[:.]?)\*\*/g, '$1'),
  email: t => t.replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, 'EMAIL'),
  brLineStart: t => t.replace(/\n<br\s*\/?>/gi, '\n'),
  trailing: t => t.replace(/[ \t]+\n/g, '\n'),
  emphasis: t => t.replace(/(^|[\s(])[*_]([^*_\n]+)[*_](?=[\s.,:;)]|$)/g, '$1$2'),
  startBr: t => t.replace(/^<br\s*\/?>/i, ''),
  html: t => t.replace(/<\/?(?:b|i|p|strong|em|code|a[^>]*)>/gi, ''),
  ordered: t => t.replace(/^\d+\. /gm, '- '),
  indentList: t => t.replace(/^ +([*-] )/gm, '$1'),
}
const all = t => Object.values(norms).reduce((x, f) => f(x), t)
console.log('refused', refused.length)
for (const [k, f] of Object.entries(norms)) console.log(k, refused.filter(t => ok(f(t))).length, 'all-but', refused.filter(t => ok(Object.entries(norms).filter(([kk]) => kk !== k).reduce((x, [, g]) => g(x), t))).length)
console.log('all', refused.filter(t => ok(all(t))).length)
const left = refused.filter(t => !ok(all(t))); for (const t of left.slice(0, +process.argv[3] || 0)) console.log('----', JSON.stringify(all(t)).slice(0, 400))
