// A remote account made to look complete (docs/federation.md, "Remote accounts"), in a `remote` job queued
// each time its actor is stored (remote-accounts.ts: when first seen, then at most once a day): the
// `totalItems` of its outbox, followers and following collections become the counts shown (never below what
// is stored here); its `featured` collection becomes its pins (at most FEATURED_LIMIT, fetched as statuses);
// its `featuredTags` its featured hashtags; its `movedTo` the account it moved to, when that account names it
// back in `alsoKnownAs` (Mastodon's check); and, the first time, the newest OUTBOX_LIMIT public posts of its
// outbox are fetched so its profile is not empty. Every fetch goes through the document loader's guard.
// A profile viewed through the API (GET /api/v1/accounts/:id) whose actor was fetched more than a day ago is
// fetched again by a job (askForRefresh, background-asks.ts), which stores it and so queues its completion.
import { Announce, Create, Hashtag, isActor, Object as APObject, type Actor, type Collection } from "@fedify/vocab";
import { newId } from "../lib/ids.ts";
import { findAccountByUri, getAccount, putAccount } from "../store/accounts.ts";
import { featuredTagsOf, putFeaturedTag, removeFeaturedTag } from "../store/featured-tags.ts";
import { insertPin, pinsOf, removePin } from "../store/statuses-interactions.ts";
import { getStatus } from "../store/statuses.ts";
import type { FederationDeps } from "./context.ts";
import { context } from "./fedify-context.ts";
import { sameOrigin } from "./note-checks.ts";
import { collectionItems } from "./collection-items.ts";
import { remoteAccountByUri, storeActor } from "./remote-accounts.ts";
import { fetchStatus } from "./threads.ts";

export const FEATURED_LIMIT = 5;
export const OUTBOX_LIMIT = 5;
const FEATURED_TAGS_LIMIT = 10;
/** Items of a collection looked at, at most (a collection page can be long). */
const SCAN_LIMIT = 40;

export interface AccountCompletion {
  accountId: string;
  /** First time this account is stored: its outbox's newest posts are fetched too. */
  first: boolean;
}

async function totalOf(get: () => Promise<Collection | null>): Promise<number | null> {
  try {
    const total = (await get())?.totalItems;
    return typeof total === "number" && Number.isSafeInteger(total) && total >= 0 ? total : null;
  } catch {
    return null;
  }
}

const idOf = (item: unknown): URL | null => (item instanceof URL ? item : item instanceof APObject ? item.id : null);

export async function completeRemoteAccount(deps: FederationDeps, { accountId, first }: AccountCompletion): Promise<void> {
  const account = getAccount(deps.store, accountId);
  if (!account || account.domain === null || account.suspended) return;
  const ctx = await context(deps);
  const actor = await ctx.lookupObject(account.uri).catch(() => null);
  if (!isActor(actor) || actor.id?.href !== account.uri) return;
  const [statuses, followers, following] = await Promise.all([
    totalOf(() => actor.getOutbox()),
    totalOf(() => actor.getFollowers()),
    totalOf(() => actor.getFollowing()),
  ]);
  const movedToAccountId = await movedTarget(deps, actor);
  const tags = await featuredTagNames(actor);
  const pins = await featuredStatuses(deps, actor);
  await deps.store.write(() => {
    const current = getAccount(deps.store, accountId);
    if (!current) return;
    putAccount(deps.store, { ...current, collectionCounts: { statuses, followers, following }, movedToAccountId });
    replacePins(deps, accountId, pins);
    replaceFeaturedTags(deps, accountId, tags);
  });
  if (first) await backfillOutbox(deps, actor);
}

/** The account `actor` moved to, if that actor names it back in `alsoKnownAs`; stored (or updated). */
async function movedTarget(deps: FederationDeps, actor: Actor): Promise<string | null> {
  const targetId = actor.successorId;
  if (!targetId || targetId.href === actor.id?.href) return null;
  const ctx = await context(deps);
  const target = await ctx.lookupObject(targetId.href).catch(() => null);
  if (!isActor(target) || target.id?.href !== targetId.href) return null;
  if (!target.aliasIds.some((alias) => alias.href === actor.id?.href)) return null;
  // A known target is not stored again here: that would queue its own completion, and two accounts naming
  // each other would keep queuing each other's.
  const known = findAccountByUri(deps.store, targetId.href);
  if (known) return known.suspended ? null : known.id;
  const stored = await storeActor(deps, target).catch(() => null);
  return stored?.id ?? null;
}

