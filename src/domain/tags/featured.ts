// Featured hashtags (a profile's "featured" tags): GET/POST /api/v1/featured_tags, DELETE /:id, the suggestions,
// POST /api/v1/tags/:name/feature|unfeature and GET /api/v1/accounts/:id/featured_tags. Each keeps the count of
// its owner's public and unlisted statuses with the tag and when the newest was posted, as Mastodon's
// FeaturedTag: counted from the account's statuses when featured (FEATURE_SCAN_ROWS newest at most), then kept
// by the `featured_tags.count` and `featured_tags.uncount` subscribers of new and deleted statuses. A status is
// counted once per tag (its ["fs"] row), so either way of counting it, and any job run twice, agree.
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import {
  featuredTagByName,
  featuredTagsOf,
  getFeaturedTag,
  isCountedUse,
  putCountedUse,
  putFeaturedTag,
  removeFeaturedTag,
  takeCountedUses,
} from "../../store/featured-tags.ts";
import { getStatus, pageAccountStatuses } from "../../store/statuses.ts";
import { ACCOUNT_LIMITS } from "../limits.ts";
import { loadTag, type LoadedTag } from "./follow.ts";
import { requireTagName, tagName } from "./names.ts";
import type { AccountRecord, FeaturedTagRecord } from "../../model/accounts.ts";
import { RowBudget } from "../../model/paging.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** An account's statuses read to count a tag it features (or to find its newest use again). */
export const FEATURE_SCAN_ROWS = 5000;
/** Statuses read for the suggestions (the tags of the newest ones). */
const SUGGESTION_SCAN_ROWS = 200;
const SUGGESTIONS = 10;

export interface LoadedFeaturedTag {
  record: FeaturedTagRecord;
  account: AccountRecord;
}

/** Counted: the owner's own public and unlisted statuses (Mastodon's distributable ones) with the tag. */
const counts = (status: StatusRecord, tag: string) =>
  !status.deletedAt && !status.reblogOfId && (status.visibility === "public" || status.visibility === "unlisted") && status.tags.includes(tag);

function ownStatusesWith(store: Store, accountId: string, tag: string): StatusRecord[] {
  const query = { limit: FEATURE_SCAN_ROWS, budget: new RowBudget(FEATURE_SCAN_ROWS) };
  return pageAccountStatuses(store, accountId, query, (status) => counts(status, tag));
}

/** Inside a write: the account features the tag (the record it already had, if any). */
function feature(store: Store, account: AccountRecord, tag: string): FeaturedTagRecord {
  const existing = featuredTagByName(store, account.id, tag);
  if (existing) return existing;
  if (featuredTagsOf(store, account.id).length >= ACCOUNT_LIMITS.maxFeaturedTags) {
    throw new Unprocessable("Validation failed: You have already featured the maximum number of hashtags");
  }
  const statuses = ownStatusesWith(store, account.id, tag);
  for (const status of statuses) putCountedUse(store, status.id, tag, { accountId: account.id, createdAt: status.createdAt });
  const now = Date.now();
  const record: FeaturedTagRecord = {
    v: 1, id: newId(now), accountId: account.id, tag, statusesCount: statuses.length, lastStatusAt: statuses[0]?.createdAt ?? null, createdAt: now,
  };
  putFeaturedTag(store, record);
  return record;
}

/** POST /api/v1/featured_tags (`name`): featuring a tag again answers the existing one. */
export async function createFeaturedTag(deps: Deps, account: AccountRecord, rawName: string | undefined): Promise<LoadedFeaturedTag> {
  if (!rawName?.trim()) throw new Unprocessable("Validation failed: Name can't be blank");
  const tag = tagName(rawName);
  if (!tag) throw new Unprocessable("Validation failed: Name is invalid");
  const record = await deps.store.write(() => feature(deps.store, account, tag));
  return { record, account };
}

