/**
 * The webhook store: webhook records (their flow included) by id, in a KeyedStore, so a reset
 * returns to the fixtures' by undoing only what changed. Writes are synchronous: a learning
 * webhook learns from exactly one call, even when calls arrive together.
 */
import { KeyedStore } from '../kernel/keyed-store.js'
import { WebhookRecord } from './model.js'

export type WebhookStore = KeyedStore<typeof WebhookRecord>

export function webhookStore(): WebhookStore {
  return new KeyedStore(WebhookRecord, (w) => w.id)
}
