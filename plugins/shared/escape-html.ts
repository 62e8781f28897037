const escapes: Record<string, string> = {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}

/** Text escaped for HTML, in an element or in a double-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => escapes[character])
}
