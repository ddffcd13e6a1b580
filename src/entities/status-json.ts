// Statuses as UTF-8 JSON, from parts that do not depend on the viewer (kept by http/cache/rendered-statuses.ts
// while what they were rendered from is unchanged) and the parts that do, written per request into one byte
// buffer (lib/byte-writer.ts): the same bytes as JSON.stringify of presentStatuses (tests compare the two on
// every timeline page, see WARREN_CHECK_RESPONSES), without building and serialising the objects again.
import type { Config } from "../config.ts";
import type { ByteWriter } from "../lib/byte-writer.ts";
import type { LoadedQuote, LoadedStatus } from "../domain/statuses/loaded.ts";
import { presentFilterResult } from "./filter.ts";
import { presentQuote, presentQuoteApproval } from "./quote.ts";
import { authorJson, mentionJson, SOME_VIEWER, statusObject } from "./status.ts";

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text);

// The viewer's parts that take few values, as bytes once (a page writes each for every status).
const FLAGS = Array.from({ length: 16 }, (_, bits) =>
  bytesOf(`,"favourited":${!!(bits & 1)},"reblogged":${!!(bits & 2)},"muted":${!!(bits & 4)},"bookmarked":${!!(bits & 8)}`),
);
const TRUE = bytesOf("true");
const FALSE = bytesOf("false");
const NULL = bytesOf("null");
const PINNED = [bytesOf(',"pinned":false'), bytesOf(',"pinned":true')];
const NO_FILTER_RESULTS = bytesOf(',"filtered":[]');
const QUOTE = [bytesOf(',"quote":'), bytesOf('},"quote":')];
const NO_QUOTE = [bytesOf(',"quote":null'), bytesOf('},"quote":null')];
/** quote_approval by its values (automatic keys, then current_user): a handful of combinations. */
const quoteApprovals = new Map<string, Map<string, Uint8Array>>();

function quoteApprovalJson(approval: LoadedStatus["quoteApproval"]): Uint8Array {
  const { automatic, currentUser } = approval;
  // automatic holds at most one key here (domain/quotes/policy.ts automaticKeys): no string to build per status.
  const first = automatic.length === 1 ? automatic[0]! : automatic.join();
  let byUser = quoteApprovals.get(first);
  if (!byUser) quoteApprovals.set(first, (byUser = new Map()));
  let json = byUser.get(currentUser);
  if (!json) byUser.set(currentUser, (json = bytesOf(`,"quote_approval":${JSON.stringify(presentQuoteApproval(approval))}`)));
  return json;
}

/**
 * The JSON of one status (wrapper or wrapped) with the viewer's parts left out, for signed-in viewers or
 * anonymous ones, as UTF-8. The author's Account and the mentions are not in it (spliced from what each
 * account record was rendered as, so a new post by the author, which changes its counters, leaves these parts
 * valid).
 */
export interface StatusJsonParts {
  /** `{"id":…,"in_reply_to_account_id":…,"sensitive":` */
  head: Uint8Array;
  /** `,"spoiler_text":…,"edited_at":…` */
  middle: Uint8Array;
  /** `,"content":…,"reblog":` */
  content: Uint8Array;
  /** `,"application":…` (local statuses), then `,"account":` */
  beforeAccount: Uint8Array;
  /** `,"media_attachments":[…],"mentions":` */
  beforeMentions: Uint8Array;
  /** `,"tags":[…],…,"poll":…` (a poll without its closing brace: the viewer's votes go there) */
  end: Uint8Array;
  /** Does the poll's closing brace come next (after the viewer's votes)? Then the viewer's `quote` and `quote_approval` go */
  closesPoll: boolean;
  /** `,"tagged_collections":[]}` */
  tail: Uint8Array;
  /** Bytes held (for a cache's size cap). */
  length: number;
}

/** Every key `statusObject` writes for a status rendered without viewer parts, in its order. */
const ALL_KEYS = [
  "id", "created_at", "in_reply_to_id", "in_reply_to_account_id", "sensitive", "spoiler_text", "visibility", "language", "uri", "url",
  "replies_count", "reblogs_count", "favourites_count", "quotes_count", "edited_at", "content", "reblog", "application", "account",
  "media_attachments", "mentions", "tags", "emojis", "card", "poll", "quote", "quote_approval", "tagged_collections",
];
const KEYS_WITH_APPLICATION = ALL_KEYS.join();
const KEYS_WITHOUT_APPLICATION = ALL_KEYS.filter((key) => key !== "application").join();

/**
 * Where `marker` starts in `json` at or after `from`. The markers are `,"key":` of top-level keys: inside a
 * JSON string every `"` is escaped, so `,"` cannot occur in a value that is a string, and the nested objects
 * before each marker (application, media attachments) have no such key.
 */
function at(json: string, marker: string, from: number): number {
  const i = json.indexOf(marker, from);
  if (i < 0) throw new Error(`statusJsonParts: ${marker} not found`);
  return i;
}

