// The status loader: everything a page of statuses refers to (authors, mentioned accounts, the statuses that
// reblogs wrap, preview cards, applications, the viewer's flags), read synchronously in one pass so that the
// whole page comes from one read snapshot. Output formats render what it returns and read nothing
// themselves: the Mastodon entities (src/entities/status.ts) now, the ActivityPub converter next.
import { emojisInText } from "../emojis/in-text.ts";
import type { Deps } from "../../deps.ts";
import type { Viewer } from "../auth/viewer.ts";
import { cachedAccount } from "../accounts/read.ts";
import { getApp } from "../../store/oauth.ts";
import { withKeptCopies } from "../media/remote-emojis.ts";
import { getStatus, rebloggedAmong } from "../../store/statuses.ts";
import { getMedia } from "../../store/media.ts";
import { getCard } from "../../store/statuses-cards.ts";
import { bookmarkedAmong, favouritedAmong, pinIdOf } from "../../store/statuses-interactions.ts";
import { activeFilters, type FilterMatch, type FilterSet } from "../filters/match.ts";
import { searchableText } from "../filters/text.ts";
import { getPoll } from "../../store/polls.ts";
import { noteExpiry } from "../../store/versions.ts";
import { loadPoll, pollExpired, type LoadedPoll } from "../polls/poll.ts";
import { mutesAnyThread } from "../../store/thread-mutes.ts";
import { threadMuted } from "./thread-mute.ts";
import { shownQuote } from "../quotes/shown.ts";
import type { LoadedQuote, LoadedQuoteApproval, LoadedStatus, LoadedStatuses, ViewerFlags } from "./loaded.ts";
import { automaticKeys, quoteApprovalFor } from "../quotes/policy.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { FilterContext } from "../../model/filters.ts";
import type { MediaRecord } from "../../model/media.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/**
 * Whose filters apply to a page, and in which context (the read path's: home and lists → home,
 * notifications, public and hashtag timelines → public, a status and its thread → thread, an account's
 * statuses → account; null for paths with no context of their own, where every active filter is reported and
 * the client decides, as Mastodon does everywhere). By default the viewer's, with no context.
 */
