// Small statistics and formatting helpers shared by the bench scripts.

/** Sorted copy of numbers (a Float64Array sorts numerically). */
export function sorted(values) {
  return Float64Array.from(values).sort()
}

/** Nearest-rank percentile of an already sorted array; p in [0, 100]. */
export function percentile(sortedValues, p) {
  const n = sortedValues.length
  if (n === 0) return NaN
  const rank = Math.ceil((p / 100) * n)
  return sortedValues[Math.min(n - 1, Math.max(0, rank - 1))]
}

/** The median (mean of the two middle values for an even count), ignoring non-finite values. */
export function median(values) {
  const s = sorted(Array.from(values).filter(Number.isFinite))
  const n = s.length
  if (n === 0) return NaN
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
}

export function mean(values) {
  if (values.length === 0) return NaN
  let sum = 0
  for (const v of values) sum += v
  return sum / values.length
}

/** min/median/mean/p50/p99/max of a list of samples (all in the samples' unit). */
export function summarize(values) {
  const s = sorted(values)
  return {
    count: s.length,
    min: s[0],
    median: percentile(s, 50),
    mean: mean(s),
    p50: percentile(s, 50),
    p99: percentile(s, 99),
    max: s[s.length - 1],
  }
}

export const mb = (bytes) => bytes / (1024 * 1024)

export function fmt(value, digits = 1) {
  if (value === undefined || value === null) return '-'
  if (typeof value === 'string') return value
  if (!Number.isFinite(value)) return '-'
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

/** Prints rows (arrays of cells) as an aligned text table; numbers are right-aligned. */
export function table(title, header, rows) {
  const cells = [header, ...rows].map((row) => row.map((c) => (c === undefined || c === null ? '-' : String(c))))
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)))
  const numeric = header.map((_, i) => rows.every((r) => typeof r[i] === 'number' || /^[-+]?[\d,.]+( ?(ms|µs|%|MB|s|x))?$|^-$/.test(String(r[i] ?? '-'))))
  const line = (row) =>
    row.map((c, i) => (numeric[i] && i > 0 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd()
  const out = [`\n${title}`, line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  ')]
  for (const row of cells.slice(1)) out.push(line(row))
  console.log(out.join('\n'))
}

/** Seeded PRNG (mulberry32) so runs pick the same "random" elements. */
export function prng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
