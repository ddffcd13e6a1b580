// Filters v1 (/api/v1/filters) as a view over v2, as Mastodon 4 serves it: every keyword of every filter is a
// v1 filter (its id is the keyword's id, `phrase` the keyword, the rest from its filter; `irreversible` is
// the hide action). Creating one creates a v2 filter titled after the phrase with that one keyword; deleting
// one deletes the keyword only. An update changes the keyword, and the filter's title, context, expiry and
// action, which is refused (422) when the filter has other keywords that the change would also affect.
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { filtersOf } from "../../store/filters.ts";
import { validContext, validExpiry, validKeyword, validTitle } from "./input.ts";
import { deleteKeyword, findOwnKeyword } from "./items.ts";
import { rewriteFilter, storeFilter } from "./manage.ts";
import type { FilterAction, FilterKeywordRecord, FilterRecord } from "../../model/filters.ts";

export interface V1Filter {
  filter: FilterRecord;
  keyword: FilterKeywordRecord;
}

export interface V1FilterInput {
  phrase?: string;
  context?: string | string[];
  irreversible?: boolean;
  wholeWord?: boolean;
  /** seconds; "" = never */
  expiresIn?: string;
}

export const MULTIPLE_KEYWORDS =
  "These parameters cannot be changed from this application because they apply to more than one filter keyword. Use a more recent application or the web interface.";

/** Every keyword of the viewer's filters, filter by filter. */
export function v1Filters(store: Store, accountId: string): V1Filter[] {
  return filtersOf(store, accountId).flatMap((filter) => filter.keywords.map((keyword) => ({ filter, keyword })));
}

export function findV1Filter(store: Store, accountId: string, rawId: string): V1Filter {
  return findOwnKeyword(store, accountId, rawId);
}

const actionOf = (irreversible: boolean | undefined, fallback: FilterAction): FilterAction =>
  irreversible === undefined ? fallback : irreversible ? "hide" : "warn";

export async function createV1Filter(deps: Deps, accountId: string, input: V1FilterInput): Promise<V1Filter> {
  const now = Date.now();
  const phrase = validKeyword(input.phrase, "Phrase");
  const filter: FilterRecord = {
    v: 1, id: newId(now), accountId, title: validTitle(phrase, "Phrase"), context: validContext(input.context),
    action: actionOf(input.irreversible, "warn"), expiresAt: validExpiry(input.expiresIn, now, null),
    keywords: [{ id: newId(now), keyword: phrase, wholeWord: input.wholeWord ?? true }], statuses: [], createdAt: now, updatedAt: now,
  };
  await deps.store.write(() => storeFilter(deps, filter));
  return { filter, keyword: filter.keywords[0]! };
}

export async function updateV1Filter(deps: Deps, accountId: string, rawId: string, input: V1FilterInput): Promise<V1Filter> {
  const found = findOwnKeyword(deps.store, accountId, rawId);
  const now = Date.now();
  const phrase = input.phrase === undefined ? undefined : validKeyword(input.phrase, "Phrase");
  const title = phrase === undefined ? undefined : validTitle(phrase, "Phrase");
  const context = input.context === undefined ? undefined : validContext(input.context);
  const expiresAt = validExpiry(input.expiresIn, now, found.filter.expiresAt);
  const filter = await deps.store.write(() =>
    rewriteFilter(deps, accountId, found.filter.id, (current) => {
      const at = current.keywords.findIndex((k) => k.id === found.keyword.id);
      if (at < 0) throw new NotFound();
      const next: FilterRecord = {
        ...current,
        title: title ?? current.title,
        context: context ?? current.context,
        action: actionOf(input.irreversible, current.action),
        expiresAt: input.expiresIn === undefined ? current.expiresAt : expiresAt,
      };
      const changed =
        next.title !== current.title || next.context.join() !== current.context.join() || next.action !== current.action || next.expiresAt !== current.expiresAt;
      if (changed && current.keywords.length > 1) throw new Unprocessable(MULTIPLE_KEYWORDS);
      const keywords = [...current.keywords];
      keywords[at] = { ...keywords[at]!, keyword: phrase ?? keywords[at]!.keyword, wholeWord: input.wholeWord ?? keywords[at]!.wholeWord };
      return { ...next, keywords };
    }),
  );
  return { filter, keyword: filter.keywords.find((k) => k.id === found.keyword.id)! };
}

/** Removes the keyword; its filter stays (with its other keywords and statuses), as on Mastodon. */
export async function deleteV1Filter(deps: Deps, accountId: string, rawId: string): Promise<void> {
  await deleteKeyword(deps, accountId, rawId);
}
