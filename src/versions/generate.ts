/**
 * The `generate` fixture section: realistic elements (one to four versions each, oldest first, the
 * platform's attributes and relations), each made from its own random stream, seeded by the seed
 * number and the element's index. Its outline (id, type, its versions' ids and states) comes from
 * the stream's first draws, without faker, so the element list costs little; its content comes
 * from faker reading the same stream on, when the element is read.
 */
import type { faker as englishFaker } from '@faker-js/faker/locale/en'
import type { ElementStream } from './element-stream.js'
import { generatedId } from './generated-ids.js'
import { type ElementFixture, type ElementRef, LANGUAGE, type VersionFixture } from './model.js'

/** faker with the English locale (`@faker-js/faker/locale/en`), which the caller loads. */
export type Faker = typeof englishFaker

/** What generated elements depend on; the same parameters give the same elements. */
export interface Generation {
  readonly count: number
  /** `collectionId/storageId`. */
  readonly storage: string
  readonly facet: string
  readonly seed: number
  /** Users the elements' relations name (the fixtures' user elements of that storage). */
  readonly users: readonly ElementRef[]
}

/** What the element list shows of a generated element. */
export interface ElementOutline {
  readonly id: string
  readonly type: string
  /** Oldest first. */
  readonly versions: ReadonlyArray<{ readonly versionId: string; readonly state: string }>
}

/**
 * A private faker with the English locale that draws from `stream` (importing only that locale
 * keeps start-up fast). Never the shared instance: re-seeding that would change the values a
 * consumer's own tests draw from it.
 */
export function streamFaker(stream: ElementStream, sharedFaker: Faker): Faker {
  const FakerClass = sharedFaker.constructor as new (options: { locale: Faker['rawDefinitions']; randomizer: ElementStream }) => Faker
  return new FakerClass({ locale: sharedFaker.rawDefinitions, randomizer: stream })
}

const TYPES = ['mainProcess', 'subProcess', 'process'] as const
const PROCESS_VERBS = ['Handle', 'Approve', 'Process', 'Review', 'Plan', 'Release', 'Check', 'Record', 'Settle', 'Onboard']
const PROCESS_VERBS_DE = ['Bearbeiten', 'Genehmigen', 'Verarbeiten', 'Prüfen', 'Planen', 'Freigeben', 'Kontrollieren', 'Erfassen', 'Abrechnen', 'Einarbeiten']
const PROCESS_NOUNS = ['purchase order', 'invoice', 'customer complaint', 'goods receipt', 'travel request', 'supplier', 'credit memo', 'sales order', 'change request', 'new employee']
const PROCESS_NOUNS_DE = ['Bestellung', 'Rechnung', 'Kundenreklamation', 'Wareneingang', 'Reiseantrag', 'Lieferant', 'Gutschrift', 'Kundenauftrag', 'Änderungsantrag', 'Neuer Mitarbeiter']
const REVISION_REASONS = [
  'Verantwortlichkeiten angepasst.',
  'Neue Freigabestufe eingeführt.',
  'Schnittstelle zum ERP-System ergänzt.',
  'Prüfschritt nach Audit ergänzt.',
  'Durchlaufzeit verkürzt.',
  'Rollen nach Reorganisation aktualisiert.',
]
const FROM = Date.parse('2019-01-01T00:00:00Z')
const TO = Date.parse('2025-12-31T00:00:00Z')

/**
 * Element `index`'s outline, from the first draws of its stream: earlier versions expired, then
 * released, and often a newest one in process. Leaves the stream where the content goes on.
 */
export function outlineElement(index: number, generation: Generation, stream: ElementStream): ElementOutline {
  stream.seed([generation.seed, index])
  const versionCount = 1 + stream.below(4)
  const inProcessLast = stream.next() < (versionCount > 1 ? 0.5 : 0.3)
  const type = TYPES[stream.below(TYPES.length)] ?? 'process'
  const versions = Array.from({ length: versionCount }, (_, v) => {
    const last = v === versionCount - 1
    const state = last ? (inProcessLast ? 'inProcess' : 'released') : v === versionCount - 2 && inProcessLast ? 'released' : 'expired'
    return { versionId: generatedId(generation.seed, index, v + 1), state }
  })
  return { id: generatedId(generation.seed, index, 0), type, versions }
}

