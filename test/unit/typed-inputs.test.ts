/**
 * The in-process control API takes the zod schemas' input types: a typo is a type error, not only a
 * run-time 400. This file is checked by `npm run typecheck` (part of `.ci/run`): each
 * `@ts-expect-error` below must meet an error, or the type check fails. The run-time checks stay,
 * and the calls run here too. A type-level check walks every public input for `unknown` or `any`.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { UseEmulatorOptions } from '../../src/adapters/vitest.js'
import type { ServerOptions } from '../../src/adapters/server.js'
import {
  type ApiKeyInput,
  createEmulator,
  type ElementInput,
  type Emulator,
  type EmulatorOptions,
  type FlowPatchInput,
  type InlineFixtures,
  InvalidInputError,
  type OAuthClientInput,
  type StorageInput,
  type VersionInput,
  type WebhookInput,
} from '../../src/index.js'

type IsAny<T> = 0 extends 1 & T ? true : false
type IsUnknown<T> = IsAny<T> extends true ? false : unknown extends T ? true : false
/** Platform classes are leaves (a Request's signal has an `any` reason: not svc-mock's to fix). */
type Leaf = Request | Response | Headers | URL | AbortSignal | Uint8Array | Date | RegExp
/** `true` when `unknown` or `any` appears anywhere in T (functions, callbacks the caller writes, are not inputs). */
type Loose<T, Depth extends readonly 0[] = []> = Depth['length'] extends 12
  ? false
  : IsAny<T> extends true
    ? true
    : IsUnknown<T> extends true
      ? true
      : T extends Leaf
        ? false
        : T extends (...args: never) => unknown
          ? false
          : T extends readonly (infer Item)[]
            ? Loose<Item, [...Depth, 0]>
            : T extends object
              ? true extends { [K in keyof T]-?: Loose<T[K], [...Depth, 0]> }[keyof T]
                ? true
                : false
              : false

/** The parameters of every method of an API object, nested objects included. */
type Inputs<T, Depth extends readonly 0[] = []> = Depth['length'] extends 4
  ? never
  : { [K in keyof T]: T[K] extends (...args: infer P) => unknown ? P : T[K] extends object ? Inputs<T[K], [...Depth, 0]> : never }[keyof T]

describe('public input types', () => {
  it('hold no unknown and no any', () => {
    expectTypeOf<Loose<Inputs<Emulator>>>().toEqualTypeOf<false>()
    expectTypeOf<Loose<EmulatorOptions>>().toEqualTypeOf<false>()
    expectTypeOf<Loose<ServerOptions>>().toEqualTypeOf<false>()
    expectTypeOf<Loose<UseEmulatorOptions>>().toEqualTypeOf<false>()
    expectTypeOf<Loose<InlineFixtures>>().toEqualTypeOf<false>()
    // The check itself is not vacuous.
    expectTypeOf<Loose<{ a: { b: unknown[] } }>>().toEqualTypeOf<true>()
    expectTypeOf<Loose<{ a?: string | { b: any } }>>().toEqualTypeOf<true>()
  })

  it('are the schemas\' input types, by name', () => {
    expectTypeOf<Parameters<Emulator['webhooks']['create']>[0]>().toEqualTypeOf<WebhookInput>()
    expectTypeOf<Parameters<Emulator['webhooks']['updateFlow']>[1]>().toEqualTypeOf<FlowPatchInput>()
    expectTypeOf<Parameters<Emulator['elements']['add']>[0]>().toEqualTypeOf<ElementInput>()
    expectTypeOf<Parameters<Emulator['elements']['addVersion']>[1]>().toEqualTypeOf<VersionInput>()
    expectTypeOf<Parameters<Emulator['storages']['add']>[0]>().toEqualTypeOf<StorageInput>()
    expectTypeOf<Parameters<Emulator['apiKeys']['create']>[0]>().toEqualTypeOf<ApiKeyInput>()
    expectTypeOf<Parameters<Emulator['oauth']['clients']['create']>[0]>().toEqualTypeOf<OAuthClientInput>()
  })
})

describe('a typo is a type error, and still a 400 at run time', async () => {
  const emu = await createEmulator({ clock: 'manual' })

  it('webhooks.create and updateFlow', async () => {
    const created = await emu.webhooks.create({ name: 'invoices', dataStructure: [{ name: 'invoiceId', type: 'text', required: true }], flow: { response: { status: 201, body: { ok: true } } } })
    expect(created.url).toMatch(/\/hooks\//)
    // @ts-expect-error "txt" is not a field type
    await expect(emu.webhooks.create({ name: 'x', dataStructure: [{ name: 'a', type: 'txt' }] })).rejects.toThrow(InvalidInputError)
    // @ts-expect-error "outcom" is not a flow field
    await expect(emu.webhooks.updateFlow('orders', { outcom: 'fail' })).rejects.toThrow(/unknown member "outcom" \(did you mean "outcome"\?\)/)
    // @ts-expect-error "explode" is not an outcome
    await expect(emu.webhooks.updateFlow('orders', { outcome: 'explode' })).rejects.toThrow(InvalidInputError)
    await emu.webhooks.updateFlow('orders', { active: false, response: { status: 302, headers: { location: '/next' } } })
  })

  it('elements.add, elements.addVersion and storages.add', async () => {
    const element = await emu.elements.add({ storage: 'acme-collection/acme-tenant', facet: 'processes', type: 'process', versions: [{ state: 'released', attributes: { name: { '1033': 'Invoice' } } }] })
    // @ts-expect-error "stat" is not a version field (and "state" is missing)
    await expect(emu.elements.addVersion(element.id, { stat: 'released' })).rejects.toThrow(InvalidInputError)
    // @ts-expect-error a storage needs its facets
    await expect(emu.storages.add({ collectionId: 'c', storageId: 's' })).rejects.toThrow(InvalidInputError)
  })

  it('apiKeys.create and oauth.clients.create', async () => {
    // @ts-expect-error "robot" is not a kind of key
    await expect(emu.apiKeys.create({ kind: 'robot' })).rejects.toThrow(InvalidInputError)
    const created = await emu.oauth.clients.create({ name: 'ci', grantType: 'Client Credentials', authMethod: 'client_secret_basic', scopes: ['studio'] })
    expect(created.grantType).toBe('client_credentials')
    // @ts-expect-error "studi" is not a platform scope
    await expect(emu.oauth.clients.create({ name: 'ci', grantType: 'client_credentials', authMethod: 'client_secret_basic', scopes: ['studi'] })).rejects.toThrow(/"studi" is not a platform scope/)
    // @ts-expect-error "client_credential" is neither a grant type nor one of the platform's labels
    await expect(emu.oauth.clients.create({ name: 'ci', grantType: 'client_credential', authMethod: 'client_secret_basic' })).rejects.toThrow(InvalidInputError)
  })

  it('options: settings and inline fixtures', async () => {
    // @ts-expect-error "queueCapacty" is not a webhooks setting
    await expect(createEmulator({ settings: { webhooks: { queueCapacty: 1 } } })).rejects.toThrow(/queueCapacty/)
    // @ts-expect-error "hang" belongs to outcome, not to active
    await expect(createEmulator({ fixtures: { webhooks: [{ name: 'x', flow: { active: 'hang' } }] } })).rejects.toThrow(/flow\.active/)
  })
})