export interface FilterOptions {
  context?: FilterContext | null;
  /** Whose filters: the viewer (default); another account for an anonymous rendering (public streams). */
  accountId?: string | null;
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
  private mutesThreads: boolean | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly viewerId: string | null,
  ) {
    this.account = accountReader(deps);
  }

  /**
   * Null when the status cannot be shown: its author (or, for a reblog, what it wraps) is gone. `quoted`: it
   * is shown inside a quote, where its own quote is shallow.
   */
  load(status: StatusRecord, reblog: LoadedStatus | null, quoted = false): LoadedStatus | null {
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
      filtered: null,
      poll: this.poll(status),
      quote: status.quote ? this.quote(status.quote, quoted) : null,
      quoteApproval: this.quoteApproval(reblog?.status ?? status),
      emojis: status.local && !status.reblogOfId ? emojisInText(store, status.text, status.spoilerText) : [],
      remoteEmojis: status.emojis ? withKeptCopies(store, status.emojis) : [],
    };
  }

  private quote(quote: NonNullable<StatusRecord["quote"]>, shallow: boolean): LoadedQuote {
    const { state, quoted } = shownQuote(this.deps.store, this.viewerId, quote);
    if (shallow) return { state, status: null, shallow, quotedId: quoted?.id ?? null };
    const status = quoted ? this.load(quoted, null, true) : null;
    // A quoted status whose author is gone is gone too.
    return { state: quoted && !status ? "deleted" : state, status, shallow, quotedId: null };
  }

  private quoteApproval(status: StatusRecord): LoadedQuoteApproval {
    return { automatic: automaticKeys(status), currentUser: quoteApprovalFor(this.deps.store, this.viewerId, status) };
  }

  /** A running poll renders differently once it ends, with nothing written: what keeps the page notes when. */
  private poll(status: StatusRecord): LoadedPoll | null {
    const poll = status.hasPoll ? getPoll(this.deps.store, status.id) : undefined;
    if (!poll) return null;
    if (poll.expiresAt !== null && !pollExpired(poll)) noteExpiry(poll.expiresAt);
    return loadPoll(this.deps.store, this.viewerId, status, poll);
  }

  /**
   * The viewer's flags for every status of the page at once (for a reblog, the status it wraps): one range
   * read per keyspace over the page's ids rather than three point reads per status (store joinedAmong).
   */
  readFlags(statuses: readonly StatusRecord[]): void {
    const { viewerId } = this;
    if (!viewerId) return;
    const ids = statuses.map((status) => status.reblogOfId ?? status.id);
    const { store } = this.deps;
    const favourited = favouritedAmong(store, viewerId, ids);
    const reblogged = rebloggedAmong(store, viewerId, ids);
    const bookmarked = bookmarkedAmong(store, viewerId, ids);
    for (const id of ids) {
      this.flagsOf.set(id, { favourited: favourited.has(id), reblogged: reblogged.has(id), muted: this.threadMuted(viewerId, id), bookmarked: bookmarked.has(id) });
    }
  }

  /** A reblog wrapper and the status it wraps share one reading (readFlags, or one status's here). */
  private flags(viewerId: string, statusId: string): ViewerFlags {
    let hit = this.flagsOf.get(statusId);
    if (hit === undefined) {
      const { store } = this.deps;
      hit = {
        favourited: favouritedAmong(store, viewerId, [statusId]).size > 0,
        reblogged: rebloggedAmong(store, viewerId, [statusId]).size > 0,
        muted: this.threadMuted(viewerId, statusId),
        bookmarked: bookmarkedAmong(store, viewerId, [statusId]).size > 0,
      };
      this.flagsOf.set(statusId, hit);
    }
    return hit;
  }

  /** Thread roots are looked for only when the viewer has muted some thread (once per page). */
  private threadMuted(viewerId: string, statusId: string): boolean {
    const { store } = this.deps;
    if (!(this.mutesThreads ??= mutesAnyThread(store, viewerId))) return false;
    const status = getStatus(store, statusId);
    return !!status && threadMuted(store, viewerId, status);
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
export function loadStatuses(deps: Deps, viewerId: string | null, statuses: readonly StatusRecord[], filters: FilterOptions = {}): LoadedStatuses {
  const loader = new PageLoader(deps, viewerId);
  const filterAccountId = filters.accountId === undefined ? viewerId : filters.accountId;
  // The filters are compiled once for the page (and kept between pages while they are unchanged).
  const set = filterAccountId ? activeFilters(deps.store, filterAccountId) : null;
  const context = filters.context ?? null;
  const out: LoadedStatus[] = [];
  loader.readFlags(statuses);
  for (const status of statuses) {
    let reblog: LoadedStatus | null = null;
    if (status.reblogOfId) {
      const original = getStatus(deps.store, status.reblogOfId);
      reblog = original ? loader.load(original, null) : null;
      if (!reblog) continue;
    }
    const loaded = loader.load(status, reblog);
    if (!loaded) continue;
    if (set) {
      loaded.filtered = filterMatches(set, loaded, context);
      if (loaded.reblog) loaded.reblog.filtered = loaded.filtered;
    }
    out.push(loaded);
  }
  return { viewerId, statuses: out };
}

/** The filters of `set` in `context` matching a loaded status (for a reblog, the status it wraps). */
function filterMatches(set: FilterSet, loaded: LoadedStatus, context: FilterContext | null): FilterMatch[] {
  if (set.empty) return [];
  const proper = loaded.reblog ?? loaded;
  const ids = loaded.reblog ? [loaded.status.id, loaded.reblog.status.id] : [loaded.status.id];
  return set.match(context, ids, () => searchableText(proper.status, proper.media.map((m) => m.description)));
}

/**
 * A loaded page again with its accounts as they are now, for a kept page whose only change is in the accounts
 * it shows (counters, profile): what it shows is the same as long as each changed account still exists and
 * is exactly as suspended and silenced as before (what the timeline rules ask of an account). Null when one
 * is not, or when `changed` names an account the page does not show (one the rules looked at and left out).
 */
export function withCurrentAccounts(deps: Deps, page: LoadedStatuses, changed: ReadonlySet<string>): LoadedStatuses | null {
  const shown = new Set<string>();
  let usable = true;
  const current = (account: AccountRecord): AccountRecord => {
    shown.add(account.id);
    if (!changed.has(account.id)) return account;
    const now = cachedAccount(deps.store, account.id);
    if (!now || now.suspended !== account.suspended || now.silenced !== account.silenced) {
      usable = false;
      return account;
    }
    return now;
  };
  const again = (loaded: LoadedStatus): LoadedStatus => ({
    ...loaded,
    author: current(loaded.author),
    mentions: loaded.mentions.map(current),
    reblog: loaded.reblog && again(loaded.reblog),
    quote: loaded.quote && { ...loaded.quote, status: loaded.quote.status && again(loaded.quote.status) },
  });
  const statuses = page.statuses.map(again);
  for (const id of changed) if (!shown.has(id)) return null;
  return usable ? { viewerId: page.viewerId, statuses } : null;
}
