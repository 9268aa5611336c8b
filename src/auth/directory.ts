/**
 * The identities of the platform: users and static keys (user API keys and application keys).
 * Static keys never expire and cannot be rotated: they are deleted and created anew. Each in a
 * KeyedStore: every API call looks its key up.
 */
import * as z from 'zod'
import { ConflictError, FixtureError, InvalidInputError } from '../kernel/errors.js'
import { type FixtureRecord, fixtureSection, type FixtureSection } from '../kernel/fixtures.js'
import { KeyedStore } from '../kernel/keyed-store.js'
import { parseBody } from '../kernel/validation.js'
import { type Permission, permissionSchema } from './permissions.js'
import { once } from '../kernel/once.js'

/** A user's role on the team, as `GET /api/cloud` reports it. */
export const USER_ROLES = ['member', 'analyst', 'admin'] as const
export type UserRole = (typeof USER_ROLES)[number]

/**
 * The schemas of users and static keys (fixtures, inputs, stored records), made on the first call:
 * the default fixtures come validated from the build, and a key is looked up, never parsed.
 */
export const directorySchemas: () => DirectorySchemas = once(makeSchemas)
type DirectorySchemas = ReturnType<typeof makeSchemas>

function makeSchemas() {
  const Permission = permissionSchema()
  const User = z.strictObject({
    /** Login name, used as `login_hint` and as the `sub` of code-grant tokens. */
    id: z.string().regex(/^[A-Za-z0-9._@-]+$/, 'must be letters, digits, ".", "_", "@" or "-"'),
    name: z.string().min(1),
    email: z.string().email().optional(),
    /** Id of the user's element in the `users` facet, which element relations point at. */
    elementId: z.string().optional(),
    permissions: z.array(Permission).default([]),
    /** The user's role on the team (`GET /api/cloud`); default member. */
    role: z.enum(USER_ROLES).optional(),
  })
  const ApiKey = z
    .strictObject({
      /** A name for the key (shown in the journal instead of the key itself). */
      id: z.string().min(1),
      kind: z.enum(['user', 'app']),
      /** The secret value sent in the Authorization header. */
      key: z.string().min(8, 'must be at least 8 characters'),
      /** For a user API key: the user it acts as (it has that user's permissions). */
      userId: z.string().optional(),
      /** For an application key: its own permissions. */
      permissions: z.array(Permission).default([]),
    })
    .refine((k) => k.kind !== 'user' || k.userId !== undefined, { message: 'a user API key needs "userId"', path: ['userId'] })
  const CreateApiKeyBody = z.strictObject({
    kind: z.enum(['user', 'app']),
    userId: z.string().optional(),
    permissions: z.array(Permission).optional(),
    id: z.string().min(1).optional(),
    key: z.string().min(8).optional(),
  })

  return { User, ApiKey, CreateApiKeyBody }
}

export type User = z.infer<DirectorySchemas['User']>
export type UserInput = z.input<DirectorySchemas['User']>
export type ApiKey = z.infer<DirectorySchemas['ApiKey']>
export type ApiKeyFixture = z.input<DirectorySchemas['ApiKey']>
/** A static key as `emu.apiKeys.create()` and `POST /__svc-mock/api-keys` take it. */
export type ApiKeyInput = z.input<DirectorySchemas['CreateApiKeyBody']>

export const usersSection: FixtureSection<User> = fixtureSection('users', () => directorySchemas().User, (u) => u.id)
export const apiKeysSection: FixtureSection<ApiKey> = fixtureSection('apiKeys', () => directorySchemas().ApiKey, (k) => k.id)

export class Directory {
  readonly users = new KeyedStore(() => directorySchemas().User, (u) => u.id)
  readonly apiKeys = new KeyedStore(() => directorySchemas().ApiKey, (k) => k.key)

  /** Loads the fixtures' users and keys; a key naming an unknown user fails with its file and path. */
  load(users: FixtureRecord<User>[], keys: FixtureRecord<ApiKey>[]): void {
    const ids = new Set(users.map((u) => u.value.id))
    for (const key of keys) {
      if (key.value.userId !== undefined && !ids.has(key.value.userId)) {
        throw new FixtureError(key.file, `${key.path}.userId`, `names user "${key.value.userId}", which no fixture defines`)
      }
    }
    this.users.seed(users.map((u) => u.value))
    this.apiKeys.seed(keys.map((k) => k.value))
  }

  reset(): void {
    this.users.reset()
    this.apiKeys.reset()
  }

  user(id: string): User | undefined {
    return this.users.get(id)
  }

  apiKey(key: string): ApiKey | undefined {
    return this.apiKeys.get(key)
  }

  /** The permissions a key acts with: its user's for a user key, its own for an application key. */
  keyPermissions(key: ApiKey): Permission[] {
    if (key.kind === 'user') return this.user(key.userId ?? '')?.permissions ?? []
    return key.permissions
  }

  createApiKey(input: ApiKeyInput, generate: () => string): ApiKey {
    const body = parseBody(directorySchemas().CreateApiKeyBody, input, 'API key')
    const { kind, userId, permissions, id } = body
    if (kind === 'user' && (userId === undefined || !this.user(userId))) {
      throw new InvalidInputError(`Invalid API key: userId must name a known user (${this.users.all().map((u) => u.id).join(', ')})`, 'userId')
    }
    const key = body.key ?? `svcmock-${kind}-key-${generate()}`
    if (this.apiKey(key)) throw new ConflictError('An API key with this value exists already.', 'key')
    return this.apiKeys.put({
      id: id ?? `${kind}-key-${this.apiKeys.size + 1}`,
      kind,
      key,
      ...(userId === undefined ? {} : { userId }),
      permissions: permissions ?? [],
    })
  }

  deleteApiKey(key: string): boolean {
    return this.apiKeys.delete(key)
  }
}

/** What a key looks like in the control plane: everything but the secret value. */
export function describeApiKey(key: ApiKey): { id: string; kind: 'user' | 'app'; userId?: string; permissions: Permission[] } {
  return {
    id: key.id,
    kind: key.kind,
    ...(key.userId === undefined ? {} : { userId: key.userId }),
    permissions: key.permissions,
  }
}
