// The status loader: everything a page of statuses refers to (authors, mentioned accounts, the statuses that
// reblogs wrap, preview cards, applications, the viewer's flags), read synchronously in one pass so that the
// whole page comes from one read snapshot. Output formats render what it returns and read nothing
// themselves: the Mastodon entities (src/entities/status.ts) now, the ActivityPub converter next.
import type { Deps } from "../../deps.ts";
import type { Viewer } from "../auth/viewer.ts";
import { cachedAccount } from "../accounts/read.ts";
import { getApp } from "../../store/oauth.ts";
import type { AccountRecord, AppRecord, StatusRecord } from "../../store/records.ts";
import { getStatus, reblogIdOf } from "../../store/statuses.ts";
import { getMedia, type MediaRecord } from "../../store/media.ts";
import { getCard, type PreviewCardRecord } from "../../store/statuses-cards.ts";
import { bookmarkIdOf, favouriteIdOf, pinIdOf } from "../../store/statuses-interactions.ts";

interface ViewerFlags {
  favourited: boolean;
  reblogged: boolean;
  /** Conversation mutes do not exist yet: always false. */
  muted: boolean;
  bookmarked: boolean;
}

export interface LoadedStatus {
  status: StatusRecord;
  author: AccountRecord;
  /** The mentioned accounts that still exist, in the status's order. */
  mentions: AccountRecord[];
  /** Its attachments in the author's order (a reblog wrapper has none: they belong to what it wraps). */
  media: MediaRecord[];
  /** The wrapped status of a reblog, loaded alike; null for an original. */
  reblog: LoadedStatus | null;
  /** Null for reblog wrappers (the card belongs to the status they wrap) and statuses without one. */
  card: PreviewCardRecord | null;
  /** The app a local status was posted with, when it still exists. */
  application: AppRecord | null;
  /** Signed-in viewers only; a reblog wrapper has the flags of the status it wraps, as on Mastodon. */
  flags: ViewerFlags | null;
  /** Only for the viewer's own pinnable statuses (not reblogs, not direct). */
  pinned: boolean | null;
}

export interface LoadedStatuses {
  viewerId: string | null;
  statuses: LoadedStatus[];
}

/**
 * Account records by id, once per page, from the records kept while each account is unchanged
 * (accounts/read.ts cachedAccount): pages share them, so a client re-reading a thread or a timeline does not
 * decode the same authors again. The same record object also lets a renderer reuse what it made of it.
 */
function accountReader(deps: Deps): (id: string) => AccountRecord | null {
  const known = new Map<string, AccountRecord | null>();
  return (id) => {
    let hit = known.get(id);
    if (hit === undefined) known.set(id, (hit = cachedAccount(deps.store, id)));
    return hit;
  };
}

class PageLoader {
  private readonly account: (id: string) => AccountRecord | null;
  private readonly flagsOf = new Map<string, ViewerFlags>();

  constructor(
    private readonly deps: Deps,
    private readonly viewerId: string | null,
  ) {
    this.account = accountReader(deps);
  }

  /** Null when the status cannot be shown: its author (or, for a reblog, what it wraps) is gone. */
  load(status: StatusRecord, reblog: LoadedStatus | null): LoadedStatus | null {
    const author = this.account(status.accountId);
    if (!author) return null;
    const { store } = this.deps;
    const mentions: AccountRecord[] = [];
    for (const id of status.mentionIds) {
      const mentioned = this.account(id);
      if (mentioned) mentions.push(mentioned);
    }
    const media: MediaRecord[] = [];
    for (const id of status.mediaIds) {
      const record = getMedia(store, id);
      if (record) media.push(record);
    }
    const { viewerId } = this;
    const pinnable = viewerId === status.accountId && !status.reblogOfId && status.visibility !== "direct";
    return {
      status,
      author,
      mentions,
      media,
      reblog,
      card: reblog ? null : (getCard(store, status.id) ?? null),
      application: status.local && status.applicationId ? (getApp(store, status.applicationId) ?? null) : null,
      flags: viewerId ? this.flags(viewerId, status.reblogOfId ?? status.id) : null,
      pinned: pinnable ? !!pinIdOf(store, viewerId, status.id) : null,
    };
  }

  /** A reblog wrapper and the status it wraps share one reading. */
  private flags(viewerId: string, statusId: string): ViewerFlags {
    let hit = this.flagsOf.get(statusId);
    if (hit === undefined) {
      const { store } = this.deps;
      hit = {
        favourited: !!favouriteIdOf(store, viewerId, statusId),
        reblogged: !!reblogIdOf(store, viewerId, statusId),
        muted: false,
        bookmarked: !!bookmarkIdOf(store, viewerId, statusId),
      };
      this.flagsOf.set(statusId, hit);
    }
    return hit;
  }
}

/** The account id of a viewer as handlers hold it (none for anonymous requests and app tokens). */
export function viewerAccountId(viewer: Pick<Viewer, "account"> | null): string | null {
  return viewer?.account?.id ?? null;
}

/**
 * A page of statuses as `viewerId` sees them, in the given order. Statuses whose author is gone are left
 * out, and so are reblogs whose wrapped status (or its author) is gone. Visibility is the caller's concern.
 */
export function loadStatuses(deps: Deps, viewerId: string | null, statuses: readonly StatusRecord[]): LoadedStatuses {
  const loader = new PageLoader(deps, viewerId);
  const out: LoadedStatus[] = [];
  for (const status of statuses) {
    let reblog: LoadedStatus | null = null;
    if (status.reblogOfId) {
      const original = getStatus(deps.store, status.reblogOfId);
      reblog = original ? loader.load(original, null) : null;
      if (!reblog) continue;
    }
    const loaded = loader.load(status, reblog);
    if (loaded) out.push(loaded);
  }
  return { viewerId, statuses: out };
}
