// Incoming statuses (docs/federation.md, "Statuses (incoming)"): a Create of a Note (an Article or a Question is
// read as a Note, without its poll for now) becomes a remote status through domain/statuses/remote.ts. What
// another server sends is hostile until checked: the object must be on the signer's origin and attributed to
// the signer, addressed to someone, and of bounded size; its HTML is reduced to Mastodon's tags; its tags and
// attachments are read only as embedded (never fetched). It is kept only when someone here cares (Mastodon's
// rule): the author is followed from here, a local account is mentioned or addressed, or it replies to a
// status by a local account or one followed from here; the parent of a reply to an unknown status is fetched.
// A Create replayed with the same Note id stores nothing. Quotes (FEP-044f) are read by quotes.ts.
import { Article, Audio, Create, Document, Hashtag, Image, Link, Mention, Note, Question, Video } from "@fedify/vocab";
import type { Context, InboxContext } from "@fedify/fedify";
import type { DocumentLoader } from "@fedify/vocab-runtime";
import { plainText, sanitizeHtml } from "../lib/sanitize.ts";
import { findAccountByUri, getAccount } from "../store/accounts.ts";
import type { MediaType } from "../store/media.ts";
import type { AccountRecord, Visibility } from "../store/records.ts";
import { followerIdsOf } from "../store/relationships.ts";
import { statusByUri, storeRemoteStatus, type RemoteAttachment, type RemoteStatusDraft } from "../domain/statuses/remote.ts";
import type { FederationDeps } from "./index.ts";
import { localAccountOf, remoteSender } from "./follows.ts";
import { fetchStatus } from "./threads.ts";
import { readQuote, readQuotePolicy } from "./quotes.ts";
import { getStatus } from "../store/statuses.ts";

export const NOTE_LIMITS = {
  /** Characters of HTML; a longer Note is refused (Mastodon keeps 500 characters of text, but others differ). */
  content: 100_000,
  summary: 5_000,
  /** Tags and to/cc entries read; the rest is ignored. */
  tags: 100,
  addresses: 200,
  attachments: 16,
  /** Ids and URLs longer than this are refused (they are index keys). */
  uri: 1_000,
  description: 1_500,
} as const;

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
const TAG_NAME = /^[\p{L}\p{N}_·]*[\p{L}_·][\p{L}\p{N}_·]*$/u;

export type NoteLike = Note | Article | Question;
export const isNoteLike = (object: unknown): object is NoteLike => object instanceof Note || object instanceof Article || object instanceof Question;

/** Only what a Note embeds is read: its tags and attachments are never fetched. */
const embeddedOnly: DocumentLoader = async (url) => {
  throw new Error(`not fetched: ${url}`);
};
const readOptions = { documentLoader: embeddedOnly, suppressError: true } as const;

/** `Public`, `as:Public` and the full IRI all mean public (API.md §14.5); a bare `Public` arrives resolved
 * against the document's id. */
export function isPublic(url: URL): boolean {
  return url.href === PUBLIC || (url.pathname.endsWith("/Public") && !url.search && !url.hash);
}

export const sameOrigin = (a: URL | string, b: URL | string): boolean => new URL(a).origin === new URL(b).origin;

function httpUrl(value: URL | Link | null | undefined): string | null {
  const url = value instanceof Link ? value.href : value;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.href.length > NOTE_LIMITS.uri) return null;
  return url.href;
}

function visibilityOf(to: URL[], cc: URL[], author: AccountRecord): Visibility {
  if (to.some(isPublic)) return "public";
  if (cc.some(isPublic)) return "unlisted";
  if (author.followersUrl && [...to, ...cc].some((url) => url.href === author.followersUrl)) return "private";
  return "direct";
}

function mediaType(attachment: Document | Image | Video | Audio, contentType: string | null): MediaType | null {
  const kind = contentType?.split("/")[0];
  if (kind === "image" || kind === "video" || kind === "audio") return kind;
  if (attachment instanceof Image) return "image";
  if (attachment instanceof Video) return "video";
  if (attachment instanceof Audio) return "audio";
  return null;
}

async function attachmentsOf(note: NoteLike): Promise<RemoteAttachment[]> {
  const out: RemoteAttachment[] = [];
  for await (const item of note.getAttachments(readOptions)) {
    if (out.length >= NOTE_LIMITS.attachments) break;
    if (!(item instanceof Document || item instanceof Image || item instanceof Video || item instanceof Audio)) continue;
    const url = httpUrl(item.url as URL | Link | null);
    const contentType = item.mediaType ?? (item.url instanceof Link ? item.url.mediaType : null);
    const type = mediaType(item, contentType);
    if (!url || !type) continue;
    const description = item.name ? plainText(item.name.toString()).slice(0, NOTE_LIMITS.description) : null;
    const dimension = (n: number | null) => (n !== null && Number.isSafeInteger(n) && n > 0 ? n : null);
    out.push({ type, url, contentType: contentType?.slice(0, 255) ?? null, description, width: dimension(item.width), height: dimension(item.height) });
  }
  return out;
}

