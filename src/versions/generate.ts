/**
 * The `generate` fixture section: realistic elements made with a seeded faker (one to four
 * versions each, oldest first, the platform's attributes and relations), so the same seed always
 * gives the same store.
 */
import type { faker as englishFaker } from '@faker-js/faker/locale/en'
import { type ElementFixture, type ElementRef, LANGUAGE, type VersionFixture } from './model.js'

/** faker with the English locale (`@faker-js/faker/locale/en`), which the caller loads. */
export type Faker = typeof englishFaker

/**
 * A private, seeded faker with the English locale (importing only that locale keeps start-up
 * fast). Never the shared instance: re-seeding that would change the values a consumer's own
 * tests draw from it.
 */
export function seededFaker(seed: number, sharedFaker: Faker): Faker {
  const FakerClass = sharedFaker.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker
  const faker = new FakerClass({ locale: sharedFaker.rawDefinitions })
  faker.seed(seed)
  return faker
}

const PROCESS_VERBS = ['Handle', 'Approve', 'Process', 'Review', 'Plan', 'Release', 'Check', 'Record', 'Settle', 'Onboard']
const PROCESS_VERBS_DE = ['Bearbeiten', 'Genehmigen', 'Verarbeiten', 'Prüfen', 'Planen', 'Freigeben', 'Kontrollieren', 'Erfassen', 'Abrechnen', 'Einarbeiten']
const PROCESS_NOUNS = ['purchase order', 'invoice', 'customer complaint', 'goods receipt', 'travel request', 'supplier', 'credit memo', 'sales order', 'change request', 'new employee']
const PROCESS_NOUNS_DE = ['Bestellung', 'Rechnung', 'Kundenreklamation', 'Wareneingang', 'Reiseantrag', 'Lieferant', 'Gutschrift', 'Kundenauftrag', 'Änderungsantrag', 'Neuer Mitarbeiter']

/** Element timestamps: ISO 8601 without a zone, seven fraction digits, as the platform writes them. */
export function platformTimestamp(date: Date, faker: Faker): string {
  return `${date.toISOString().slice(0, 19)}.${faker.string.numeric(7)}`
}

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
 * Generates `count` elements one at a time (a large store never holds them all as objects), with
 * one to four versions each, oldest first: earlier versions expired, then released, and often a
 * newest one in process.
 */
export function* generateElements(
  count: number,
  options: { storage: string; facet: string; seed: number; baseUrl: string; users: readonly ElementRef[]; faker: Faker },
): Generator<ElementFixture, void, undefined> {
  const faker = seededFaker(options.seed, options.faker)
  const [collectionId = '', storageId = ''] = options.storage.split('/')
  for (let i = 0; i < count; i++) {
    const id = faker.string.uuid()
    const verb = faker.number.int({ min: 0, max: PROCESS_VERBS.length - 1 })
    const noun = faker.number.int({ min: 0, max: PROCESS_NOUNS.length - 1 })
    const name = { [LANGUAGE.german]: `${PROCESS_NOUNS_DE[noun]} ${PROCESS_VERBS_DE[verb]?.toLowerCase()}`, [LANGUAGE.english]: `${PROCESS_VERBS[verb]} ${PROCESS_NOUNS[noun]}` }
    const versionCount = faker.number.int({ min: 1, max: 4 })
    const inProcessLast = versionCount > 1 ? faker.datatype.boolean() : faker.datatype.boolean({ probability: 0.3 })
    const type = faker.helpers.arrayElement(['mainProcess', 'subProcess', 'process'])
    let created = faker.date.between({ from: FROM, to: TO - 400 * 86_400_000 })
    const versions: VersionFixture[] = []
    for (let v = 0; v < versionCount; v++) {
      const last = v === versionCount - 1
      const state = last ? (inProcessLast ? 'inProcess' : 'released') : v === versionCount - 2 && inProcessLast ? 'released' : 'expired'
      const versionId = faker.string.uuid()
      const changed = new Date(created.getTime() + faker.number.int({ min: 60_000, max: 30 * 86_400_000 }))
      const released = new Date(changed.getTime() + faker.number.int({ min: 60_000, max: 3 * 86_400_000 }))
      const user = (): ElementRef[] => (options.users.length > 0 ? [faker.helpers.arrayElement(options.users)] : [])
      const attributes: VersionFixture['attributes'] = {
        authorNote: {
          [LANGUAGE.german]: 'Ein oder mehrere Autoren wurden gesetzt. Nur Architekten und die angegebenen Autoren dürfen das aktuelle Element bearbeiten.',
          [LANGUAGE.english]: 'The author was set. Only architects and the defined authors are allowed to edit the current element.',
        },
        changedOn: { [LANGUAGE.neutral]: platformTimestamp(changed, faker) },
        createdOn: { [LANGUAGE.neutral]: platformTimestamp(created, faker) },
        gotoUrl: {
          [LANGUAGE.german]: `${options.baseUrl}/${collectionId}/${storageId}/1031/BasePlugin/GoTo/Processes/treeanddiagram/${versionId}`,
          [LANGUAGE.english]: `${options.baseUrl}/${collectionId}/${storageId}/1033/BasePlugin/GoTo/Processes/treeanddiagram/${versionId}`,
        },
        isReleased: { [LANGUAGE.neutral]: state === 'released' },
        name,
        state1: { [LANGUAGE.neutral]: state },
        validUntil: { [LANGUAGE.neutral]: state === 'expired' ? `${released.toISOString().slice(0, 10)}T00:00:00` : '9999-12-31T00:00:00' },
        version: { [LANGUAGE.neutral]: state === 'inProcess' ? `${v}.1` : `${v + 1}.0` },
      }
      if (state !== 'inProcess') {
        attributes.reasonForRevision = { [LANGUAGE.neutral]: `<?xml version="1.0" encoding="utf-8"?><p>${faker.helpers.arrayElement(REVISION_REASONS)}</p>` }
        attributes.relOn = { [LANGUAGE.neutral]: platformTimestamp(released, faker) }
        attributes.validFrom = { [LANGUAGE.neutral]: `${released.toISOString().slice(0, 10)}T00:00:00` }
      }
      versions.push({
        versionId,
        state,
        displayNames: { [LANGUAGE.german]: 'Prozess', [LANGUAGE.english]: 'Process' },
        attributes: Object.fromEntries(Object.entries(attributes).sort(([a], [b]) => a.localeCompare(b))),
        related: { author: user(), changedBy: user(), createdBy: user(), owner: user(), ...(state === 'inProcess' ? {} : { relBy: user() }) },
      })
      created = released
    }
    yield { storage: options.storage, facet: options.facet, id, type, versions }
  }
}
