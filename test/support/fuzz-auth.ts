/**
 * Every `Authorization` form the fuzz suite sends to the API and to secured webhooks: none, the
 * static keys, OAuth access tokens minted by the emulator, tokens forged with the pinned signing
 * key (valid signature, any claims: an `iss` of `é€`, a past `exp`), hand-made JWTs with any
 * header (`alg` `é€`, `none`, an unknown `kid`) and any other scheme or Latin-1 text.
 * The contract that uses them pins `FUZZ_SIGNING_KEY` through fixtures.
 */
import fc from 'fast-check'
import { SignJWT, exportJWK, generateKeyPair } from 'jose'
import type { Harness } from './harness.js'
import { knownOr, latin1Text, weirdText } from './fuzz-arbitraries.js'

export const PINNED_KID = 'fuzz-pinned-key'
const pinned = await generateKeyPair('ES256', { extractable: true })
/** Fixtures that pin the ES256 signing key, so tokens can be forged with any claims. */
export const FUZZ_SIGNING_FIXTURES = { signingKeys: [{ alg: 'ES256' as const, kid: PINNED_KID, privateJwk: await exportJWK(pinned.privateKey) }] }

export type ClaimValue = string | number | null | string[]

export type AuthSpec =
  | { kind: 'none' }
  | { kind: 'app-key' }
  | { kind: 'user-key'; user: 'alice' | 'bob' }
  | { kind: 'minted'; clientId: 'ci-client' | 'ci-post-client' | 'limited-client' | 'web-app'; userId: 'alice' | 'bob' }
  | { kind: 'forged'; claims: Record<string, ClaimValue>; drop: string[] }
  | { kind: 'crafted'; header: Record<string, ClaimValue>; payload: Record<string, ClaimValue>; signature: string }
  | { kind: 'scheme'; scheme: string; value: string }

const claimValue: fc.Arbitrary<ClaimValue> = fc.oneof(
  weirdText(16),
  fc.constantFrom('é€', '日本', 'https://evil.example', ''),
  fc.integer(),
  fc.constantFrom(1e16, -1, 0, 8.64e12),
  fc.constant(null),
  fc.array(weirdText(8), { maxLength: 3 }),
)

/** Claims to change in a token like the emulator's (the rest stay valid). */
const claimChanges: fc.Arbitrary<Record<string, ClaimValue>> = fc.dictionary(
  fc.constantFrom('iss', 'aud', 'sub', 'client_id', 'scope', 'exp', 'iat', 'nbf', 'jti'),
  claimValue,
  { maxKeys: 3 },
)

export function authSpec(): fc.Arbitrary<AuthSpec> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 3, arbitrary: fc.constant({ kind: 'app-key' as const }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('user-key' as const), user: fc.constantFrom('alice' as const, 'bob' as const) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('minted' as const),
        clientId: fc.constantFrom('ci-client' as const, 'ci-post-client' as const, 'limited-client' as const, 'web-app' as const),
        userId: fc.constantFrom('alice' as const, 'bob' as const),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('forged' as const),
        claims: claimChanges,
        drop: fc.subarray(['exp', 'iat', 'sub', 'client_id']),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('crafted' as const),
        header: fc.record(
          { alg: knownOr(['ES256', 'RS256', 'none', 'None', 'HS256', 'é€', 'ES256 '], 3, 8), kid: knownOr([PINNED_KID, 'unknown', 'é€'], 3, 8), typ: fc.constant('JWT') },
          { requiredKeys: [] },
        ),
        payload: claimChanges,
        signature: fc.constantFrom('', 'AAAA', 'not-a-signature', '_-_-'),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('scheme' as const),
        scheme: knownOr(['Bearer', 'bearer', 'BEARER', 'AppKey', 'appkey', 'Basic', 'Digest', 'Token', ''], 3, 10).map(latin1Only),
        value: fc.oneof(latin1Text(40), fc.constantFrom('svcmock-app-key', 'svcmock-user-key-alice', '  svcmock-app-key  ', 'a.b.c', '..', 'é€'.replace('€', 'e'))),
      }),
    },
  )
}

/** Keeps a generated text to what a header can carry (characters above U+00FF become "?"). */
export function latin1Only(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?')
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url')

/** The `Authorization` header value of a spec (undefined: no header). */
export async function authorization(h: Harness, spec: AuthSpec): Promise<string | undefined> {
  switch (spec.kind) {
    case 'none':
      return undefined
    case 'app-key':
      return 'AppKey svcmock-app-key'
    case 'user-key':
      return `Bearer svcmock-user-key-${spec.user}`
    case 'minted': {
      const minted = await h.emu.oauth.issueToken({ clientId: spec.clientId, ...(spec.clientId === 'web-app' ? { userId: spec.userId } : {}) })
      return `Bearer ${minted.access_token}`
    }
    case 'forged': {
      const now = Math.floor(h.emu.clock.now().getTime() / 1000)
      const payload: Record<string, unknown> = { iss: h.emu.urls.auth, sub: 'ci-client', aud: h.emu.urls.base, client_id: 'ci-client', scope: 'studio', iat: now, exp: now + 899, jti: 'fuzz', ...spec.claims }
      for (const name of spec.drop) delete payload[name]
      return `Bearer ${await new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: PINNED_KID, typ: 'JWT' }).sign(pinned.privateKey)}`
    }
    case 'crafted': {
      const now = Math.floor(h.emu.clock.now().getTime() / 1000)
      const payload = { iss: h.emu.urls.auth, sub: 'ci-client', aud: h.emu.urls.base, client_id: 'ci-client', iat: now, exp: now + 899, ...spec.payload }
      return `Bearer ${b64(spec.header)}.${b64(payload)}.${spec.signature}`
    }
    case 'scheme':
      return `${spec.scheme} ${spec.value}`.trim() === '' ? 'x' : `${spec.scheme} ${spec.value}`
  }
}
