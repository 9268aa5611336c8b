/**
 * Property tests of the `$filter` parser (issue 12). The parser has no printer, so this file
 * brings one (`printFilter` in test/support/fuzz-arbitraries.ts): any tree, printed in any style
 * (keyword case, spacing, quote character, redundant parentheses), parses back to itself, compared
 * with AND/OR chains flattened (`canonical`), so a parser that keeps chains as binary nodes and
 * one that keeps them as flat lists both pass.
 * Then: the parser is total (a FilterError or a tree, never another exception); nesting over 256
 * levels is a clear FilterError naming the limit, never a stack overflow; and every tree it
 * returns can be evaluated.
 *
 * NOTE: imports src/versions/filter.js directly (the one unit under test that has no public
 * entry point); the path may move with the restructuring of src/.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FilterError, matchesFilter, parseFilter } from '../../src/versions/filter.js'
import {
  DEPTH_LIMIT,
  canonical,
  type FilterSpec,
  type FilterTree,
  filterSpec,
  filterStyle,
  filterText,
  filterTree,
  parenDepth,
  printFilter,
  treeDepth,
  weirdText,
} from '../support/fuzz-arbitraries.js'
import { FUZZ_SEED, runs, timeoutFor } from '../support/fuzz.js'

const options = (numRuns: number): fc.Parameters<unknown> => ({ seed: FUZZ_SEED, numRuns, includeErrorInReport: true })

/** What the versions route evaluates a filter against: one rendered version. */
const VERSION = {
  facetName: 'processes',
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  versionId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  type: 'process',
  state: 'released',
  attributes: { name: { '1031': 'Auftrag bis Zahlung', '1033': 'Order to Cash' }, version: { '127': '2.0' }, isReleased: { '127': true } },
  related: {},
}

const asText = (text: string): FilterSpec => ({ kind: 'text', text })

/** Parses, and reports any exception that is not a FilterError (a crash) with its kind. */
function parseOutcome(text: string): { ok: true; tree: unknown } | { ok: false; filterError: boolean; error: string } {
  try {
    return { ok: true, tree: parseFilter(text) }
  } catch (error) {
    return { ok: false, filterError: error instanceof FilterError, error: `${(error as Error).name}: ${(error as Error).message}` }
  }
}

describe('fuzz: $filter parser (src/versions/filter.ts)', () => {
  const roundTrips = runs(300, 0.4)
  it('parse ∘ print gives the tree back (up to AND/OR associativity), in any printing style', { timeout: timeoutFor(roundTrips, 2) }, () => {
    fc.assert(
      fc.property(filterTree, filterStyle, (tree, style) => {
        const text = printFilter(tree, style)
        expect(canonical(parseFilter(text) as FilterTree), `printed as: ${text}`).toEqual(canonical(tree))
      }),
      options(roundTrips),
    )
  })

  it('print ∘ parse is stable: printing a parsed tree and parsing it again gives the same tree', { timeout: timeoutFor(roundTrips, 2) }, () => {
    fc.assert(
      fc.property(filterSpec(), (spec) => {
        const first = parseOutcome(filterText(spec))
        if (!first.ok) return
        const tree = first.tree as FilterTree
        // Deeper trees are the evaluation property's business (the printer and toEqual recurse).
        if (treeDepth(tree) > 200) return
        expect(canonical(parseFilter(printFilter(tree)) as FilterTree)).toEqual(canonical(tree))
      }),
      options(roundTrips),
    )
  })

  const totality = runs(300, 0.3)
  it('is total: any text gives a tree or a FilterError, never another exception', { timeout: timeoutFor(totality, 5) }, () => {
    fc.assert(
      fc.property(fc.oneof(filterSpec(), weirdText(80).map(asText), fc.string({ unit: 'binary', maxLength: 200 }).map(asText)), (spec) => {
        const text = filterText(spec)
        const outcome = parseOutcome(text)
        if (!outcome.ok && !outcome.filterError) {
          throw new Error(`parseFilter threw ${outcome.error} (not a FilterError) for a text of ${text.length} chars, paren depth ${parenDepth(text)}`)
        }
      }),
      { ...options(totality), examples: [[{ kind: 'parens', depth: 50_000, inner: "name -eq 'x'" }]] },
    )
  })

  const depths = runs(100, 0.15)
  it(`refuses nesting over ${DEPTH_LIMIT} levels with a FilterError naming the limit, and parses nesting well under it`, { timeout: timeoutFor(depths, 10) }, () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: DEPTH_LIMIT + 1, max: 20_000 })),
        fc.constantFrom("name -eq 'Order to Cash'", "state -ne 'expired' OR IsNull(version)", "contains(attributes,'Cash')"),
        (depth, inner) => {
          const text = `${'('.repeat(depth)}${inner}${')'.repeat(depth)}`
          const outcome = parseOutcome(text)
          if (depth <= 200) {
            expect(outcome.ok, `depth ${depth}: ${outcome.ok ? '' : outcome.error}`).toBe(true)
            return
          }
          if (outcome.ok) throw new Error(`depth ${depth} was parsed; over ${DEPTH_LIMIT} levels must be refused`)
          if (!outcome.filterError) throw new Error(`depth ${depth}: ${outcome.error} instead of a FilterError naming the limit ${DEPTH_LIMIT}`)
          expect(outcome.error, `depth ${depth}`).toContain(String(DEPTH_LIMIT))
        },
      ),
      options(depths),
    )
  })

  const evaluations = runs(120, 0.15)
  it('every tree it returns can be evaluated against a version (no stack overflow in matchesFilter)', { timeout: timeoutFor(evaluations, 20) }, () => {
    fc.assert(
      fc.property(filterSpec(), (spec) => {
        const text = filterText(spec)
        const outcome = parseOutcome(text)
        if (!outcome.ok) return
        try {
          matchesFilter(outcome.tree as Parameters<typeof matchesFilter>[0], VERSION)
        } catch (error) {
          throw new Error(`matchesFilter threw ${(error as Error).name}: ${(error as Error).message} for a parsed text of ${text.length} chars (${spec.kind === 'chain' ? `${spec.clauses} clauses joined by ${spec.op}` : spec.kind})`)
        }
      }),
      { ...options(evaluations), examples: [[{ kind: 'chain', clauses: 50_000, op: 'AND' }]] },
    )
  })
})
