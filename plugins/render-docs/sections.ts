/**
 * What a document template sees: per catalogue, `operations` and `types` lists that print as a list in the
 * document's format (`{{ endpoints.operations }}`) and iterate as sentence objects (`{% for s in … %}`), whose own
 * printing is their text. Asking for a section that does not exist is an error naming the known ones.
 */
import type {EndpointSections, OperationSentence, TypeSentence} from '../sentence-generate.js'
import type {Catalogue} from '../../schemas/types/endpoints.js'
import {escapeHtml} from '../shared/escape-html.js'

/** The document formats a list can print as. */
export type DocumentFormat = 'markdown' | 'html' | 'text'

/** The names a template may ask a catalogue for. */
export const sectionNames = ['operations', 'types', 'meta', 'groups'] as const

/** Prints lists; HTML lists print as placeholders swapped for markup after rendering, so autoescaping keeps off them. */
export class ListPrinter {
  private readonly markup: string[] = []

  constructor(readonly format: DocumentFormat) {}

  /** A printable list of sentences. */
  list<T extends {text: string}>(items: readonly T[]): SentenceList<T> {
    const list = new SentenceList<T>(this)
    for (const item of items) list.push(Object.assign(Object.create({toString: textOf}), item))
    return list
  }

  /** The printed form of `items` (or a placeholder for HTML). */
  print(items: ReadonlyArray<{text: string}>): string {
    if (this.format === 'markdown') return items.map((item) => `- ${item.text}`).join('\n')
    if (this.format === 'text') return items.map((item) => item.text).join('\n')
    this.markup.push(`<ul>\n${items.map((item) => `  <li>${escapeHtml(item.text)}</li>`).join('\n')}\n</ul>`)
    return `\u0001apipe-list-${this.markup.length - 1}\u0001`
  }

  /** Swap placeholders in a rendered document for their markup. */
  finish(output: string): string {
    return output.replace(/\u0001apipe-list-(\d+)\u0001/g, (_, index: string) => this.markup[Number(index)] ?? '')
  }
}

/** An array of sentences that prints as a list. */
export class SentenceList<T extends {text: string}> extends Array<T> {
  // Array methods (filter, map) return plain arrays; the filters build new lists on purpose.
  static override get [Symbol.species]() {
    return Array
  }

  constructor(private readonly printer: ListPrinter) {
    super()
  }

  override toString(): string {
    return this.printer.print(this)
  }
}

/** The sections of one catalogue as a template sees them. */
export function templateSections(spec: Catalogue, sections: EndpointSections, printer: ListPrinter): Record<string, unknown> {
  const values: Record<string, unknown> = {
    operations: printer.list<OperationSentence>(sections.operations),
    types: printer.list<TypeSentence>(sections.types),
    meta: spec.meta,
    groups: spec.groups ?? []
  }
  return guard(values, 'section', sectionNames)
}

/** An object that throws, naming the known keys, when a template asks for one it does not have. */
export function guard<T extends Record<string, unknown>>(target: T, noun: string, known: readonly string[]): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'string' && !(key in object) && !(key in Object.prototype)) {
        throw new Error(`Unknown ${noun} \`${key}\`, expected one of ${known.join(', ')}`)
      }
      return Reflect.get(object, key, receiver)
    }
  })
}

function textOf(this: {text: string}): string {
  return this.text
}
