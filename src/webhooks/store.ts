/**
 * The webhook store: webhook records (their flow included) by id, in a KeyedStore, so a reset
 * returns to the fixtures' by undoing only what changed. Writes are synchronous: a learning
 * webhook learns from exactly one call, even when calls arrive together.
 */
import { KeyedStore } from '../kernel/keyed-store.js'
import { webhookSchemas } from './model.js'

export type WebhookStore = KeyedStore<ReturnType<typeof webhookSchemas>['WebhookRecord']>

export function webhookStore(): WebhookStore {
  return new KeyedStore(() => webhookSchemas().WebhookRecord, (w) => w.id)
}