/** Renders the parts of `loaded` (its own status only: a wrapped status has parts of its own). */
export function statusJsonParts(config: Config, loaded: LoadedStatus, signedIn: boolean): StatusJsonParts {
  const poll = loaded.poll && { ...loaded.poll, ownVotes: null };
  const bare: LoadedStatus = { ...loaded, reblog: null, flags: null, pinned: null, filtered: null, poll, quote: null };
  const out = statusObject(config, signedIn ? SOME_VIEWER : null, bare, false);
  const keys = Object.keys(out).join();
  const expected = out.application === undefined ? KEYS_WITHOUT_APPLICATION : KEYS_WITH_APPLICATION;
  if (keys !== expected) throw new Error(`statusJsonParts: Status keys ${keys}, expected ${expected}`);
  // One JSON.stringify, with placeholders where the viewer's and the accounts' parts go, cut at the markers.
  out.sensitive = false;
  out.account = 0;
  out.mentions = 0;
  const json = JSON.stringify(out);
  const sensitive = at(json, ',"sensitive":false,', 0);
  const content = at(json, ',"content":', sensitive);
  const reblog = at(json, ',"reblog":null', content);
  const account = at(json, ',"account":0,', reblog);
  const mentions = at(json, ',"mentions":0,', account);
  const quote = at(json, ',"quote":null,', mentions);
  const tagged = at(json, ',"tagged_collections":', quote);
  const cut = (from: number, to?: number) => encoder.encode(json.slice(from, to));
  const parts = {
    head: cut(0, sensitive + 13),
    middle: cut(sensitive + 18, content),
    content: cut(content, reblog + 10),
    beforeAccount: cut(reblog + 14, account + 11),
    beforeMentions: cut(account + 12, mentions + 12),
    end: cut(mentions + 13, poll ? quote - 1 : quote),
    closesPoll: !!poll,
    tail: cut(tagged),
    length: 0,
  };
  parts.length = parts.head.length + parts.middle.length + parts.content.length + parts.beforeAccount.length + parts.beforeMentions.length + parts.end.length + parts.tail.length;
  return parts;
}

/**
 * Writes the JSON of `loaded` as `viewerId` sees it, from the parts of it and, for a reblog, of what it wraps
 * (`partsOf` gives them: rendered now or kept).
 */
export function writeStatusJson(
  out: ByteWriter,
  config: Config,
  viewerId: string | null,
  loaded: LoadedStatus,
  partsOf: (loaded: LoadedStatus) => StatusJsonParts,
): void {
  const { status, flags } = loaded;
  const parts = partsOf(loaded);
  const sensitive = status.sensitive || (loaded.author.sensitized === true && viewerId !== status.accountId);
  out.bytes(parts.head);
  out.bytes(sensitive ? TRUE : FALSE);
  out.bytes(parts.middle);
  if (flags) {
    out.bytes(FLAGS[+flags.favourited | (+flags.reblogged << 1) | (+flags.muted << 2) | (+flags.bookmarked << 3)]!);
    if (loaded.pinned !== null) out.bytes(PINNED[+loaded.pinned]!);
    if (loaded.filtered?.length) out.text(`,"filtered":${JSON.stringify(loaded.filtered.map(presentFilterResult))}`);
    else out.bytes(NO_FILTER_RESULTS);
  } else if (loaded.filtered?.length) {
    out.text(`,"filtered":${JSON.stringify(loaded.filtered.map(presentFilterResult))}`);
  }
  out.bytes(parts.content);
  if (loaded.reblog) writeStatusJson(out, config, viewerId, loaded.reblog, partsOf);
  else out.bytes(NULL);
  out.bytes(parts.beforeAccount);
  out.bytes(authorJson(config, loaded.author, viewerId !== null));
  out.bytes(parts.beforeMentions);
  out.ascii("[");
  for (let i = 0; i < loaded.mentions.length; i++) {
    if (i) out.ascii(",");
    out.bytes(mentionJson(config, loaded.mentions[i]!));
  }
  out.ascii("]");
  out.bytes(parts.end);
  const poll = loaded.poll;
  if (poll && poll.ownVotes !== null) out.ascii(`,"voted":${poll.voted},"own_votes":${JSON.stringify(poll.ownVotes)}`);
  const closed = +parts.closesPoll;
  if (loaded.quote) {
    out.bytes(QUOTE[closed]!);
    writeQuoteJson(out, config, viewerId, loaded.quote, partsOf);
  } else out.bytes(NO_QUOTE[closed]!);
  out.bytes(quoteApprovalJson(loaded.quoteApproval));
  out.bytes(parts.tail);
}

/** A status's quote as the viewer sees it: the quoted status from its own parts, like a reblog's. */
function writeQuoteJson(out: ByteWriter, config: Config, viewerId: string | null, quote: LoadedQuote, partsOf: (loaded: LoadedStatus) => StatusJsonParts): void {
  if (quote.shallow) return out.text(JSON.stringify(presentQuote(quote, () => null)));
  out.text(`{"state":${JSON.stringify(quote.state)},"quoted_status":`);
  if (quote.status) writeStatusJson(out, config, viewerId, quote.status, partsOf);
  else out.bytes(NULL);
  out.ascii("}");
}
