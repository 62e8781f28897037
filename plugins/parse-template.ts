/**
 * parse-template: a nunjucks document template (`docs/api.md.njk`) becomes `{type: 'template', source}`; the
 * render-docs plugin renders it. The output name is the template's without `.njk`.
 */
import type {Processor} from 'unified'
import type {Node} from 'unist'
import type {VFile} from 'vfile'
import {docsUrl, source} from '../pipeline/rule.js'

/** A document template, as written. */
export interface TemplateTree extends Node {
  type: 'template'
  source: string
}

/** Set the processor's parser to read templates. */
export default function parseTemplate(this: Processor) {
  this.parser = (text: string, file: VFile): TemplateTree => {
    if (file.path && file.extname !== '.njk') {
      const message = file.message(`Unexpected template name \`${file.basename}\`, expected \`<name>.<extension>.njk\` (e.g. \`api.md.njk\`)`, {
        place: {line: 1, column: 1},
        ruleId: 'template',
        source
      })
      message.fatal = true
      message.url = `${docsUrl}#template`
      throw message
    }
    return {type: 'template', source: text}
  }
}
