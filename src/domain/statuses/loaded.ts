// What the status loader (load.ts) returns: a status with everything a page of it refers to, and what it
// quotes as the viewer may see it (domain/quotes/shown.ts). Types only, in their own file so that the loader
// and the quote rules, which use each other's, import no circle.
import type { RemoteEmoji } from "../../model/media.ts";
import type { FilterMatch } from "../filters/match.ts";
import type { LoadedPoll } from "../polls/poll.ts";
import type { QuoteApproval } from "../quotes/policy.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { AppRecord } from "../../model/auth.ts";
import type { CustomEmojiRecord, MediaRecord } from "../../model/media.ts";
import type { PreviewCardRecord, QuoteOfStatus, StatusRecord } from "../../model/statuses.ts";

export interface ViewerFlags {
  favourited: boolean;
  reblogged: boolean;
  /** The viewer muted the status's thread (statuses/thread-mute.ts). */
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
  /**
   * The viewer's filters that match it in the page's context (Status.filtered); null when no account's
   * filters apply (anonymous renderings). A reblog wrapper matches by the status it wraps.
   */
  filtered: FilterMatch[] | null;
  /** Its poll with the viewer's votes; null without one (and for reblog wrappers). */
  poll: LoadedPoll | null;
  /** What it quotes, as the viewer may see it (domain/quotes/shown.ts); null when it quotes nothing. */
  quote: LoadedQuote | null;
  /** Who may quote it and how that applies to the viewer (for a reblog wrapper, what it wraps). */
  quoteApproval: LoadedQuoteApproval;
  /** The custom emojis a local status's text and content warning name (none for remote ones, whose
   * shortcodes are their servers'). */
  emojis: CustomEmojiRecord[];
  /** A remote status's emojis as its Note tagged them, with the URLs of the copies kept here where they exist. */
  remoteEmojis: RemoteEmoji[];
}

export interface LoadedStatuses {
  viewerId: string | null;
  statuses: LoadedStatus[];
}

export type ShownQuoteState = QuoteOfStatus["state"] | "deleted" | "unauthorized" | "blocked_account" | "blocked_domain" | "muted_account";

export interface LoadedQuote {
  state: ShownQuoteState;
  /** The quoted status, loaded for the viewer (its own quote shallow), when the state lets it be shown. */
  status: LoadedStatus | null;
  /** A quote inside a quoted status: Mastodon's ShallowQuote, the quoted status's id only. */
  shallow: boolean;
  /** For a shallow quote: the id of the quoted status when it may be shown. */
  quotedId: string | null;
}

/** quote_approval: the status's policy, and how it applies to the viewer. */
export interface LoadedQuoteApproval {
  automatic: string[];
  currentUser: QuoteApproval;
}
