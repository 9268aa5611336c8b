/**
 * The keys that sign access tokens, one per algorithm (RS256, ES256, ES384, EdDSA). A key is made
 * the first time its algorithm is needed (the first token or JWKS request), never on the start-up
 * path, so start-up never waits for RSA key generation. Fixtures may pin a key (`signingKeys`) so
 * tokens verify the same across runs. The JWKS lists the public half of every key made so far.
 * Keys survive `reset()`. A key made here is extractable: a saved state holds its private JWK, so
 * tokens issued before an export still verify after an import. jose is loaded with the first key:
 * an emulator whose test takes no token never loads it.
 */
import { KeyObject, sign } from 'node:crypto'
import type { CryptoKey, JWK } from 'jose'
import * as z from 'zod'
import { JsonValue } from '../../kernel/json.js'
import { once } from '../../kernel/once.js'
import { type FixtureRecord, fixtureSection, type FixtureSection } from '../../kernel/fixtures.js'
import { FixtureError } from '../../kernel/errors.js'
import { TOKEN_ALGORITHMS, type TokenAlgorithm } from '../settings.js'

export interface SigningKey {
  readonly kid: string
  readonly alg: TokenAlgorithm
  readonly privateKey: CryptoKey
  readonly publicKey: CryptoKey
  readonly publicJwk: JWK
  /** The private key as a JWK (what a saved state holds). */
  readonly privateJwk: JWK
  /** Given by the fixtures (`signingKeys`), not made at run time. */
  readonly pinned: boolean
  /** The JWS protected header `{alg, kid, typ: "JWT"}`, base64url-encoded once. */
  readonly header: string
  /** The JWS signature of `input` (RFC 7518 section 3: raw r||s for ECDSA). */
  sign(input: string): Uint8Array
}

/** node:crypto's digest and signature format for each algorithm. */
const SIGNATURE: Record<TokenAlgorithm, { digest: string | null; dsaEncoding?: 'ieee-p1363' }> = {
  RS256: { digest: 'sha256' },
  ES256: { digest: 'sha256', dsaEncoding: 'ieee-p1363' },
  ES384: { digest: 'sha384', dsaEncoding: 'ieee-p1363' },
  EdDSA: { digest: null },
}

/** A pinned key, as fixtures and saved states give it (made on first use). */
export const signingKeyFixture = once(() =>
  z.strictObject({
    alg: z.enum(TOKEN_ALGORITHMS),
    /** Key id; default: the JWK thumbprint. */
    kid: z.string().min(1).optional(),
    /** The private key as a JWK (with `d`). */
    privateJwk: z
      .record(z.string(), JsonValue)
      .refine((jwk) => typeof jwk.d === 'string', { message: 'must be a private JWK (it has no "d")' }) as unknown as z.ZodType<Record<string, JsonValue>, JWK>,
  }),
)
export type SigningKeyFixture = z.infer<ReturnType<typeof signingKeyFixture>>
export type SigningKeyInput = z.input<ReturnType<typeof signingKeyFixture>>

export const signingKeysSection: FixtureSection<SigningKeyFixture> = fixtureSection('signingKeys', signingKeyFixture, (k) => k.alg)

const PUBLIC_MEMBERS = ['kty', 'crv', 'x', 'y', 'n', 'e'] as const

export class SigningKeys {
  #keys = new Map<TokenAlgorithm, Promise<SigningKey>>()
  #ready: SigningKey[] = []
  /** Counts the times the keys were replaced (a saved state loaded): a key still being made for an earlier set joins none. */
  #epoch = 0

  /** Imports the keys pinned by fixtures (a bad key names its file and path). */
  async load(pinned: readonly FixtureRecord<SigningKeyFixture>[]): Promise<void> {
    for (const { value, file, path } of pinned) {
      const promise = importKey(value, true).catch((error: unknown) => {
        throw new FixtureError(file, `${path}.privateJwk`, `is not a usable ${value.alg} private key (${error instanceof Error ? error.message : String(error)})`)
      })
      this.#keys.set(value.alg, promise)
      this.#ready.push(await promise)
    }
  }