async function featuredTagNames(actor: Actor): Promise<string[]> {
  const items = await collectionItems(await actor.getFeaturedTags().catch(() => null), SCAN_LIMIT);
  const names = items
    .filter((item) => item instanceof Hashtag)
    .map((tag) => (tag.name?.toString() ?? "").replace(/^#/, "").toLowerCase())
    .filter((name) => /^[\p{L}\p{N}_]{1,100}$/u.test(name));
  return [...new Set(names)].slice(0, FEATURED_TAGS_LIMIT);
}

/** The statuses of `featured`, on the actor's own origin, fetched (or known), in the collection's order. */
async function featuredStatuses(deps: FederationDeps, actor: Actor): Promise<string[]> {
  const items = await collectionItems(await actor.getFeatured().catch(() => null), SCAN_LIMIT);
  const ids: string[] = [];
  for (const item of items) {
    const id = idOf(item);
    if (!id || !sameOrigin(id, actor.id!)) continue;
    const status = await fetchStatus(deps, id, 0).catch(() => null);
    if (status && status.reblogOfId === null) ids.push(status.id);
    if (ids.length >= FEATURED_LIMIT) break;
  }
  return ids;
}

/** Inside a write: the account's pins become `statusIds` (first = most recently pinned, as sent). */
function replacePins(deps: FederationDeps, accountId: string, statusIds: string[]): void {
  const wanted = new Set(statusIds);
  for (const pin of pinsOf(deps.store, accountId)) if (!wanted.has(pin.statusId)) removePin(deps.store, accountId, pin.statusId);
  const now = Date.now();
  // Pins list newest first: the collection's first item gets the newest pin id.
  [...statusIds].reverse().forEach((statusId, i) => {
    // Only its own statuses: a featured item by another account of the same server is left out.
    if (getStatus(deps.store, statusId)?.accountId !== accountId) return;
    removePin(deps.store, accountId, statusId);
    insertPin(deps.store, { id: newId(now + i), accountId, statusId });
  });
}

function replaceFeaturedTags(deps: FederationDeps, accountId: string, names: string[]): void {
  const now = Date.now();
  for (const record of featuredTagsOf(deps.store, accountId)) if (!names.includes(record.tag)) removeFeaturedTag(deps.store, record);
  const kept = new Set(featuredTagsOf(deps.store, accountId).map((record) => record.tag));
  names.forEach((tag, i) => {
    if (!kept.has(tag)) putFeaturedTag(deps.store, { v: 1, id: newId(now + i), accountId, tag, statusesCount: 0, lastStatusAt: null, createdAt: now });
  });
}

/** The newest public posts of a first-seen account's outbox, fetched as statuses (boosts skipped). */
async function backfillOutbox(deps: FederationDeps, actor: Actor): Promise<void> {
  const items = await collectionItems(await actor.getOutbox().catch(() => null), SCAN_LIMIT);
  let fetched = 0;
  for (const item of items) {
    if (item instanceof Announce || !(item instanceof Create)) continue;
    const noteId = item.objectId;
    if (!noteId || !sameOrigin(noteId, actor.id!)) continue;
    if (await fetchStatus(deps, noteId, 0).catch(() => null)) fetched++;
    if (fetched >= OUTBOX_LIMIT) break;
  }
}

/** The job: fetched again unless fresh (remoteAccountByUri decides), stored, its completion queued. */
export async function refreshRemoteAccount(deps: FederationDeps, { accountId }: { accountId: string }): Promise<void> {
  const account = getAccount(deps.store, accountId);
  if (account?.domain) await remoteAccountByUri(deps, new URL(account.uri));
}