/** POST /api/v1/tags/:name/feature (Mastodon 4.4): the Tag. */
export async function featureTag(deps: Deps, account: AccountRecord, rawName: string): Promise<LoadedTag> {
  const tag = requireTagName(rawName);
  await deps.store.write(() => feature(deps.store, account, tag));
  return loadTag(deps.store, account.id, tag);
}

/** POST /api/v1/tags/:name/unfeature: the Tag, whether or not it was featured. */
export async function unfeatureTag(deps: Deps, account: AccountRecord, rawName: string): Promise<LoadedTag> {
  const tag = requireTagName(rawName);
  await deps.store.write(() => {
    const record = featuredTagByName(deps.store, account.id, tag);
    if (record) removeFeaturedTag(deps.store, record);
  });
  return loadTag(deps.store, account.id, tag);
}

/** DELETE /api/v1/featured_tags/:id: only the viewer's own; anything else is 404. */
export async function deleteFeaturedTag(deps: Deps, accountId: string, rawId: string): Promise<void> {
  await deps.store.write(() => {
    const id = normaliseId(rawId);
    const record = id ? getFeaturedTag(deps.store, accountId, id) : undefined;
    if (!record) throw new NotFound();
    removeFeaturedTag(deps.store, record);
  });
}

/** An account's featured tags in the order featured; none for a suspended account (as Mastodon). */
export function featuredTagsOfAccount(deps: Deps, account: AccountRecord): LoadedFeaturedTag[] {
  if (account.suspended) return [];
  return featuredTagsOf(deps.store, account.id).map((record) => ({ record, account }));
}

/** GET /api/v1/featured_tags/suggestions: the hashtags of the viewer's newest statuses that it does not feature. */
export function featuredTagSuggestions(deps: Deps, accountId: string): LoadedTag[] {
  const names: string[] = [];
  const query = { limit: SUGGESTION_SCAN_ROWS, budget: new RowBudget(SUGGESTION_SCAN_ROWS) };
  for (const status of pageAccountStatuses(deps.store, accountId, query, (status) => !status.deletedAt && !status.reblogOfId)) {
    for (const tag of status.tags) {
      if (names.length < SUGGESTIONS && !names.includes(tag) && !featuredTagByName(deps.store, accountId, tag)) names.push(tag);
    }
  }
  return names.map((name) => loadTag(deps.store, accountId, name));
}

/** The `featured_tags.count` subscriber: a new status counts in its author's featured tags. */
export async function countFeaturedUses(store: Store, statusId: string): Promise<void> {
  const status = getStatus(store, statusId);
  if (!status || status.tags.length === 0) return;
  await store.write(() => {
    for (const tag of new Set(status.tags)) {
      const record = featuredTagByName(store, status.accountId, tag);
      if (!record || !counts(status, tag) || isCountedUse(store, status.id, tag)) continue;
      putCountedUse(store, status.id, tag, { accountId: status.accountId, createdAt: status.createdAt });
      const lastStatusAt = Math.max(record.lastStatusAt ?? 0, status.createdAt);
      putFeaturedTag(store, { ...record, statusesCount: record.statusesCount + 1, lastStatusAt });
    }
  });
}

/** The `featured_tags.uncount` subscriber: a deleted status no longer counts; the newest use is found again if it was that. */
export async function uncountFeaturedUses(store: Store, statusId: string): Promise<void> {
  await store.write(() => {
    for (const { tag, use } of takeCountedUses(store, statusId)) {
      const record = featuredTagByName(store, use.accountId, tag);
      if (!record) continue;
      const statusesCount = Math.max(0, record.statusesCount - 1);
      let lastStatusAt = statusesCount === 0 ? null : record.lastStatusAt;
      if (statusesCount > 0 && lastStatusAt !== null && use.createdAt >= lastStatusAt) {
        lastStatusAt = ownStatusesWith(store, use.accountId, tag).find((status) => status.id !== statusId)?.createdAt ?? null;
      }
      putFeaturedTag(store, { ...record, statusesCount, lastStatusAt });
    }
  });
}
