import path from 'node:path'
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import {testWhen} from './helpers/skip.js'
import {runPreset} from '../pipeline/process.js'
import {pageOff, presets} from '../presets/index.js'
import {corpusDir, corpusMissing, manifest} from './helpers/corpus.js'

const missing = corpusMissing()

testWhen(test, missing, 'every GraphQL and AsyncAPI file of the corpus imports to a valid catalogue, or ends in findings', async () => {
  const rows = manifest().filter((row) => row.local_path.startsWith('graphql/') || row.local_path.startsWith('asyncapi/'))
  const graphqlFiles = rows.filter((row) => /\.graphql$/.test(row.local_path))
  const asyncapiFiles = rows.filter((row) => row.local_path.startsWith('asyncapi/'))
  const summary = {files: 0, imported: 0, fragments: 0, failed: [] as string[]}
  for (const [rowsOfKind, preset] of [[graphqlFiles, presets.graphql], [asyncapiFiles, presets.asyncapi]] as const) {
    for (const row of rowsOfKind) {
      summary.files++
      const [file] = await runPreset({plugins: [...(preset.plugins ?? []), ...(pageOff.plugins ?? [])]}, [path.join(corpusDir, row.local_path)])
      const errors = file.messages.filter((message) => message.fatal === true)
      const output = file.data.outputs?.find((candidate) => candidate.path.endsWith('.endpoints.json'))
      if (errors.some((message) => message.ruleId === 'crash')) summary.failed.push(`${row.local_path}: ${errors[0].reason}`)
      else if (row.format === 'fragment' || row.spec_version === 'operations') {
        if (errors.length === 1 && !output) summary.fragments++
        else summary.failed.push(`${row.local_path}: a fragment or an operation document should be one finding`)
      } else if (errors.length === 0 && output) summary.imported++
      else summary.failed.push(`${row.local_path}: ${errors.map((message) => message.reason).join('; ')}`)
    }
  }
  console.log(`  corpus (GraphQL, AsyncAPI): ${summary.files} files, ${summary.imported} imported, ${summary.fragments} fragments and operation documents answered with one finding, ${summary.failed.length} failed`)
  assert.equal(summary.failed, [])
  assert.ok(graphqlFiles.length >= 2 && asyncapiFiles.length >= 40, 'the corpus rows were found')
})

test.run()
