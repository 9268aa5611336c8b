/**
 * API access's part of a saved state: users, static keys and OAuth clients as changes against the
 * fixtures (a run-time key or client with its secret: the emulator's own), consents, authorization
 * codes, refresh tokens and device codes (used ones too), the grant families' revocations, the
 * rate limit's open windows, the signing keys made at run time (private JWKs: tokens issued
 * before an export verify after an import, at the same address) and OAuth's own id stream.
 * Loaded with import() by the domain's `saved()`.
 */
import * as z from 'zod'
import type { ImportContext, PreparedPart, SavedPart } from '../kernel/saved.js'
import { checkStore, saveStore, storePart } from '../kernel/saved-store.js'
import { type Directory, directorySchemas } from './directory.js'
import type { AccessGate } from './gate.js'
import { clientSchemas } from './oauth/clients.js'
import { consentSchema } from './oauth/consents.js'
import { deviceCodeSchema } from './oauth/device-codes.js'
import { signingKeyFixture } from './oauth/keys.js'
import type { OAuthServer } from './oauth/server.js'
import { singleUseSchemas } from './oauth/single-use-store.js'

const Reason = z.enum(['code-reused', 'refresh-reused'])

export const SavedAuth = z.strictObject({
  users: storePart(directorySchemas().User).prefault({}),
  apiKeys: storePart(directorySchemas().ApiKey).prefault({}),
  oauthClients: storePart(clientSchemas().OAuthClient).prefault({}),
  consents: z.array(consentSchema()).default([]),
  codes: z.array(singleUseSchemas().AuthorizationCode).default([]).meta({ description: 'Authorization codes issued, used ones too.' }),
  refreshTokens: z.array(singleUseSchemas().RefreshToken).default([]).meta({ description: 'Refresh tokens issued, used ones too (a family is the authorization it came from).' }),
  deviceCodes: z.array(deviceCodeSchema()).default([]),
  revocations: z
    .strictObject({
      families: z.array(z.tuple([z.string(), z.string()])).default([]).meta({ description: 'Access token ids (`jti`) with their family.' }),
      access: z.array(z.tuple([z.string(), Reason])).default([]),
      refresh: z.array(z.tuple([z.string(), Reason])).default([]),
    })
    .prefault({}),
  rateLimits: z
    .array(z.tuple([z.string(), z.strictObject({ start: z.number(), count: z.number().int().min(0), limit: z.number().int().min(0), windowMs: z.number().min(0) })]))
    .default([])
    .meta({ description: "The rate limit's open windows, by identity." }),
  signingKeys: z.array(signingKeyFixture().extend({ kid: z.string().min(1) })).default([]).meta({ description: 'Signing keys made at run time, in the order they were made.' }),
  ids: z.number().int().min(0).default(0).meta({ description: "Draws made from OAuth's own id stream since its seed." }),
})
export type SavedAuth = z.output<typeof SavedAuth>
/** API access's part of a saved state, as the document holds it. */
export type SavedAuthInput = z.input<typeof SavedAuth>

export interface AuthParts {
  readonly directory: Directory
  readonly server: OAuthServer
  readonly gate: AccessGate
  /** The origin of the token endpoint: signing keys load only into an emulator at the address that saved them. */
  readonly authUrl: string
}

export function savedAuth(parts: AuthParts): SavedPart<typeof SavedAuth> {
  const { directory, server, gate } = parts
  return {
    save: () => ({
      users: saveStore(directory.users, (u) => u.id),
      apiKeys: saveStore(directory.apiKeys, (k) => k.key),
      oauthClients: saveStore(server.clients.clients, (c) => c.clientId),
      consents: server.consents.consents.all(),
      codes: server.codes.all(),
      refreshTokens: server.refreshTokens.all(),
      deviceCodes: server.deviceCodes.all(),
      revocations: server.revocations.saved(),
      rateLimits: gate.limiter.saved(),
      signingKeys: server.keys.made().map((k) => ({ alg: k.alg, kid: k.kid, privateJwk: { ...k.privateJwk } })),
      ids: server.ids.drawn,
    }),
    prepare: (part, context) => prepareAuth(parts, part, context),
  }
}

async function prepareAuth(parts: AuthParts, part: SavedAuth, context: ImportContext): Promise<PreparedPart> {
  const { directory, server, gate } = parts
  const users = checkStore(directory.users, part.users, (u) => u.id, context, 'users', 'id')
  const apiKeys = checkStore(directory.apiKeys, part.apiKeys, (k) => k.key, context, 'apiKeys', 'key')
  const clients = checkStore(server.clients.clients, part.oauthClients, (c) => c.clientId, context, 'oauthClients', 'clientId')
  for (const [list, name] of [[part.apiKeys.replaced, 'replaced'], [part.apiKeys.added, 'added']] as const) {
    list.forEach((key, index) => {
      if (key.userId !== undefined && !users.keys.has(key.userId)) throw context.problem(`apiKeys.${name}[${index}].userId`, `names user "${key.userId}", which neither the document nor the fixtures have`)
    })
  }
  const known = (path: string, kind: 'user' | 'client', id: string): void => {
    if (!(kind === 'user' ? users.keys : clients.keys).has(id)) throw context.problem(path, `names ${kind} "${id}", which neither the document nor the fixtures have`)
  }
  part.consents.forEach((c, i) => {
    known(`consents[${i}].userId`, 'user', c.userId)
    known(`consents[${i}].clientId`, 'client', c.clientId)
  })
  part.codes.forEach((c, i) => {
    known(`codes[${i}].clientId`, 'client', c.clientId)
    known(`codes[${i}].userId`, 'user', c.userId)
  })
  part.refreshTokens.forEach((t, i) => {
    known(`refreshTokens[${i}].clientId`, 'client', t.clientId)
    known(`refreshTokens[${i}].userId`, 'user', t.userId)
  })
  part.deviceCodes.forEach((c, i) => known(`deviceCodes[${i}].clientId`, 'client', c.clientId))
  unique(part.consents.map((c) => `${c.userId} ${c.clientId}`), 'consents', context)
  unique(part.codes.map((c) => c.code), 'codes', context)
  unique(part.refreshTokens.map((t) => t.token), 'refreshTokens', context)
  unique(part.deviceCodes.map((c) => c.deviceCode), 'deviceCodes', context)
  // Keys load only where the tokens they signed can verify: at the address that saved them.
  const sameIssuer = context.savedAt.auth === parts.authUrl
  const keys = sameIssuer
    ? await server.keys.imported(part.signingKeys).catch((error: unknown) => {
        throw context.problem('signingKeys', `holds a key that is not usable (${error instanceof Error ? error.message : String(error)})`)
      })
    : []
  return {
    targets: { client: [...clients.keys] },
    apply: () => {
      directory.users.restore(users.changes)
      directory.apiKeys.restore(apiKeys.changes)
      server.clients.clients.restore(clients.changes)
      server.consents.consents.restore({ put: part.consents, deleted: [] })
      server.codes.restore(part.codes)
      server.refreshTokens.restore(part.refreshTokens)
      server.deviceCodes.restore(part.deviceCodes)
      server.revocations.restore(part.revocations)
      gate.limiter.restore(part.rateLimits)
      server.keys.replaceMade(keys)
      server.ids.restore(part.ids)
    },
  }
}

function unique(keys: readonly string[], path: string, context: ImportContext): void {
  const seen = new Set<string>()
  keys.forEach((key, index) => {
    if (seen.has(key)) throw context.problem(`${path}[${index}]`, 'is given twice')
    seen.add(key)
  })
}
