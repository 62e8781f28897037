/**
 * The page's group cards dealt into columns on the server (a masonry), very large groups cut into pieces first.
 * Generic over the card, so that the view model (model.ts) imports this and not the other way round.
 */

/** What dealing needs of a group card. */
export interface Card {
  endpoints: unknown[]
  /** Kept on the first piece of a cut group only. */
  descriptionHtml: string
}

/** What a piece of a cut group adds to its card. */
export interface Cut {
  /** Set on the cards of a group cut into several: the endpoints of the whole group. */
  total?: number
  /** Set on every card of a cut group but its first. */
  continued?: boolean
  /** On the cards of a cut group: the 1-based numbers of its first and last rows in the group. */
  rows?: {first: number; last: number}
  /** The card's place in group order, pieces of a cut group in turn: a phone shows one column in this order. */
  order?: number
}

/**
 * Deal cards into columns, each to the column with the fewest rows so far, in group order. Done here rather than
 * with CSS multi-column layout: a search that hides rows then re-lays out one column, not the whole page (on the
 * 1,123-endpoint Kubernetes page, CSS columns cost hundreds of milliseconds per change). The cards of a cut group
 * (see {@link cutGroup}) go to consecutive columns, left to right, where the tallest of them ends highest.
 */
export function masonry<Group extends Card>(groups: Group[], count: number): Array<Array<Group & Cut>> {
  const share = groups.reduce((sum, group) => sum + group.endpoints.length, 0) / count
  let order = 0
  const cards = groups.map((group) => cutGroup(group, share, count).map((card) => ({...card, order: order++})))
  const columns: Array<Array<Group & Cut>> = Array.from({length: Math.min(count, Math.max(cards.flat().length, 1))}, () => [])
  const heights = columns.map(() => 0)
  const place = (card: Group & Cut, column: number) => {
    columns[column].push(card)
    heights[column] += card.endpoints.length + 3
  }
  for (const parts of cards) {
    // A card alone, or more pieces than columns (a very large group): each to the shortest column so far.
    if (parts.length === 1 || parts.length > columns.length) {
      for (const part of parts) place(part, heights.indexOf(Math.min(...heights)))
      continue
    }
    let start = 0
    let lowest = Infinity
    for (let first = 0; first + parts.length <= columns.length; first++) {
      const tallest = Math.max(...parts.map((part, index) => heights[first + index] + part.endpoints.length))
      if (tallest < lowest) [start, lowest] = [first, tallest]
    }
    parts.forEach((part, index) => place(part, start + index))
  }
  return columns
}

/** The most rows a piece of a cut group holds (default: 60). */
export const maxCardRows = 60

/**
 * A group of at least 40 endpoints that holds about twice a column's `share` of all rows, or more, is cut into
 * consecutive cards of equal length (one a column), so that an API without tags, all of it in `default`, fills the
 * columns instead of one narrow card beside empty ones; a group longer than {@link maxCardRows} a piece is cut into
 * more pieces still (Stripe's 417 untagged endpoints: 7 cards of 60 rows), each titled with its rows.
 */
function cutGroup<Group extends Card>(group: Group, share: number, count: number): Array<Group & Cut> {
  const parts = Math.max(Math.min(count, Math.round(group.endpoints.length / share)), Math.ceil(group.endpoints.length / maxCardRows))
  if (parts < 2 || group.endpoints.length < 40) return [group]
  const size = Math.ceil(group.endpoints.length / parts)
  return Array.from({length: parts}, (_, part) => ({
    ...group,
    descriptionHtml: part === 0 ? group.descriptionHtml : '',
    endpoints: group.endpoints.slice(part * size, (part + 1) * size),
    total: group.endpoints.length,
    continued: part > 0,
    rows: {first: part * size + 1, last: Math.min((part + 1) * size, group.endpoints.length)}
  }))
}
