/**
 * The generated elements of a store (the `generate` fixture section) as a read-only baseline:
 * element i is made when it is read, never before, from the seed and i alone, so a store of
 * 100,000 costs nothing until a client reads one, and what was read first cannot change what an
 * element is. Their ids carry i (generated-ids.ts): a lookup by an element's id or a version's id
 * goes straight to its element. The records of the elements read last are kept, a bounded number,
 * so reading the same elements again does not make them again. The store keeps changes to them
 * apart (store.ts).
 */
import { createRequire } from 'node:module'
import { ElementStream } from './element-stream.js'
import { type ElementOutline, type Faker, type Generation, generateElement, outlineElement, streamFaker } from './generate.js'
import { type GeneratedIdParts, readGeneratedId } from './generated-ids.js'
import type { VersionRecord } from './model.js'
import { toRecords } from './records.js'
import type { ElementSummary } from './summary.js'

const requireModule = createRequire(import.meta.url)

/** How many elements' records are kept once made. */
const KEPT = 1_000

export class GeneratedElements {
  readonly collectionId: string
  readonly storageId: string
  readonly facet: string
  readonly count: number
  readonly #generation: Generation
  readonly #baseUrl: string
  readonly #stream = new ElementStream()
  #faker: Faker | undefined
  /** The records of the elements read last, least recently read first. */
  readonly #kept = new Map<number, readonly VersionRecord[]>()

  constructor(generation: Generation, baseUrl: string) {
    const [collectionId = '', storageId = ''] = generation.storage.split('/')
    this.collectionId = collectionId
    this.storageId = storageId
    this.facet = generation.facet
    this.count = generation.count
    this.#generation = generation
    this.#baseUrl = baseUrl
  }

  /** Whether the generated elements live in this storage (and facet, when one is given). */
  holds(collectionId: string, storageId: string, facet?: string): boolean {
    return collectionId === this.collectionId && storageId === this.storageId && (facet === undefined || facet === this.facet)
  }

  /** The element an element id or a version id names: its index, and which version (0: the element's own id). */
  read(id: string): GeneratedIdParts | undefined {
    const parts = readGeneratedId(this.#generation.seed, id)
    if (!parts || parts.index >= this.count) return undefined
    if (parts.version > 0 && parts.version > this.outline(parts.index).versions.length) return undefined
    return parts
  }

  outline(index: number): ElementOutline {
    return outlineElement(index, this.#generation, this.#stream)
  }

  summary(index: number): ElementSummary {
    const outline = this.outline(index)
    return { storage: this.#generation.storage, facet: this.facet, id: outline.id, type: outline.type, versions: outline.versions.map((v) => ({ ...v })) }
  }

  /** Element `index`'s versions as the store keeps them, oldest first. */
  records(index: number): readonly VersionRecord[] {
    let records = this.#kept.get(index)
    if (records) this.#kept.delete(index)
    else {
      const element = generateElement(index, this.#generation, this.#stream, this.#loadFaker(), this.#baseUrl)
      records = toRecords(element, { baseUrl: this.#baseUrl, newId: noNewId })
      if (this.#kept.size >= KEPT) this.#kept.delete(this.#kept.keys().next().value as number)
    }
    this.#kept.set(index, records)
    return records
  }

  /** faker is loaded when an element's content is first made: most emulators never read one. */
  #loadFaker(): Faker {
    if (!this.#faker) {
      const { faker } = requireModule('@faker-js/faker/locale/en') as typeof import('@faker-js/faker/locale/en')
      this.#faker = streamFaker(this.#stream, faker)
    }
    return this.#faker
  }
}

/** Generated versions come with their ids. */
function noNewId(): string {
  throw new Error('a generated version has its id already')
}
