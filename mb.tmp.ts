import {readFileSync} from 'node:fs'
import {prettyJsonChunks} from './pipeline/outputs.ts'
const spec = JSON.parse(readFileSync('/tmp/m2/api.endpoints.json', 'utf8'))
for (let r = 0; r < 3; r++) {
  let t = performance.now(); const s = JSON.stringify(spec, null, 2) + '\n'; const b = Buffer.from(s); const t1 = performance.now() - t
  t = performance.now(); let n = 0; for (const c of prettyJsonChunks(spec)) n += c.length; const t2 = performance.now() - t
  t = performance.now(); const s2 = JSON.stringify(spec, null, 2); const t3 = performance.now() - t
  console.log({stringifyAndBuffer: t1.toFixed(1), chunks: t2.toFixed(1), stringifyOnly: t3.toFixed(1), same: n === b.length})
}
