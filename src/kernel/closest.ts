/**
 * "Did you mean": the candidate nearest to a word by edit distance, for messages that name what
 * exists when a name does not (a scenario aimed at webhook "order", a journal filter on route
 * "versions.lst", a flag "--prot").
 */

/** The closest candidate, or undefined when none is near enough to be a likely typo. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best !== undefined && near(word, best) ? best : undefined
}

/** "(the closest: "x"; known: a, b, c)" for an error message. */
export function suggestion(word: string, candidates: readonly string[], noun: string): string {
  const near = closest(word, candidates)
  const known = candidates.length === 0 ? `there are no ${noun}s` : `${noun}s: ${candidates.slice(0, 20).join(', ')}${candidates.length > 20 ? ', …' : ''}`
  return near === undefined ? `(${known})` : `(did you mean "${near}"? ${known})`
}

/** Whether two words are near enough to be a typo of each other. */
export function near(a: string, b: string): boolean {
  return editDistance(a.toLowerCase(), b.toLowerCase()) <= Math.max(2, Math.floor(a.length / 3))
}

/** Levenshtein distance, two rows. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length] ?? 0
}