  /** The key that signs tokens with `alg`, made on first use. */
  get(alg: TokenAlgorithm): Promise<SigningKey> {
    let key = this.#keys.get(alg)
    if (!key) {
      const epoch = this.#epoch
      key = generate(alg).then((made) => {
        if (epoch === this.#epoch) this.#ready.push(made)
        return made
      })
      this.#keys.set(alg, key)
    }
    return key
  }

  /** The keys made at run time (not pinned), in the order they were made. */
  made(): SigningKey[] {
    return this.#ready.filter((k) => !k.pinned)
  }

  /** Keys as a saved state holds them, made usable (a bad one throws); the algorithms pinned here are left out. */
  async imported(saved: readonly SigningKeyFixture[]): Promise<SigningKey[]> {
    const pinned = new Set(this.#ready.filter((k) => k.pinned).map((k) => k.alg))
    return await Promise.all(saved.filter((k) => !pinned.has(k.alg)).map((k) => importKey(k, false)))
  }

  /** The pinned keys, then these in place of every key made so far. */
  replaceMade(keys: readonly SigningKey[]): void {
    this.#epoch++
    const pinned = this.#ready.filter((k) => k.pinned)
    this.#ready = [...pinned, ...keys]
    this.#keys = new Map(this.#ready.map((k) => [k.alg, Promise.resolve(k)]))
  }

  /** A key made so far, by its id (what a token's header names). */
  byKid(kid: string): SigningKey | undefined {
    return this.#ready.find((k) => k.kid === kid)
  }

  /** The JWKS: the public half of every key made so far, the current algorithm's included. */
  async jwks(current: TokenAlgorithm): Promise<{ keys: JWK[] }> {
    await this.get(current)
    return { keys: this.#ready.map((k) => k.publicJwk) }
  }
}

async function generate(alg: TokenAlgorithm): Promise<SigningKey> {
  const { generateKeyPair, exportJWK } = await import('jose')
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  return await describe(alg, privateKey, publicKey, undefined, await exportJWK(privateKey), false)
}

async function importKey(fixture: SigningKeyFixture, pinned: boolean): Promise<SigningKey> {
  const jwk = fixture.privateJwk as JWK
  const { importJWK } = await import('jose')
  const privateKey = await importJWK(jwk, fixture.alg, { extractable: true })
  const publicJwk: JWK = {}
  for (const member of PUBLIC_MEMBERS) if (jwk[member] !== undefined) publicJwk[member] = jwk[member]
  const publicKey = await importJWK(publicJwk, fixture.alg)
  if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) throw new Error('expected an asymmetric key')
  return await describe(fixture.alg, privateKey, publicKey, fixture.kid, jwk, pinned)
}

async function describe(alg: TokenAlgorithm, privateKey: CryptoKey, publicKey: CryptoKey, kid: string | undefined, privateJwk: JWK, pinned: boolean): Promise<SigningKey> {
  const { calculateJwkThumbprint, exportJWK } = await import('jose')
  const exported = await exportJWK(publicKey)
  const publicJwk: JWK = {}
  for (const member of PUBLIC_MEMBERS) if (exported[member] !== undefined) publicJwk[member] = exported[member]
  const id = kid ?? (await calculateJwkThumbprint(publicJwk))
  // Signing is node:crypto's, synchronous, with the key object made once: jose's WebCrypto path
  // signs the same bytes at a higher cost per token (docs/decisions/speed-mechanisms.md).
  const { digest, dsaEncoding } = SIGNATURE[alg]
  const keyObject = KeyObject.from(privateKey)
  const signingKey = dsaEncoding ? { key: keyObject, dsaEncoding } : keyObject
  return {
    kid: id,
    alg,
    privateKey,
    publicKey,
    publicJwk: { ...publicJwk, kid: id, alg, use: 'sig' },
    privateJwk,
    pinned,
    header: Buffer.from(JSON.stringify({ alg, kid: id, typ: 'JWT' })).toString('base64url'),
    sign: (input) => sign(digest, Buffer.from(input), signingKey),
  }
}
