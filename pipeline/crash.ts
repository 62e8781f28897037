/** What becomes of an error a plugin throws: a `crash` finding with the error's message, never a stack trace. */
import type {VFile} from 'vfile'
import {VFileMessage} from 'vfile-message'
import {docsUrl, source} from './rule.js'

/** What a crash finding says: the error's message, else its name or text, never an empty reason. */
export function crashReason(error: unknown): string {
  // unified-engine says `Cannot parse file` of any configuration it could not load; apipe's own refusal says why.
  if (error instanceof Error && error.cause instanceof Error && error.cause.name === 'ApipeError') return crashReason(error.cause)
  // A configuration file that is not JSON or YAML: unified-engine's words say which file, its cause where.
  if (error instanceof Error && error.cause instanceof Error && /^Cannot parse file/.test(error.message)) return `${error.message.trim()}: ${firstLine(error.cause.message).replace(/ while parsing ".*" in /, ' in ').trim()}`
  // Recursion through a document nested thousands of levels deep: what that means for the user, not V8's words.
  if (error instanceof RangeError && /Maximum call stack size exceeded/.test(error.message)) return 'the document is nested too deeply to process (Maximum call stack size exceeded)'
  if (error instanceof Error) return error.message.trim() || error.name || 'Error'
  const text = String(error).trim()
  return text === '' ? 'unknown error' : text
}

/**
 * Turn what unified-engine made of a thrown error (a fatal message without rule whose cause is the error, printed
 * with its stack trace) into apipe's `crash` finding: the error's message, no stack.
 */
export function tameCrashes(files: VFile[]): void {
  for (const file of files) {
    for (const [index, message] of file.messages.entries()) {
      if (message.ruleId || message.fatal !== true || !(message.cause instanceof Error)) continue
      const crash = new VFileMessage(`Cannot process file: ${crashReason(message.cause)}`, {ruleId: 'crash', source})
      crash.fatal = true
      crash.url = `${docsUrl}#crash`
      crash.file = message.file
      file.messages[index] = crash
    }
  }
}

/** Crash findings as a reporter should show them: the reason only (vfile-reporter prints a cause with its stack). */
export function withoutStacks(files: VFile[]): VFile[] {
  for (const file of files) for (const message of file.messages) if (message.ruleId === 'crash') message.cause = undefined
  return files
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]
}
