/** Table-driven import fixtures: run an import preset (without its page) on `input.*`, compare the catalogue and the findings. */
import {test} from 'uvu'
import * as assert from 'uvu/assert'
import type {Plugin, Preset} from 'unified'
import {runPreset} from '../../pipeline/process.js'
import {formatFindings} from '../../pipeline/report.js'
import {pageOff} from '../../presets/index.js'
import {fixtureCases} from './fixtures.js'

/** Register one test per case of `fixtures/<plugin>/`, with `options.json` passed to `importer`. */
export function importFixtureTests(plugin: string, preset: Preset, importer: Plugin<any[], any, any>) {
  for (const fixture of fixtureCases(plugin)) {
    test(`${plugin} turns fixture \`${fixture.name}\` into exactly the expected catalogue and findings`, async () => {
      const plugins = [...(preset.plugins ?? []), ...(fixture.options ? [[importer, fixture.options]] : []), ...(pageOff.plugins ?? [])]
      // Files a `$ref` read are reported after the input, with their own findings.
      const files = await runPreset({plugins} as Preset, [fixture.input])
      const [file] = files
      const messages = formatFindings(files, 'text').split(fixture.dir + '/').join('')
      assert.fixture(messages, fixture.expected('messages.txt', messages))
      const output = file.data.outputs?.find((candidate) => candidate.path.endsWith('.endpoints.json'))
      const catalogue = output ? String(output) : '(no catalogue)\n'
      assert.fixture(catalogue, fixture.expected('output.endpoints.json', catalogue))
    })
  }
}
