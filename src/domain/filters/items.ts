// A filter's keywords and statuses addressed on their own (/api/v2/filters/:filter_id/keywords,
// /api/v2/filters/keywords/:id, and the same for statuses). They live inside their filter's record; an
// index from their id to the filter finds them. Someone else's keyword or status entry is 404.
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getFilter, getFilterItem } from "../../store/filters.ts";
import { getStatus } from "../../store/statuses.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { validKeyword } from "./input.ts";
import { findOwnFilter, rewriteFilter } from "./manage.ts";
import type { FilterItemKind, FilterKeywordRecord, FilterRecord, FilterStatusRecord } from "../../model/filters.ts";

export interface KeywordInput {
  keyword?: string;
  wholeWord?: boolean;
}

/** The viewer's filter holding the keyword or status entry `rawId`, or 404. */
function ownerFilter(store: Store, accountId: string, rawId: string, kind: FilterItemKind): { filter: FilterRecord; id: string } {
  const id = normaliseId(rawId);
  const ref = id ? getFilterItem(store, id) : undefined;
  const filter = ref && ref.kind === kind && ref.accountId === accountId ? getFilter(store, accountId, ref.filterId) : undefined;
  if (!filter || !id) throw new NotFound();
  return { filter, id };
}

export function findOwnKeyword(store: Store, accountId: string, rawId: string): { filter: FilterRecord; keyword: FilterKeywordRecord } {
  const { filter, id } = ownerFilter(store, accountId, rawId, "keyword");
  const keyword = filter.keywords.find((k) => k.id === id);
  if (!keyword) throw new NotFound();
  return { filter, keyword };
}

export function findOwnFilterStatus(store: Store, accountId: string, rawId: string): { filter: FilterRecord; entry: FilterStatusRecord } {
  const { filter, id } = ownerFilter(store, accountId, rawId, "status");
  const entry = filter.statuses.find((s) => s.id === id);
  if (!entry) throw new NotFound();
  return { filter, entry };
}

export function filterKeywords(store: Store, accountId: string, rawFilterId: string): FilterKeywordRecord[] {
  return findOwnFilter(store, accountId, rawFilterId).keywords;
}

export function filterStatuses(store: Store, accountId: string, rawFilterId: string): FilterStatusRecord[] {
  return findOwnFilter(store, accountId, rawFilterId).statuses;
}

export async function addKeyword(deps: Deps, accountId: string, rawFilterId: string, input: KeywordInput): Promise<FilterKeywordRecord> {
  const filter = findOwnFilter(deps.store, accountId, rawFilterId);
  const keyword: FilterKeywordRecord = { id: newId(), keyword: validKeyword(input.keyword), wholeWord: input.wholeWord ?? true };
  await deps.store.write(() =>
    rewriteFilter(deps, accountId, filter.id, (current) => ({ ...current, keywords: [...current.keywords, keyword] })),
  );
  return keyword;
}

/** PUT: `keyword` and `whole_word` when given. */
export async function updateKeyword(deps: Deps, accountId: string, rawId: string, input: KeywordInput): Promise<FilterKeywordRecord> {
  const { filter, keyword } = findOwnKeyword(deps.store, accountId, rawId);
  const text = input.keyword === undefined ? undefined : validKeyword(input.keyword);
  const updated = await deps.store.write(() =>
    rewriteFilter(deps, accountId, filter.id, (current) => {
      const at = current.keywords.findIndex((k) => k.id === keyword.id);
      if (at < 0) throw new NotFound();
      const keywords = [...current.keywords];
      keywords[at] = { ...keywords[at]!, keyword: text ?? keywords[at]!.keyword, wholeWord: input.wholeWord ?? keywords[at]!.wholeWord };
      return { ...current, keywords };
    }),
  );
  return updated.keywords.find((k) => k.id === keyword.id)!;
}

export async function deleteKeyword(deps: Deps, accountId: string, rawId: string): Promise<void> {
  const { filter, keyword } = findOwnKeyword(deps.store, accountId, rawId);
  await deps.store.write(() => {
    if (!getFilter(deps.store, accountId, filter.id)?.keywords.some((k) => k.id === keyword.id)) return;
    rewriteFilter(deps, accountId, filter.id, (current) => ({ ...current, keywords: current.keywords.filter((k) => k.id !== keyword.id) }));
  });
}

/** A status the owner may see, at most once per filter. */
export async function addFilterStatus(deps: Deps, accountId: string, rawFilterId: string, rawStatusId: string | undefined): Promise<FilterStatusRecord> {
  const { store } = deps;
  const filter = findOwnFilter(store, accountId, rawFilterId);
  if (rawStatusId === undefined || rawStatusId.trim() === "") throw new Unprocessable("Validation failed: Status must exist");
  const statusId = normaliseId(rawStatusId);
  const status = statusId ? getStatus(store, statusId) : undefined;
  // Unknown and invisible statuses give the same answer: the message tells nothing about what exists.
  if (!status || !canSeeStatus(store, accountId, status)) throw new Unprocessable("Validation failed: Status is invalid");
  const entry: FilterStatusRecord = { id: newId(), statusId: status.id };
  await store.write(() =>
    rewriteFilter(deps, accountId, filter.id, (current) => {
      if (current.statuses.some((s) => s.statusId === status.id)) throw new Unprocessable("Validation failed: Status has already been taken");
      return { ...current, statuses: [...current.statuses, entry] };
    }),
  );
  return entry;
}

export async function deleteFilterStatus(deps: Deps, accountId: string, rawId: string): Promise<void> {
  const { filter, entry } = findOwnFilterStatus(deps.store, accountId, rawId);
  await deps.store.write(() => {
    if (!getFilter(deps.store, accountId, filter.id)?.statuses.some((s) => s.id === entry.id)) return;
    rewriteFilter(deps, accountId, filter.id, (current) => ({ ...current, statuses: current.statuses.filter((s) => s.id !== entry.id) }));
  });
}
