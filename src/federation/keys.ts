// The actors' key pairs, as Fedify asks for them: RSA (draft-cavage HTTP signatures, Linked-Data signatures)
// first, then Ed25519 (Object Integrity Proofs, FEP-8b32). A local account's RSA pair was made with the
// account (account_keys); its Ed25519 pair, and both of the instance actor's, are made on first use and kept
// in the federation keyspace. Imported keys are kept per thread: they never change.
import { createPrivateKey, createPublicKey } from "node:crypto";
import { exportJwk, generateCryptoKeyPair, importJwk } from "@fedify/fedify";
import type { Store } from "../store/db.ts";
import { getActorKey, putActorKeyIfAbsent } from "../store/federation-kv.ts";
import { getAccountKeys } from "../store/account-keys-packing.ts";
import type { AccountKeysRecord } from "../model/accounts.ts";
import type { ActorKeyOwner, Jwk } from "../model/federation.ts";

export const INSTANCE_KEY_OWNER = "instance";
const RSA = "RSASSA-PKCS1-v1_5";
type JsonWebKey = Parameters<typeof importJwk>[0];
const ED25519 = "Ed25519";

const cache = new Map<string, Promise<CryptoKeyPair[]>>();
const CACHE_LIMIT = 10_000;

async function storedOrNew(store: Store, owner: ActorKeyOwner, algorithm: typeof RSA | typeof ED25519): Promise<CryptoKeyPair> {
  let record = getActorKey(store, owner, algorithm);
  if (!record) {
    const pair = await generateCryptoKeyPair(algorithm);
    const made = {
      v: 1 as const,
      publicKeyJwk: (await exportJwk(pair.publicKey)) as Jwk,
      privateKeyJwk: (await exportJwk(pair.privateKey)) as Jwk,
      createdAt: Date.now(),
    };
    record = await store.write(() => putActorKeyIfAbsent(store, owner, algorithm, made));
  }
  return {
    publicKey: await importJwk(record.publicKeyJwk as JsonWebKey, "public"),
    privateKey: await importJwk(record.privateKeyJwk as JsonWebKey, "private"),
  };
}

async function fromPem(keys: AccountKeysRecord): Promise<CryptoKeyPair> {
  // Fedify's importJwk takes RSA keys marked for RS256 (RSASSA-PKCS1-v1_5 with SHA-256).
  const publicJwk = { ...createPublicKey(keys.publicKeyPem).export({ format: "jwk" }), alg: "RS256" } as JsonWebKey;
  const privateJwk = { ...createPrivateKey(keys.privateKeyPem!).export({ format: "jwk" }), alg: "RS256" } as JsonWebKey;
  return { publicKey: await importJwk(publicJwk, "public"), privateKey: await importJwk(privateJwk, "private") };
}

function remembered(key: string, load: () => Promise<CryptoKeyPair[]>): Promise<CryptoKeyPair[]> {
  let pairs = cache.get(key);
  if (!pairs) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    pairs = load();
    cache.set(key, pairs);
    pairs.catch(() => cache.delete(key));
  }
  return pairs;
}

/** A local account's key pairs (RSA, Ed25519); none if it has no private key (it should always have one). */
export function accountKeyPairs(store: Store, accountId: string): Promise<CryptoKeyPair[]> {
  return remembered(`${store.dir}\0${accountId}`, async () => {
    const keys = getAccountKeys(store, accountId);
    if (!keys?.privateKeyPem) return [];
    return [await fromPem(keys), await storedOrNew(store, accountId, ED25519)];
  });
}

/** The instance actor's key pairs (RSA, Ed25519). */
export function instanceKeyPairs(store: Store): Promise<CryptoKeyPair[]> {
  return remembered(`${store.dir}\0${INSTANCE_KEY_OWNER}`, async () => [
    await storedOrNew(store, INSTANCE_KEY_OWNER, RSA),
    await storedOrNew(store, INSTANCE_KEY_OWNER, ED25519),
  ]);
}
