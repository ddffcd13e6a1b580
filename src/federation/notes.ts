// Local statuses → ActivityPub (API.md §14.4-14.5): the one place a StatusRecord becomes a Note, and a status
// or reblog the Create or Announce that carries it. Addressing follows Mastodon's table by visibility exactly:
// public: to Public, cc followers + mentioned; unlisted: to followers, cc Public + mentioned; private: to
// followers, cc mentioned; direct: to mentioned only. Statuses of remote accounts are never rendered as ours.
import type { Context } from "@fedify/fedify";
import {
  Announce, Collection, type Create, type Document, Hashtag, InteractionPolicy, InteractionRule, LanguageString, Mention, Note, PUBLIC_COLLECTION,
  type Question,
} from "@fedify/vocab";
import type { Config } from "../config.ts";
import { mediaUrl } from "../media/storage.ts";
import type { Store } from "../store/db.ts";
import { getAccount } from "../store/accounts.ts";
import { getMedia } from "../store/media.ts";
import { getPoll } from "../store/polls.ts";
import { getStatus } from "../store/statuses.ts";
import { getFollowRequest, isFollowing } from "../store/relationships.ts";
import { localAuthorizationUri } from "../domain/quotes/remote.ts";
import { emojiTags } from "./emojis.ts";
import { hashtagsAsWritten, parseStatusText } from "../domain/statuses/format.ts";
import { CompactedCreate, CompactedNote, CompactedQuestion, mastodonDocument } from "./mastodon-terms.ts";
import type { AccountRecord } from "../model/accounts.ts";
import type { PollRecord, QuoteOfStatus, StatusRecord, Visibility } from "../model/statuses.ts";

interface Addressing {
  to: URL[];
  cc: URL[];
}

/** Mastodon's to/cc for a visibility (§14.5), given the author's followers collection and the mentioned actors. */
export function addressing(visibility: Visibility, followers: URL, mentioned: URL[]): Addressing {
  switch (visibility) {
    case "public":
      return { to: [PUBLIC_COLLECTION], cc: [followers, ...mentioned] };
    case "unlisted":
      return { to: [followers], cc: [PUBLIC_COLLECTION, ...mentioned] };
    case "private":
      return { to: [followers], cc: mentioned };
    case "direct":
      return { to: mentioned, cc: [] };
  }
}

/** The accounts a status by `author` is addressed to among those it mentions, in the order it names them: all
 * that still exist, but for a silenced author only those that follow it or asked to (§14.5), as Mastodon. */
export function addressedMentions(store: Store, author: AccountRecord, mentionIds: readonly string[]): AccountRecord[] {
  const out: AccountRecord[] = [];
  for (const id of mentionIds) {
    const account = getAccount(store, id);
    if (!account) continue;
    if (author.silenced && !isFollowing(store, id, author.id) && !getFollowRequest(store, id, author.id)) continue;
    out.push(account);
  }
  return out;
}

/** The author of a local status, if it is still a local account. */
export function localAuthorOf(store: Store, status: StatusRecord): AccountRecord | null {
  if (!status.local) return null;
  const author = getAccount(store, status.accountId);
  return author && author.domain === null ? author : null;
}

const acct = (config: Config, account: AccountRecord) => `@${account.username}@${account.domain ?? config.domain}`;

const absolute = (config: Config, path: string) => new URL(mediaUrl(config, path)!);

/** Attachments as Mastodon sends them: always `Document`, whatever the media, with `blurhash` and `focalPoint`.
 * Unprocessed ones are left out. */
function documents(store: Store, config: Config, status: StatusRecord): Document[] {
  const out: Document[] = [];
  for (const id of status.mediaIds) {
    const media = getMedia(store, id);
    if (!media?.fileUrl) continue;
    const original = media.meta.original as { width?: number; height?: number } | undefined;
    out.push(
      mastodonDocument(
        {
          url: absolute(config, media.fileUrl),
          mediaType: media.contentType,
          name: media.description || null,
          width: original?.width ?? null,
          height: original?.height ?? null,
        },
        { blurhash: media.blurhash, focalPoint: media.focus ? [media.focus.x, media.focus.y] : null },
      ),
    );
  }
  return out;
}

/** A poll as Mastodon's Question carries it: its options as named Notes with their vote counts (hidden as 0
 * until the end when the author hid the totals), `oneOf` or `anyOf`, `votersCount`, `endTime`, `closed`. */
export function pollFields(poll: PollRecord, now = Date.now()) {
  const ended = poll.expiresAt !== null && poll.expiresAt <= now;
  const options = poll.options.map(
    (name, i) => new Note({ name, replies: new Collection({ totalItems: poll.hideTotals && !ended ? 0 : (poll.optionVotes[i] ?? 0) }) }),
  );
  const endTime = poll.expiresAt === null ? null : Temporal.Instant.fromEpochMilliseconds(poll.expiresAt);
  return {
    ...(poll.multiple ? { inclusiveOptions: options } : { exclusiveOptions: options }),
    voters: poll.votersCount,
    endTime,
    closed: ended ? endTime : null,
  };
}

/** The Note of a local status, or the Question of one with a poll (null for a reblog's wrapper, a remote status
 * or a deleted one). */
