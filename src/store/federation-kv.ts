// The federation keyspace (docs/federation.md): Fedify's key-value store (its caches of remote documents and
// keys, idempotence marks, …) and the actor keys Fedify asks for that account_keys does not hold.
//
// Fedify's values are stored as JSON text: they are documents of any shape fetched from other servers, and
// msgpack's shared record structures (one list per keyspace) are meant for our own few record shapes.
// An entry keeps its original key, so a key too long for LMDB is stored under a digest and still listed
// as it was given.
import { createHash } from "node:crypto";
import { END, fitsInKey, type Store } from "./handle.ts";
import type { ActorKeyOwner, ActorKeyRecord } from "../model/federation.ts";

export type FederationKvKey = readonly string[];

export interface FederationKvEntry {
  v: 1;
  key: string[];
  /** JSON text of the value */
  json: string;
  /** ms since the epoch; null: kept until deleted */
  expiresAt: number | null;
}

/** Expired entries removed by each set that has a TTL, so the keyspace does not keep what nobody reads. */
const SWEEP_PER_SET = 32;

function entryKey(key: FederationKvKey): string[] {
  if (fitsInKey(...key) && key.every((part) => !part.includes(END))) return ["v", ...key];
  // A digest replaces the last part: listing by a shorter prefix still finds the entry.
  const digest = `#sha256:${createHash("sha256").update(JSON.stringify(key)).digest("hex")}`;
  const head = key.slice(0, -1);
  return fitsInKey(...head) ? ["v", ...head, digest] : ["v", digest];
}

function live(entry: FederationKvEntry | undefined, now: number): FederationKvEntry | undefined {
  return entry && (entry.expiresAt === null || entry.expiresAt > now) ? entry : undefined;
}

export function getFederationKv(store: Store, key: FederationKvKey, now = Date.now()): FederationKvEntry | undefined {
  return live(store.db.federationKv.get(entryKey(key)) as FederationKvEntry | undefined, now);
}

/** Inside a write: sets (or replaces) an entry, and sweeps a few expired ones. */
export function putFederationKv(store: Store, key: FederationKvKey, json: string, expiresAt: number | null, now = Date.now()): void {
  const at = entryKey(key);
  const previous = store.db.federationKv.get(at) as FederationKvEntry | undefined;
  if (previous?.expiresAt != null) store.db.federationKv.remove(["x", previous.expiresAt, ...at.slice(1)]);
  const entry: FederationKvEntry = { v: 1, key: [...key], json, expiresAt };
  store.db.federationKv.put(at, entry);
  if (expiresAt !== null) {
    store.db.federationKv.put(["x", expiresAt, ...at.slice(1)], null);
    sweepExpiredFederationKv(store, now, SWEEP_PER_SET);
  }
}

/** Inside a write: removes an entry if there is one. */
export function removeFederationKv(store: Store, key: FederationKvKey): void {
  const at = entryKey(key);
  const previous = store.db.federationKv.get(at) as FederationKvEntry | undefined;
  if (!previous) return;
  if (previous.expiresAt !== null) store.db.federationKv.remove(["x", previous.expiresAt, ...at.slice(1)]);
  store.db.federationKv.remove(at);
}

/** Inside a write: removes up to `limit` entries expired by `now`; returns how many. */
export function sweepExpiredFederationKv(store: Store, now: number, limit: number): number {
  let removed = 0;
  for (const key of store.db.federationKv.getKeys({ start: ["x", 0], end: ["x", now + 1], limit })) {
    const [, , ...rest] = key as [string, number, ...string[]];
    const at = ["v", ...rest];
    const entry = store.db.federationKv.get(at) as FederationKvEntry | undefined;
    if (entry && entry.expiresAt !== null && entry.expiresAt <= now) store.db.federationKv.remove(at);
    store.db.federationKv.remove(key);
    removed++;
  }
  return removed;
}

/** The live entries whose key starts with `prefix` (all of them for an empty prefix), in key order. */
export function* listFederationKv(store: Store, prefix: FederationKvKey, now = Date.now()): Generator<FederationKvEntry> {
  const start = ["v", ...prefix];
  for (const { value } of store.db.federationKv.getRange({ start, end: [...start, END] })) {
    const entry = live(value as FederationKvEntry, now);
    // A digest-keyed entry sits under its key's head: check the whole original key.
    if (entry && prefix.every((part, i) => entry.key[i] === part)) yield entry;
  }
}

/** An actor key pair Fedify asks for, as JWKs. */

export function getActorKey(store: Store, owner: ActorKeyOwner, algorithm: string): ActorKeyRecord | undefined {
  return store.db.federationKv.get(["k", owner, algorithm]) as ActorKeyRecord | undefined;
}

/** Inside a write: keeps `record` unless a key is there already (made by a concurrent request); returns the one kept. */
export function putActorKeyIfAbsent(store: Store, owner: ActorKeyOwner, algorithm: string, record: ActorKeyRecord): ActorKeyRecord {
  const existing = getActorKey(store, owner, algorithm);
  if (existing) return existing;
  store.db.federationKv.put(["k", owner, algorithm], record);
  return record;
}
