// Canonical e-mail blocks (Mastodon's CanonicalEmailBlock): a block holds the SHA-256 of an address in its
// canonical form (lower case, the local part without dots and without what follows a `+`), so that one person
// cannot come back as j.o.h.n+again@…. Sign-up and a change of address through the app that signed up refuse
// a blocked address with "has already been taken", as Mastodon's BlacklistedEmailValidator does.
import { createHash } from "node:crypto";
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import {
  canonicalEmailBlockByHash,
  getCanonicalEmailBlock,
  pageCanonicalEmailBlocks,
  putCanonicalEmailBlock,
  removeCanonicalEmailBlock,
} from "../../store/admin.ts";
import type { CanonicalEmailBlockRecord } from "../../model/moderation.ts";
import type { PageQuery } from "../../model/paging.ts";

export const CANONICAL_EMAIL_BLOCKS_LIMIT = 100;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Mastodon's CanonicalEmail#email_to_canonical_email. */
export function canonicalEmail(email: string): string {
  const [local = "", domain = ""] = email.trim().toLowerCase().split(/@(.*)/s);
  return `${local.replaceAll(".", "").split("+")[0]}@${domain}`;
}

export const canonicalEmailHash = (email: string) => createHash("sha256").update(canonicalEmail(email)).digest("hex");

export interface CanonicalEmailBlockInput {
  email?: string;
  canonicalEmailHash?: string;
}

export async function createCanonicalEmailBlock(deps: Pick<Deps, "store">, input: CanonicalEmailBlockInput): Promise<CanonicalEmailBlockRecord> {
  const { store } = deps;
  const hash = input.email?.trim() ? canonicalEmailHash(input.email) : input.canonicalEmailHash?.trim().toLowerCase();
  if (!hash) throw new Unprocessable("Validation failed: Canonical email hash can't be blank");
  if (!SHA256_HEX.test(hash)) throw new Unprocessable("Validation failed: Canonical email hash is invalid");
  return store.write(() => {
    if (canonicalEmailBlockByHash(store, hash)) throw new Unprocessable("Validation failed: Canonical email hash has already been taken");
    const now = Date.now();
    const block: CanonicalEmailBlockRecord = { v: 1, id: newId(now), hash, createdAt: now };
    putCanonicalEmailBlock(store, block);
    return block;
  });
}

export function findCanonicalEmailBlock(store: Store, rawId: string): CanonicalEmailBlockRecord {
  const id = normaliseId(rawId);
  const block = id ? getCanonicalEmailBlock(store, id) : undefined;
  if (!block) throw new NotFound();
  return block;
}

export async function deleteCanonicalEmailBlock(deps: Pick<Deps, "store">, rawId: string): Promise<void> {
  const { store } = deps;
  const id = findCanonicalEmailBlock(store, rawId).id;
  await store.write(() => {
    const block = getCanonicalEmailBlock(store, id);
    if (!block) throw new NotFound();
    removeCanonicalEmailBlock(store, block);
  });
}

export const canonicalEmailBlocksPage = (store: Store, query: PageQuery) => pageCanonicalEmailBlocks(store, query);

/** POST …/test: the blocks matching an address (none or one). */
export function canonicalEmailBlocksMatching(store: Store, email: string): CanonicalEmailBlockRecord[] {
  const block = email.trim() ? canonicalEmailBlockByHash(store, canonicalEmailHash(email)) : undefined;
  return block ? [block] : [];
}

export const canonicalEmailBlocked = (store: Store, email: string) => canonicalEmailBlocksMatching(store, email).length > 0;