/** The language of the first `contentMap` entry, if it names one. */
function languageOf(note: NoteLike): string | null {
  for (const value of note.contents) {
    if (typeof value === "string") continue;
    const code = value.locale.language.toLowerCase();
    if (/^[a-z]{2,3}$/.test(code)) return code;
  }
  return null;
}

/**
 * A Note as a status draft of `author`, or null when it must be refused: not on the author's origin, not
 * attributed to the author, addressed to nobody, too long. The parent is linked when it is stored already.
 */
export async function noteDraft(
  deps: FederationDeps,
  ctx: Context<void>,
  note: NoteLike,
  author: AccountRecord,
  { fetchQuoted = false } = {},
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
  let read = 0;
  for await (const tag of note.getTags(readOptions)) {
    if (++read > NOTE_LIMITS.tags) break;
    if (tag instanceof Mention && tag.href) {
      const account = localAccountOf(ctx, deps, tag.href) ?? findAccountByUri(deps.store, tag.href.href);
      if (account && !account.suspended) mentionIds.add(account.id);
    } else if (tag instanceof Hashtag && tag.name) {
      const name = tag.name.toString().replace(/^#/, "").toLowerCase();
      if (name.length <= 200 && TAG_NAME.test(name)) tags.add(name);
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
  return {
    uri: id.href,
    url: httpUrl(note.url as URL | Link | null) ?? id.href,
    content: sanitizeHtml(rawContent),
    spoilerText: summary,
    sensitive: (note.sensitive ?? false) || summary !== "",
    language: languageOf(note),
    visibility: visibilityOf(to, cc, author),
    // Never in the future (it would stay on top of every timeline); never before the epoch of our ids.
    createdAt: Math.min(Math.max(published, 0), now),
    parent: parent && !parent.reblogOfId ? parent : null,
    mentionIds: [...mentionIds].filter((mentionId) => mentionId !== author.id),
    tags: [...tags].slice(0, NOTE_LIMITS.tags),
    attachments: await attachmentsOf(note),
    // FEP-044f (quotes.ts): what it quotes, and who may quote it.
    quote: await readQuote(deps, ctx, note, author, fetchQuoted),
    quotePolicy: readQuotePolicy(note, author),
  };
}

/** Is this account followed from here? (Remote accounts' followers rows are all local accounts.) */
export function followedFromHere(deps: FederationDeps, accountId: string): boolean {
  return !followerIdsOf(deps.store, accountId)[Symbol.iterator]().next().done;
}

/** Mastodon's rule for unsolicited statuses: kept when it concerns someone here. */
function concernsUs(deps: FederationDeps, author: AccountRecord, draft: RemoteStatusDraft): boolean {
  if (draft.mentionIds.some((id) => getAccount(deps.store, id)?.domain === null) || followedFromHere(deps, author.id)) return true;
  const parent = draft.parent;
  // A quote of a local status concerns its author (Mastodon keeps it too).
  if (draft.quote && getStatus(deps.store, draft.quote.statusId)?.local) return true;
  return !!parent && (parent.local || followedFromHere(deps, parent.accountId));
}

export async function onCreate(deps: FederationDeps, ctx: InboxContext<void>, activity: Create): Promise<void> {
  const objectId = activity.objectId;
  const author = await remoteSender(deps, activity.actorId);
  // The object must be the signer's: on its origin (checked before anything is fetched) and attributed to it.
  if (!author || !objectId || !sameOrigin(objectId, author.uri)) return;
  const note = await activity.getObject({ crossOrigin: "throw" }).catch(() => null);
  if (!isNoteLike(note)) return;
  if (statusByUri(deps, note.id?.href ?? "")) return;
  const draft = await noteDraft(deps, ctx, note, author, { fetchQuoted: true });
  if (!draft || statusByUri(deps, draft.uri)) return;
  if (!concernsUs(deps, author, draft)) return;
  // A reply to a status not seen yet: the parent is fetched (threads.ts), so the reply joins its thread. Only
  // the parent: each fetch may take two 10 s requests (Note, author), and the inbox job has a minute.
  if (!draft.parent && note.replyTargetId) draft.parent = await fetchStatus(deps, note.replyTargetId, 0);
  await storeRemoteStatus(deps, author, draft);
}
