// Custom filters (Mastodon's CustomFilter with its keywords and statuses): one record per filter under its
// owner, holding its keywords and status entries, so that compiling a viewer's filters is one range read.
// Keywords and status entries have ids of their own (the API addresses them directly); an index from such an
// id to its filter lets /api/v2/filters/keywords/:id find it. Both families live in the `filters` keyspace:
// ["f", accountId, filterId] → FilterRecord and ["i", itemId] → FilterItemRef. Writing a filter record bumps
// its owner's viewer version (store/versions.ts), which is what every cache of what the owner sees checks.
import { END, type Store } from "./handle.ts";
import type { FilterItemKind, FilterItemRef, FilterRecord } from "../model/filters.ts";

const FILTER = "f";
const ITEM = "i";

export function getFilter(store: Store, accountId: string, filterId: string): FilterRecord | undefined {
  return store.db.filters.get([FILTER, accountId, filterId]);
}

/** The owner's filters, oldest first (expired ones too). */
export function filtersOf(store: Store, accountId: string): FilterRecord[] {
  const out: FilterRecord[] = [];
  for (const { value } of store.db.filters.getRange({ start: [FILTER, accountId], end: [FILTER, accountId, END] })) out.push(value as FilterRecord);
  return out;
}

export function getFilterItem(store: Store, itemId: string): FilterItemRef | undefined {
  return store.db.filters.get([ITEM, itemId]);
}

/**
 * Inside a write: a new filter or a new version of one. The item index follows its keywords and statuses:
 * entries the previous version had and this one has not are dropped, new ones added.
 */
export function putFilter(store: Store, filter: FilterRecord, previous?: FilterRecord): void {
  const ids = (f: FilterRecord | undefined) => new Map<string, FilterItemKind>([
    ...(f?.keywords ?? []).map((k): [string, FilterItemKind] => [k.id, "keyword"]),
    ...(f?.statuses ?? []).map((s): [string, FilterItemKind] => [s.id, "status"]),
  ]);
  const before = ids(previous);
  const after = ids(filter);
  for (const id of before.keys()) if (!after.has(id)) store.db.filters.remove([ITEM, id]);
  for (const [id, kind] of after) {
    if (!before.has(id)) store.db.filters.put([ITEM, id], { kind, accountId: filter.accountId, filterId: filter.id } satisfies FilterItemRef);
  }
  store.db.filters.put([FILTER, filter.accountId, filter.id], filter);
}

/** Inside a write: the filter and its index entries. */
export function removeFilter(store: Store, filter: FilterRecord): void {
  for (const k of filter.keywords) store.db.filters.remove([ITEM, k.id]);
  for (const s of filter.statuses) store.db.filters.remove([ITEM, s.id]);
  store.db.filters.remove([FILTER, filter.accountId, filter.id]);
}
