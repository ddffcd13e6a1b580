// Status entity (API.md §4.2): every key Mastodon 4.6 sends for the features Warren has. presentStatuses
// renders a page that the domain's status loader (domain/statuses/load.ts) read in one pass; it reads nothing
// itself. Counters come from the stored records.
import { presentCustomEmoji, presentRemoteEmoji } from "./custom-emoji.ts";
import { t, type Static, type TSchema } from "elysia";
import type { Config } from "../config.ts";
import { publicId } from "../lib/ids.ts";
import { AccountSchema, presentAccount, type Account } from "./account.ts";
import { presentStatusApplication, StatusApplicationSchema } from "./application.ts";
import { FilterResultSchema, presentFilterResult } from "./filter.ts";
import { Int } from "./integer.ts";
import { MediaAttachmentSchema, presentMediaAttachment } from "./media-attachment.ts";
import { MentionSchema, presentMention, type Mention } from "./mention.ts";
import { Nullable } from "./nullable.ts";
import { PollSchema, presentPoll } from "./poll.ts";
import { PreviewCardSchema, presentPreviewCard } from "./preview-card.ts";
import { presentStatusTag, StatusTagSchema } from "./tag.ts";
import { presentQuote, presentQuoteApproval, QuoteApprovalSchema, quoteSchema, ShallowQuoteSchema } from "./quote.ts";
import type { AccountRecord } from "../model/accounts.ts";
import type { LoadedStatus, LoadedStatuses } from "../domain/statuses/loaded.ts";

const VisibilitySchema = t.Union([t.Literal("public"), t.Literal("unlisted"), t.Literal("private"), t.Literal("direct")]);

const EmojiSchema = t.Object({ shortcode: t.String(), url: t.String(), static_url: t.String(), visible_in_picker: t.Boolean() });

/** The keys every status carries, without `content`/`text` and `reblog`. */
const baseProperties = {
  id: t.String(),
  created_at: t.String(),
  in_reply_to_id: Nullable(t.String()),
  in_reply_to_account_id: Nullable(t.String()),
  sensitive: t.Boolean(),
  spoiler_text: t.String(),
  visibility: VisibilitySchema,
  language: Nullable(t.String()),
  uri: t.String(),
  url: Nullable(t.String()),
  replies_count: Int(),
  reblogs_count: Int(),
  favourites_count: Int(),
  quotes_count: Int(),
  edited_at: Nullable(t.String()),
  favourited: t.Optional(t.Boolean({ description: "Signed-in viewers only" })),
  reblogged: t.Optional(t.Boolean({ description: "Signed-in viewers only" })),
  muted: t.Optional(t.Boolean({ description: "Signed-in viewers only: conversation muted" })),
  bookmarked: t.Optional(t.Boolean({ description: "Signed-in viewers only" })),
  pinned: t.Optional(t.Boolean({ description: "Only for the author's own pinnable statuses" })),
  filtered: t.Optional(
    t.Array(FilterResultSchema, { description: "Signed-in viewers only: your filters that match it in this context (docs/filters.md)" }),
  ),
  application: t.Optional(Nullable(StatusApplicationSchema)),
  account: AccountSchema,
  media_attachments: t.Array(MediaAttachmentSchema, { description: "In the author's order" }),
  mentions: t.Array(MentionSchema),
  tags: t.Array(StatusTagSchema),
  emojis: t.Array(EmojiSchema),
  card: Nullable(PreviewCardSchema),
  poll: Nullable(PollSchema),
  quote_approval: QuoteApprovalSchema,
  tagged_collections: t.Array(t.Unknown()),
};

const withContent = <R extends TSchema, Q extends TSchema>(reblog: R, quote: Q, description: string) =>
  t.Object({ ...baseProperties, content: t.String({ description: "HTML" }), reblog, quote: Nullable(quote) }, { description });
