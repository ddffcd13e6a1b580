// A Note another server sends, read as a remote status draft (docs/federation.md, "Statuses (incoming)"): its
// HTML reduced to Mastodon's tags, its tags and attachments read only as embedded (never fetched), its
// addressing as a visibility, its quote (FEP-044f) through quotes-in.ts.
import { Emoji, Hashtag, Link, Mention } from "@fedify/vocab";
import type { Context } from "@fedify/fedify";
import { plainText, sanitizeHtml } from "../lib/sanitize.ts";
import { findAccountByUri } from "../store/accounts.ts";
import { statusByUri, type RemoteStatusDraft } from "../domain/statuses/remote.ts";
import type { FederationDeps } from "./context.ts";
import { localAccountOf } from "./inbound-accounts.ts";
import { NOTE_LIMITS, sameOrigin, type NoteLike } from "./note-checks.ts";
import { attachmentsOf, httpUrl, readOptions } from "./note-attachments.ts";
import { emojisUsed } from "./note-emojis.ts";
import { pollOf } from "./note-poll.ts";
import { readQuote, readQuotePolicy, type QuotedFetcher } from "./quotes-in.ts";
import { createdAtOf, hashtagName, languageOf, visibilityOf } from "./note-fields.ts";
import type { AccountRecord } from "../model/accounts.ts";

/**
 * A Note as a status draft of `author`, or null when it must be refused: not on the author's origin, not
 * attributed to the author, addressed to nobody, too long. The parent is linked when it is stored already.
 */
export async function noteDraft(
  deps: FederationDeps,
  ctx: Context<void>,
  note: NoteLike,
  author: AccountRecord,
  { fetchQuoted = null, raw = null }: { fetchQuoted?: QuotedFetcher | null; raw?: Record<string, unknown> | null } = {},
): Promise<RemoteStatusDraft | null> {
  const id = note.id;
  if (!id || id.href.length > NOTE_LIMITS.uri || !sameOrigin(id, author.uri)) return null;
  if (note.attributionIds.length !== 1 || note.attributionId?.href !== author.uri) return null;
  const to = note.toIds.slice(0, NOTE_LIMITS.addresses);
  const cc = note.ccIds.slice(0, NOTE_LIMITS.addresses);
  if (to.length + cc.length === 0) return null;
  const rawContent = note.contents[0]?.toString() ?? "";
  const rawSummary = note.summary?.toString() ?? "";
  if (rawContent.length > NOTE_LIMITS.content || rawSummary.length > NOTE_LIMITS.summary) return null;

  const mentionIds = new Set<string>();
  const tags = new Set<string>();
  const emojiTags: Emoji[] = [];
  let read = 0;
  for await (const tag of note.getTags(readOptions)) {
    if (++read > NOTE_LIMITS.tags) break;
    if (tag instanceof Mention && tag.href) {
      const account = localAccountOf(ctx, deps, tag.href) ?? findAccountByUri(deps.store, tag.href.href);
      if (account && !account.suspended) mentionIds.add(account.id);
    } else if (tag instanceof Hashtag && tag.name) {
      const name = hashtagName(tag.name.toString());
      if (name) tags.add(name);
    } else if (tag instanceof Emoji) {
      emojiTags.push(tag);
    }
  }
  // Local accounts addressed without a Mention tag are silent mentions (Mastodon's): they may see it.
  for (const address of [...to, ...cc]) {
    const account = localAccountOf(ctx, deps, address);
    if (account) mentionIds.add(account.id);
  }

  const now = Date.now();
  const published = note.published ? Number(note.published.epochMilliseconds) : now;
  const parentUri = note.replyTargetId;
  const parent = parentUri ? (statusByUri(deps, parentUri.href) ?? null) : null;
  const summary = plainText(rawSummary).trim();
  const poll = await pollOf(note);
  return {
    uri: id.href,
    url: httpUrl(note.url as URL | Link | null) ?? id.href,
    content: sanitizeHtml(rawContent),
    spoilerText: summary,
    sensitive: (note.sensitive ?? false) || summary !== "",
    language: languageOf(note),
    visibility: visibilityOf(to, cc, author),
    createdAt: createdAtOf(published, now),
    parent: parent && !parent.reblogOfId ? parent : null,
    mentionIds: [...mentionIds].filter((mentionId) => mentionId !== author.id),
    tags: [...tags].slice(0, NOTE_LIMITS.tags),
    attachments: await attachmentsOf(note, raw),
    emojis: await emojisUsed(emojiTags, [rawContent, rawSummary, ...(poll?.options ?? [])]),
    poll,
    // FEP-044f (quotes-in.ts): what it quotes, and who may quote it.
    quote: await readQuote(deps, ctx, note, author, fetchQuoted),
    quotePolicy: readQuotePolicy(note, author),
  };
}