/** Element `index` whole; `faker` draws from `stream`. Links are written with `baseUrl`. */
export function generateElement(index: number, generation: Generation, stream: ElementStream, faker: Faker, baseUrl: string): ElementFixture {
  const outline = outlineElement(index, generation, stream)
  const [collectionId = '', storageId = ''] = generation.storage.split('/')
  const verb = faker.number.int({ min: 0, max: PROCESS_VERBS.length - 1 })
  const noun = faker.number.int({ min: 0, max: PROCESS_NOUNS.length - 1 })
  const name = { [LANGUAGE.german]: `${PROCESS_NOUNS_DE[noun]} ${PROCESS_VERBS_DE[verb]?.toLowerCase()}`, [LANGUAGE.english]: `${PROCESS_VERBS[verb]} ${PROCESS_NOUNS[noun]}` }
  const user = (): ElementRef[] => (generation.users.length > 0 ? [faker.helpers.arrayElement(generation.users)] : [])
  let created = faker.date.between({ from: FROM, to: TO - 400 * 86_400_000 })
  const versions = outline.versions.map(({ versionId, state }, v): VersionFixture => {
    const changed = new Date(created.getTime() + faker.number.int({ min: 60_000, max: 30 * 86_400_000 }))
    const released = new Date(changed.getTime() + faker.number.int({ min: 60_000, max: 3 * 86_400_000 }))
    const releasedOn = `${released.toISOString().slice(0, 10)}T00:00:00`
    // In the order of their names, as the platform lists them.
    const attributes: VersionFixture['attributes'] = {
      authorNote: {
        [LANGUAGE.german]: 'Ein oder mehrere Autoren wurden gesetzt. Nur Architekten und die angegebenen Autoren dürfen das aktuelle Element bearbeiten.',
        [LANGUAGE.english]: 'The author was set. Only architects and the defined authors are allowed to edit the current element.',
      },
      changedOn: { [LANGUAGE.neutral]: platformTimestamp(changed, faker) },
      createdOn: { [LANGUAGE.neutral]: platformTimestamp(created, faker) },
      gotoUrl: {
        [LANGUAGE.german]: `${baseUrl}/${collectionId}/${storageId}/1031/BasePlugin/GoTo/Processes/treeanddiagram/${versionId}`,
        [LANGUAGE.english]: `${baseUrl}/${collectionId}/${storageId}/1033/BasePlugin/GoTo/Processes/treeanddiagram/${versionId}`,
      },
      isReleased: { [LANGUAGE.neutral]: state === 'released' },
      name,
    }
    if (state !== 'inProcess') {
      attributes.reasonForRevision = { [LANGUAGE.neutral]: `<?xml version="1.0" encoding="utf-8"?><p>${faker.helpers.arrayElement(REVISION_REASONS)}</p>` }
      attributes.relOn = { [LANGUAGE.neutral]: platformTimestamp(released, faker) }
    }
    attributes.state1 = { [LANGUAGE.neutral]: state }
    if (state !== 'inProcess') attributes.validFrom = { [LANGUAGE.neutral]: releasedOn }
    attributes.validUntil = { [LANGUAGE.neutral]: state === 'expired' ? releasedOn : '9999-12-31T00:00:00' }
    attributes.version = { [LANGUAGE.neutral]: state === 'inProcess' ? `${v}.1` : `${v + 1}.0` }
    created = released
    return {
      versionId,
      state,
      displayNames: { [LANGUAGE.german]: 'Prozess', [LANGUAGE.english]: 'Process' },
      attributes,
      related: { author: user(), changedBy: user(), createdBy: user(), owner: user(), ...(state === 'inProcess' ? {} : { relBy: user() }) },
    }
  })
  return { storage: generation.storage, facet: generation.facet, id: outline.id, type: outline.type, versions }
}

/** Element timestamps: ISO 8601 without a zone, seven fraction digits, as the platform writes them. */
function platformTimestamp(date: Date, faker: Faker): string {
  return `${date.toISOString().slice(0, 19)}.${faker.string.numeric(7)}`
}
