// Fedify's KvStore on our LMDB store (src/store/federation-kv.ts): what Fedify keeps between requests and
// across threads (cached remote documents and keys, idempotence marks) lives in the same environment as
// everything else, so every worker thread and a restart see it. Values must be JSON-serialisable, as in
// Fedify's other stores (Redis, PostgreSQL). TTLs are honoured on every read; expired entries are swept as
// later entries with a TTL are written.
import { isDeepStrictEqual } from "node:util";
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from "@fedify/fedify";
import type { Store } from "../store/db.ts";
import { SIGNATURE_SPEC_PREFIX, SIGNATURE_SPEC_TTL_MS } from "./ld-signatures.ts";
import { getFederationKv, listFederationKv, putFederationKv, removeFederationKv } from "../store/federation-kv.ts";

/** Keys Fedify writes without a TTL that must expire all the same: each server's signature scheme
 * (ld-signatures.ts), which Fedify's KvSpecDeterminer would otherwise keep forever. */
function defaultTtlMs(key: KvKey): number | null {
  return SIGNATURE_SPEC_PREFIX.every((part, i) => key[i] === part) ? SIGNATURE_SPEC_TTL_MS : null;
}

function expiry(key: KvKey, options: KvStoreSetOptions | undefined, now: number): number | null {
  if (!options?.ttl) {
    const ttl = defaultTtlMs(key);
    return ttl === null ? null : now + ttl;
  }
  return now + Math.max(0, Math.round(options.ttl.total({ unit: "milliseconds" })));
}

/** JSON text of a value; `undefined` (which JSON cannot hold) is stored as a deletion by the callers. */
function encode(value: unknown): string {
  return JSON.stringify(value);
}

export class LmdbKvStore implements KvStore {
  constructor(private readonly store: Store) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const entry = getFederationKv(this.store, key);
    return entry ? (JSON.parse(entry.json) as T) : undefined;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const now = Date.now();
    await this.store.write(() => {
      if (value === undefined) removeFederationKv(this.store, key);
      else putFederationKv(this.store, key, encode(value), expiry(key, options, now), now);
    });
  }

  async delete(key: KvKey): Promise<void> {
    await this.store.write(() => removeFederationKv(this.store, key));
  }

  /** Sets `newValue` only if the current value (undefined when absent or expired) equals `expectedValue`. */
  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    const now = Date.now();
    return this.store.write(() => {
      const entry = getFederationKv(this.store, key, now);
      const current = entry ? JSON.parse(entry.json) : undefined;
      if (!isDeepStrictEqual(current, expectedValue)) return false;
      if (newValue === undefined) removeFederationKv(this.store, key);
      else putFederationKv(this.store, key, encode(newValue), expiry(key, options, now), now);
      return true;
    });
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    for (const entry of listFederationKv(this.store, prefix ?? [])) {
      yield { key: entry.key as unknown as KvKey, value: JSON.parse(entry.json) };
    }
  }
}