const withText = <R extends TSchema, Q extends TSchema>(reblog: R, quote: Q, description: string) =>
  t.Object({ ...baseProperties, text: t.String({ description: "Source text" }), reblog, quote: Nullable(quote) }, { description });

/** What a status quotes; the quoted status's own quote is shallow (its id only). */
const StatusQuoteSchema = quoteSchema(withContent(t.Null(), ShallowQuoteSchema, "The quoted Status"));
const DeletedStatusQuoteSchema = quoteSchema(withText(t.Null(), ShallowQuoteSchema, "The quoted Status, with its source text"));

export const StatusSchema = withContent(Nullable(withContent(t.Null(), StatusQuoteSchema, "The reblogged Status")), StatusQuoteSchema, "Mastodon Status");
/** DELETE /api/v1/statuses/:id: the deleted status with `text` (its source) instead of `content`. */
export const DeletedStatusSchema = withText(
  Nullable(withText(t.Null(), DeletedStatusQuoteSchema, "The reblogged Status, with its source text")),
  DeletedStatusQuoteSchema,
  "Deleted Status with its source text",
);

export type Status = Static<typeof StatusSchema>;
export type DeletedStatus = Static<typeof DeletedStatusSchema>;
export type AnyStatus = Record<string, unknown>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

interface PresentedPerson {
  signedIn?: Account;
  anonymous?: Account;
  mention?: Mention;
  /** The same as UTF-8 JSON (status-json.ts) */
  signedInJson?: Uint8Array;
  anonymousJson?: Uint8Array;
  mentionJson?: Uint8Array;
}

/**
 * What an account record was rendered as, by record object: the loader hands out one object per account
 * while the account is unchanged (accounts/read.ts cachedAccount), so a page (and the pages after it) does
 * not present the same author again. Kept per config (the URLs depend on it). Shared objects: nothing may
 * modify them after presentation. Needs no invalidation (tier "presented accounts" of domain/caches/index.ts):
 * the rendering depends on the record and the config alone, records are never mutated once read, and a
 * changed account is always a new record object, so an entry is never stale and goes with its record.
 */
const presentedPeople = new WeakMap<Config, WeakMap<AccountRecord, PresentedPerson>>();

function personOf(config: Config, record: AccountRecord): PresentedPerson {
  let byRecord = presentedPeople.get(config);
  if (!byRecord) presentedPeople.set(config, (byRecord = new WeakMap()));
  let person = byRecord.get(record);
  if (!person) byRecord.set(record, (person = {}));
  return person;
}

/** The Account entity; its only viewer-dependent part (feature_approval) depends on being signed in. */
function author(config: Config, record: AccountRecord, viewerId: string | null): Account {
  const person = personOf(config, record);
  if (viewerId) return (person.signedIn ??= presentAccount(config, record, viewerId));
  return (person.anonymous ??= presentAccount(config, record, null));
}

function mention(config: Config, record: AccountRecord): Mention {
  const person = personOf(config, record);
  return (person.mention ??= presentMention(record));
}

/** Stands for any signed-in viewer who is not the author, where only being signed in matters. */
export const SOME_VIEWER = "\0signed-in";

const encoder = new TextEncoder();

/** The author's Account as UTF-8 JSON, for a signed-in or an anonymous viewer. */
export function authorJson(config: Config, record: AccountRecord, signedIn: boolean): Uint8Array {
  const person = personOf(config, record);
  // Any signed-in viewer renders the same Account here (see `author`): a local viewer is never a remote author.
  if (signedIn) return (person.signedInJson ??= encoder.encode(JSON.stringify(author(config, record, SOME_VIEWER))));
  return (person.anonymousJson ??= encoder.encode(JSON.stringify(author(config, record, null))));
}

/** A Mention as UTF-8 JSON. */
export function mentionJson(config: Config, record: AccountRecord): Uint8Array {
  const person = personOf(config, record);
  return (person.mentionJson ??= encoder.encode(JSON.stringify(mention(config, record))));
}

