/**
 * parse-template: a nunjucks document template (`docs/api.md.njk`) becomes `{type: 'template', source}`; the
 * render-docs plugin renders it. The output name is the template's without `.njk`.
 */
import type {Processor} from 'unified'
import type {Node} from 'unist'
import type {VFile} from 'vfile'
import {fatalFinding} from '../pipeline/rule.js'

/** A document template, as written. */
export interface TemplateTree extends Node {
  type: 'template'
  source: string
}

/** Set the processor's parser to read templates. */
export default function parseTemplate(this: Processor) {
  this.parser = (text: string, file: VFile): TemplateTree => {
    if (file.path && file.extname !== '.njk') {
      throw fatalFinding(file, `Unexpected template name \`${file.basename}\`, expected \`<name>.<extension>.njk\` (e.g. \`api.md.njk\`)`, 'template', {line: 1, column: 1})
    }
    return {type: 'template', source: text}
  }
}
