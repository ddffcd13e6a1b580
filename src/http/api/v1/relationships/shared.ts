// What the relationship route groups share: the account-list answer with its Link header, and schemas.
import { t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import type { AccountPage } from "../../../../domain/relationships/lists.ts";
import { presentAccount, type Account } from "../../../../entities/account.ts";
import { linkHeader } from "../../../plugins/paging.ts";
import { ErrorBody, pagingQuery } from "../../../schemas.ts";

/** Account lists of the graph: 40 by default, at most 80 (API.md §9). */
export const LIST_LIMIT = 40;

/** Any text: ids that are not ids are simply unknown (404), as on Mastodon. */
export const AccountIdParams = t.Object({ id: t.String({ description: "Account id" }) });

export const ListQuery = t.Object(pagingQuery);

/** Errors of the POST actions on an account: bad token, missing scope / not permitted, unknown account, app token. */
export const actionErrors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };

/** Presents a page and sets its Link header (next when full, prev with since_id; cursors are row ids). */
export function accountList<T extends Account>(
  deps: Deps,
  request: Request,
  set: { headers: Record<string, unknown> },
  page: AccountPage,
  viewerId: string | null,
  present: (entry: AccountPage["entries"][number], account: Account) => T = (_e, a) => a as T,
): T[] {
  const link = linkHeader({
    baseUrl: deps.config.url,
    request,
    first: page.entries[0]?.cursor,
    last: page.entries.at(-1)?.cursor,
    next: page.full,
    prevParam: "since_id",
  });
  if (link) set.headers["link"] = link;
  return page.entries.map((entry) => present(entry, presentAccount(deps.config, entry.account, viewerId)));
}
