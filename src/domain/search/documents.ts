// Records → the documents a search engine indexes (src/search/engine.ts). One place decides what is
// searchable, for the subscribers that index as things happen (indexing.ts) and for `warren search deploy`:
// - a status: its text as readers see it (content without HTML, like Mastodon's searchable_text: content
//   warning, content, media descriptions); never a reblog wrapper, nor a deleted status;
// - an account: username, domain and display name (the engine decides which of them it matches), with
//   followers and last status for ranking and `discoverable` for who may find it by more than its acct;
// - a hashtag: its name, when a public or unlisted status carries it, ranked by `uses`: the public statuses
//   that carry it (its hashtag timeline's rows).
import type { AccountDocument, StatusDocument, TagDocument } from "../../search/engine.ts";
import type { Store } from "../../store/db.ts";
import { getMedia } from "../../store/media.ts";
import { tagUses } from "../../store/search-index.ts";
import { htmlToText, searchableText } from "../filters/text.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { StatusRecord } from "../../model/statuses.ts";

export function accountDocument(account: AccountRecord): AccountDocument {
  return {
    id: account.id,
    username: account.username.toLowerCase(),
    domain: account.domain,
    displayName: account.displayName,
    note: htmlToText(account.note),
    followersCount: account.followersCount,
    lastStatusAt: account.lastStatusAt,
    discoverable: account.discoverable,
  };
}

/** The status as indexed, or null when it is not indexed at all (a reblog, a deleted status). */
export function statusDocument(store: Store, status: StatusRecord): StatusDocument | null {
  if (status.reblogOfId || status.deletedAt) return null;
  const descriptions = status.mediaIds.map((id) => getMedia(store, id)?.description);
  return {
    id: status.id,
    accountId: status.accountId,
    text: searchableText(status, descriptions),
    visibility: status.visibility,
    createdAt: status.createdAt,
  };
}

/** Whether a status makes its hashtags findable: only what anyone may read (public or unlisted) does. */
export const sharesTags = (status: StatusRecord): boolean =>
  !status.reblogOfId && !status.deletedAt && (status.visibility === "public" || status.visibility === "unlisted");

/** The hashtags of these names as indexed now, with their uses. */
export function tagDocuments(store: Store, names: Iterable<string>): TagDocument[] {
  return [...new Set(names)].map((name) => ({ name, uses: tagUses(store, name) }));
}
