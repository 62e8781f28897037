/** Print the sections of `pipe sentences` in its three formats. */
import type {EndpointSections} from '../plugins/sentence-generate.js'

type Section = keyof EndpointSections

/** The printed sentences, ending in a newline (or nothing when there are none). */
export function printSentences(sections: EndpointSections, only: Section | undefined, format: 'text' | 'json' | 'markdown'): string {
  if (format === 'json') return JSON.stringify(only ? sections[only] : sections, null, 2) + '\n'
  const chosen: Section[] = only ? [only] : (['operations', 'types'] as const).filter((name) => sections[name].length > 0)
  const blocks = chosen.map((name) => {
    const texts = sections[name].map((sentence) => sentence.text)
    if (format === 'text') return texts.join('\n')
    const list = texts.map((text) => `- ${text}`).join('\n')
    return only ? list : `## ${name === 'operations' ? 'Operations' : 'Types'}\n\n${list}`
  })
  const output = blocks.filter((block) => block !== '').join('\n\n')
  return output === '' ? '' : output + '\n'
}
