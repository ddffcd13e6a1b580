// What a status record leaves out on disk (docs/disk.md): its id, which is its key, and for a local status
// its ActivityPub id and web address when they are the ones its author's own addresses give (they always
// are, unless the instance's address changed since): about a third of a typical record. Reads put them back.
import { publicId } from "../lib/ids.ts";
import { getAccount } from "./accounts.ts";
import type { AccountRecord } from "../model/accounts.ts";
import type { StatusRecord } from "../model/statuses.ts";
import type { Store } from "./handle.ts";

/** A status as stored: without `id`, and without `uri` and `url` when they are derived. */
export type StoredStatus = Omit<StatusRecord, "id" | "uri" | "url"> & { id?: string; uri?: string; url?: string | null };

/** Where a local status lives: its ActivityPub id (a reblog's is its Announce activity) and its web page. */
export function localStatusUrls(account: Pick<AccountRecord, "uri" | "url">, id: string, reblog: boolean): { uri: string; url: string } {
  const uri = `${account.uri}/statuses/${publicId(id)}`;
  return { uri: reblog ? `${uri}/activity` : uri, url: `${account.url}/${publicId(id)}` };
}

// A local account's addresses are made from the instance's address and its username, neither of which changes
// while the process runs: kept per thread, so that reading a status does not decode its author's record too
// (that halved uncached grouped notifications, which examine many statuses).
const MAX_KEPT_AUTHORS = 50_000;
const keptAuthors = new Map<string, Pick<AccountRecord, "uri" | "url">>();

function authorAddresses(store: Store, accountId: string): Pick<AccountRecord, "uri" | "url"> | undefined {
  const kept = keptAuthors.get(accountId);
  if (kept) return kept;
  const account = getAccount(store, accountId);
  if (!account || account.domain !== null) return undefined;
  if (keptAuthors.size >= MAX_KEPT_AUTHORS) keptAuthors.clear();
  const addresses = { uri: account.uri, url: account.url };
  keptAuthors.set(accountId, addresses);
  return addresses;
}

export function packStatus(store: Store, status: StatusRecord): StoredStatus {
  const { id: _id, uri, url, ...rest } = status;
  if (status.local) {
    const author = authorAddresses(store, status.accountId);
    const derived = author && localStatusUrls(author, status.id, status.reblogOfId !== null);
    if (derived && derived.uri === uri && derived.url === url) return rest;
  }
  return { ...rest, uri, url };
}

/** The record as the rest of Warren knows it; records written before schema 6 come back as they are. */
export function unpackStatus(store: Store, id: string, stored: StoredStatus | undefined): StatusRecord | undefined {
  if (!stored) return undefined;
  if (stored.uri !== undefined || !stored.local) return stored.id === id ? (stored as StatusRecord) : ({ id, ...stored } as StatusRecord);
  const author = authorAddresses(store, stored.accountId);
  // An author is never removed before its statuses; were it gone, the status cannot be shown anyway.
  const urls = author ? localStatusUrls(author, id, stored.reblogOfId !== null) : { uri: "", url: null };
  return { id, ...stored, ...urls } as StatusRecord;
}
