// Filters v2: create, change, delete and read one's own, with their keywords given inline
// (keywords_attributes, Rails' nested attributes: an entry with an id changes or, with _destroy, removes that
// keyword; one without adds a keyword). Only the owner ever sees a filter: any other id is 404. Every write
// also tells the owner's `user` streams (`filters_changed`) through a job enqueued in the same transaction,
// and bumps the owner's viewer version, so kept timeline pages and compiled filters are read afresh.
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { filtersOf, getFilter, putFilter, removeFilter } from "../../store/filters.ts";
import { checkAccountLimits, validAction, validContext, validExpiry, validKeyword, validTitle } from "./input.ts";
import { FILTERS_CHANGED_JOB } from "../job-names.ts";
import type { FilterAction, FilterContext, FilterKeywordRecord, FilterRecord } from "../../model/filters.ts";

export interface KeywordAttributes {
  id?: string;
  keyword?: string;
  wholeWord?: boolean;
  destroy?: boolean;
}

export interface FilterInput {
  title?: string;
  context?: string | string[];
  action?: string;
  /** seconds; "" = never; absent = never on creation, unchanged on update */
  expiresIn?: string;
  keywords?: KeywordAttributes[];
}

/** Inside a write: the owner's streams hear `filters_changed` once the write commits. */
export function signalFiltersChanged(deps: Pick<Deps, "jobs">, accountId: string): void {
  deps.jobs.enqueue(FILTERS_CHANGED_JOB, { accountId });
}

export function ownFilters(store: Store, accountId: string): FilterRecord[] {
  return filtersOf(store, accountId);
}

/** The viewer's filter with this id, or 404. */
export function findOwnFilter(store: Store, accountId: string, rawId: string): FilterRecord {
  const id = normaliseId(rawId);
  const filter = id ? getFilter(store, accountId, id) : undefined;
  if (!filter) throw new NotFound();
  return filter;
}

/** keywords_attributes applied to `keywords` (a new list; an unknown id is 404, as Rails' nested attributes). */
function applyKeywords(keywords: readonly FilterKeywordRecord[], changes: readonly KeywordAttributes[], now: number): FilterKeywordRecord[] {
  const out = [...keywords];
  for (const change of changes) {
    if (change.id === undefined || change.id.trim() === "") {
      if (change.destroy) continue;
      out.push({ id: newId(now), keyword: validKeyword(change.keyword, "Keywords keyword"), wholeWord: change.wholeWord ?? true });
      continue;
    }
    const id = normaliseId(change.id);
    const at = out.findIndex((k) => k.id === id);
    if (at < 0) throw new NotFound();
    if (change.destroy) {
      out.splice(at, 1);
      continue;
    }
    const current = out[at]!;
    out[at] = {
      ...current,
      keyword: change.keyword === undefined ? current.keyword : validKeyword(change.keyword, "Keywords keyword"),
      wholeWord: change.wholeWord ?? current.wholeWord,
    };
  }
  return out;
}

export async function createFilter(deps: Deps, accountId: string, input: FilterInput): Promise<FilterRecord> {
  const { store } = deps;
  const now = Date.now();
  const title = validTitle(input.title);
  const context = validContext(input.context);
  const action = validAction(input.action, "warn");
  const expiresAt = validExpiry(input.expiresIn, now, null);
  const filter: FilterRecord = {
    v: 1, id: newId(now), accountId, title, context, action, expiresAt,
    keywords: applyKeywords([], input.keywords ?? [], now), statuses: [], createdAt: now, updatedAt: now,
  };
  await store.write(() => storeFilter(deps, filter));
  return filter;
}

/**
 * Inside a write: stores a new filter or a new version of one (`previous`), once the account's filters with
 * it are within the limits, and signals the change.
 */
export function storeFilter(deps: Deps, filter: FilterRecord, previous?: FilterRecord): void {
  const others = filtersOf(deps.store, filter.accountId).filter((f) => f.id !== filter.id);
  checkAccountLimits([...others, filter], !previous);
  putFilter(deps.store, filter, previous);
  signalFiltersChanged(deps, filter.accountId);
}

/**
 * Inside a write: reads the filter afresh (404 if it is gone), lets `change` make its new version, stores it
 * and signals the change. Two concurrent changes of one filter are applied one after the other.
 */
export function rewriteFilter(deps: Deps, accountId: string, filterId: string, change: (current: FilterRecord) => FilterRecord): FilterRecord {
  const current = getFilter(deps.store, accountId, filterId);
  if (!current) throw new NotFound();
  const updated = { ...change(current), updatedAt: Date.now() };
  storeFilter(deps, updated, current);
  return updated;
}

/** PUT: each field given replaces the stored one; keywords_attributes changes, adds or removes keywords. */
export async function updateFilter(deps: Deps, accountId: string, rawId: string, input: FilterInput): Promise<FilterRecord> {
  const found = findOwnFilter(deps.store, accountId, rawId);
  const now = Date.now();
  const fields: { title?: string; context?: FilterContext[]; action?: FilterAction } = {};
  if (input.title !== undefined) fields.title = validTitle(input.title);
  if (input.context !== undefined) fields.context = validContext(input.context);
  if (input.action !== undefined) fields.action = validAction(input.action, found.action);
  const expiresAt = validExpiry(input.expiresIn, now, found.expiresAt);
  return deps.store.write(() =>
    rewriteFilter(deps, accountId, found.id, (current) => ({
      ...current,
      ...fields,
      expiresAt: input.expiresIn === undefined ? current.expiresAt : expiresAt,
      keywords: input.keywords ? applyKeywords(current.keywords, input.keywords, now) : current.keywords,
    })),
  );
}

export async function deleteFilter(deps: Deps, accountId: string, rawId: string): Promise<void> {
  const filter = findOwnFilter(deps.store, accountId, rawId);
  await deps.store.write(() => {
    const current = getFilter(deps.store, accountId, filter.id);
    if (!current) return;
    removeFilter(deps.store, current);
    signalFiltersChanged(deps, accountId);
  });
}