export function noteOf(ctx: Context<void>, store: Store, config: Config, status: StatusRecord): Note | Question | null {
  const author = localAuthorOf(store, status);
  if (!author || status.reblogOfId || status.deletedAt) return null;
  const mentioned = addressedMentions(store, author, status.mentionIds);
  const { to, cc } = addressing(status.visibility, ctx.getFollowersUri(author.username), mentioned.map((a) => new URL(a.uri)));
  const parent = status.inReplyToId ? getStatus(store, status.inReplyToId) : undefined;
  const poll = status.hasPoll ? getPoll(store, status.id) : undefined;
  // Hashtag names as the author wrote them (`#WarrenDev`); the record keeps them lower-case for timelines.
  const written = hashtagsAsWritten(parseStatusText(status.text));
  const values = {
    id: new URL(status.uri),
    url: status.url ? new URL(status.url) : null,
    attribution: new URL(author.uri),
    published: Temporal.Instant.fromEpochMilliseconds(status.createdAt),
    updated: status.editedAt ? Temporal.Instant.fromEpochMilliseconds(status.editedAt) : null,
    tos: to,
    ccs: cc,
    contents: status.language ? [status.content, new LanguageString(status.content, status.language)] : [status.content],
    summary: status.spoilerText || null,
    sensitive: status.sensitive,
    replyTarget: parent ? new URL(parent.uri) : null,
    tags: [
      ...mentioned.map((account) => new Mention({ href: new URL(account.uri), name: acct(config, account) })),
      ...status.tags.map((tag) => new Hashtag({ href: new URL(`${config.url}/tags/${encodeURIComponent(tag)}`), name: `#${written.get(tag) ?? tag}` })),
      ...emojiTags(store, config, status.spoilerText, status.text, ...(poll?.options ?? [])),
    ],
    attachments: documents(store, config, status),
    // FEP-044f (quotes.ts): quote, quoteUri/_misskey_quote, quoteAuthorization, interactionPolicy.canQuote.
    ...quoteValuesOf(store, status, author, ctx.getFollowersUri(author.username)),
  };
  return poll ? new CompactedQuestion({ ...values, ...pollFields(poll) }) : new CompactedNote(values);
}

/** The id of the Create of a status: `<status uri>/activity`. */
export const createIdOf = (status: StatusRecord) => new URL(`${status.uri}/activity`);

/** The Create of a local status, addressed as its Note is. */
export function createOf(ctx: Context<void>, store: Store, config: Config, status: StatusRecord): Create | null {
  const note = noteOf(ctx, store, config, status);
  if (!note) return null;
  return new CompactedCreate({
    id: createIdOf(status),
    actor: note.attributionId,
    published: note.published,
    tos: note.toIds,
    ccs: note.ccIds,
    object: note,
  });
}

/** The Announce of a local reblog: its id is the wrapper's uri (`…/statuses/<id>/activity`); addressed by the
 * reblog's own visibility, with the original's author added to cc (§14.5). */
export function announceOf(ctx: Context<void>, store: Store, wrapper: StatusRecord): Announce | null {
  if (!wrapper.local || !wrapper.reblogOfId || wrapper.deletedAt) return null;
  const reblogger = getAccount(store, wrapper.accountId);
  const original = getStatus(store, wrapper.reblogOfId);
  const author = original ? getAccount(store, original.accountId) : undefined;
  if (!reblogger || reblogger.domain !== null || !original || !author) return null;
  const { to, cc } = addressing(wrapper.visibility, ctx.getFollowersUri(reblogger.username), []);
  return new Announce({
    id: new URL(wrapper.uri),
    actor: new URL(reblogger.uri),
    published: Temporal.Instant.fromEpochMilliseconds(wrapper.createdAt),
    tos: to,
    ccs: [new URL(author.uri), ...cc],
    object: new URL(original.uri),
  });
}

// A Note's quote (FEP-044f; the activities about quotes are in quotes.ts)

/** The quote fields and interactionPolicy of a local status's Note. */
function quoteValuesOf(store: Store, status: StatusRecord, author: AccountRecord, followers: URL) {
  const rule =
    status.quotePolicy === "public"
      ? [PUBLIC_COLLECTION]
      : status.quotePolicy === "followers"
        ? [followers, new URL(author.uri)]
        : [new URL(author.uri)];
  const interactionPolicy = new InteractionPolicy({ canQuote: new InteractionRule({ automaticApprovals: rule }) });
  const quote = status.quote;
  const quoted = quote ? getStatus(store, quote.statusId) : undefined;
  if (!quote || !quoted || quoted.deletedAt) return { interactionPolicy };
  return { interactionPolicy, quote: new URL(quoted.uri), quoteUrl: new URL(quoted.uri), quoteAuthorization: authorizationOf(store, status, quote, quoted) };
}

/** The authorization of an accepted quote: the one its author's server gave, or ours for a local quoted status. */
function authorizationOf(store: Store, status: StatusRecord, quote: QuoteOfStatus, quoted: StatusRecord): URL | null {
  if (quote.state !== "accepted") return null;
  if (quote.authorizationUri) return new URL(quote.authorizationUri);
  const author = quoted.local ? getAccount(store, quoted.accountId) : undefined;
  return author ? new URL(localAuthorizationUri(author, status.id)) : null;
}