/** A Status as an object (`source`: the DELETE answer's `text` instead of `content`). */
export function statusObject(config: Config, viewerId: string | null, loaded: LoadedStatus, source: boolean): AnyStatus {
  const { status, flags } = loaded;
  const out: AnyStatus = {
    id: publicId(status.id),
    created_at: new Date(status.createdAt).toISOString(),
    in_reply_to_id: status.inReplyToId ? publicId(status.inReplyToId) : null,
    in_reply_to_account_id: status.inReplyToAccountId ? publicId(status.inReplyToAccountId) : null,
    // Staff may force an author's media sensitive for everyone else (Account#sensitized, domain/admin).
    sensitive: status.sensitive || (loaded.author.sensitized === true && viewerId !== status.accountId),
    spoiler_text: status.spoilerText,
    visibility: status.visibility,
    language: status.language,
    uri: status.uri,
    url: status.url,
    replies_count: status.repliesCount,
    reblogs_count: status.reblogsCount,
    favourites_count: status.favouritesCount,
    quotes_count: status.quotesCount ?? 0,
    edited_at: iso(status.editedAt),
  };
  if (flags) {
    out.favourited = flags.favourited;
    out.reblogged = flags.reblogged;
    out.muted = flags.muted;
    out.bookmarked = flags.bookmarked;
    if (loaded.pinned !== null) out.pinned = loaded.pinned;
    out.filtered = loaded.filtered ? loaded.filtered.map(presentFilterResult) : [];
  } else if (loaded.filtered?.length) {
    // An anonymous rendering for one account (a public stream): only its filters' results.
    out.filtered = loaded.filtered.map(presentFilterResult);
  }
  if (source) out.text = status.text;
  else out.content = status.content;
  out.reblog = loaded.reblog ? statusObject(config, viewerId, loaded.reblog, source) : null;
  if (status.local) out.application = loaded.application ? presentStatusApplication(loaded.application) : null;
  out.account = author(config, loaded.author, viewerId);
  out.media_attachments = loaded.media.map((media) => presentMediaAttachment(config, media));
  out.mentions = loaded.mentions.map((record) => mention(config, record));
  out.tags = status.tags.map((name) => presentStatusTag(config, name));
  out.emojis = [
    ...loaded.emojis.map((emoji) => {
      const { shortcode, url, static_url, visible_in_picker } = presentCustomEmoji(config, emoji);
      return { shortcode, url, static_url, visible_in_picker };
    }),
    // Another server's emojis, as its Note tagged them (federation/note-emojis.ts), or their copies here.
    ...loaded.remoteEmojis.map((emoji) => presentRemoteEmoji(config, emoji)),
  ];
  out.card = loaded.card ? presentPreviewCard(config, loaded.card, viewerId !== null) : null;
  out.poll = loaded.poll ? presentPoll(loaded.poll) : null;
  out.quote = loaded.quote ? presentQuote(loaded.quote, (quoted) => statusObject(config, viewerId, quoted, source)) : null;
  out.quote_approval = presentQuoteApproval(loaded.quoteApproval);
  out.tagged_collections = [];
  return out;
}

/** A page of statuses; reblog wrappers carry the status they wrap. */
export function presentStatuses(config: Config, page: LoadedStatuses): Status[] {
  return page.statuses.map((loaded) => statusObject(config, page.viewerId, loaded, false)) as Status[];
}

/** A page of one status; the loader leaves out a status whose author is gone. */
export function presentStatus(config: Config, page: LoadedStatuses): Status {
  const [presented] = presentStatuses(config, page);
  if (!presented) throw new Error("the status has no author");
  return presented;
}

/** DELETE's response: `text` (the source) instead of `content`. */
export function presentDeletedStatus(config: Config, page: LoadedStatuses): DeletedStatus {
  const [loaded] = page.statuses;
  if (!loaded) throw new Error("the status has no author");
  return statusObject(config, page.viewerId, loaded, true) as unknown as DeletedStatus;
}
