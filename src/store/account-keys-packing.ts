// An actor's key pair as stored (docs/disk.md, schema 7): the DER bytes of its PEM texts. A 2048-bit RSA pair
// is 2.2 KB as PEM, just over what LMDB keeps inside a 4 KiB page, so each took an overflow page of its own;
// as DER (1.5 KB) two share a page. Packed only when the PEM made again from the DER is the stored text
// exactly; any other is kept as it is.
import { createPrivateKey, createPublicKey } from "node:crypto";
import type { AccountKeysRecord } from "../model/accounts.ts";
import type { Store } from "./handle.ts";

interface PackedKeys {
  v: 1;
  publicKeyDer: Uint8Array;
  privateKeyDer: Uint8Array | null;
}

export type StoredKeys = AccountKeysRecord | PackedKeys;

const publicPem = (der: Uint8Array) => createPublicKey({ key: Buffer.from(der), format: "der", type: "spki" }).export({ type: "spki", format: "pem" }) as string;
const privatePem = (der: Uint8Array) => createPrivateKey({ key: Buffer.from(der), format: "der", type: "pkcs8" }).export({ type: "pkcs8", format: "pem" }) as string;

function derOf(pem: string, kind: "public" | "private"): Buffer | null {
  try {
    const der = kind === "public"
      ? createPublicKey(pem).export({ type: "spki", format: "der" })
      : createPrivateKey(pem).export({ type: "pkcs8", format: "der" });
    return (kind === "public" ? publicPem(der) : privatePem(der)) === pem ? der : null;
  } catch {
    return null;
  }
}

export function packAccountKeys(keys: AccountKeysRecord): StoredKeys {
  const publicKeyDer = derOf(keys.publicKeyPem, "public");
  const privateKeyDer = keys.privateKeyPem === null ? null : derOf(keys.privateKeyPem, "private");
  if (!publicKeyDer || (keys.privateKeyPem !== null && !privateKeyDer)) return keys;
  return { v: 1, publicKeyDer, privateKeyDer };
}

export function unpackAccountKeys(stored: StoredKeys | undefined): AccountKeysRecord | undefined {
  if (!stored || "publicKeyPem" in stored) return stored;
  return { v: 1, publicKeyPem: publicPem(stored.publicKeyDer), privateKeyPem: stored.privateKeyDer && privatePem(stored.privateKeyDer) };
}

export function getAccountKeys(store: Store, accountId: string): AccountKeysRecord | undefined {
  return unpackAccountKeys(store.db.accountKeys.get(accountId));
}

/** Migration 7: every key pair still stored as PEM, packed (idempotent). */
export function packAllAccountKeys(store: Store): void {
  const ids: string[] = [];
  for (const { key, value } of store.db.accountKeys.getRange({})) {
    if (typeof key === "string" && "publicKeyPem" in (value as StoredKeys)) ids.push(key);
  }
  for (const id of ids) store.db.accountKeys.put(id, packAccountKeys(store.db.accountKeys.get(id)));
}
