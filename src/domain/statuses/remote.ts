// Statuses from other servers (src/federation/inbound-notes.ts parses and checks them first): stored through
// the same StatusRecord factory as posting, in one write with their attachments (remote files, referenced),
// the parent's reply count, the author's counters, mention notifications and `status.created` (origin
// "remote"), whose subscribers do the rest as for a local post: home fan-out, hashtag history, search, streams.
// Edits (an author's Update) are remote-edit.ts's; a Delete leaves a tombstone (store/status-tombstones.ts).
import type { Deps } from "../../deps.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import { getAccount, putAccount } from "../../store/accounts.ts";
import { putMedia } from "../../store/media.ts";
import { statusTombstone } from "../../store/status-tombstones.ts";
import { adjustStatusCounter, getStatus, insertStatus, remoteStatusIdByUri } from "../../store/statuses.ts";
import { notify } from "../notifications/notify.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { onStatusCreated } from "../timelines/distribute.ts";
import { newStatusRecord } from "./record.ts";
import { recordIncomingQuote } from "../quotes/remote.ts";
import { putRemotePoll, type RemotePoll } from "../polls/remote.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { MediaType, RemoteEmoji } from "../../model/media.ts";
import type { QuoteOfStatus, QuotePolicy, StatusRecord, Visibility } from "../../model/statuses.ts";

export interface RemoteAttachment {
  type: MediaType;
  url: string;
  contentType: string | null;
  description: string | null;
  width: number | null;
  height: number | null;
  blurhash: string | null;
  focus: { x: number; y: number } | null;
}

/** A status as another server describes it, already validated and sanitised. */
export interface RemoteStatusDraft {
  uri: string;
  url: string | null;
  content: string;
  spoilerText: string;
  sensitive: boolean;
  language: string | null;
  visibility: Visibility;
  createdAt: number;
  parent: StatusRecord | null;
  /** The `inReplyTo` it names, kept on the status while `parent` is unknown. */
  inReplyToUri?: string | null;
  /** Local and known remote accounts it mentions or addresses. */
  mentionIds: string[];
  tags: string[];
  attachments: RemoteAttachment[];
  /** The custom emojis its texts use (federation/note-emojis.ts). */
  emojis: RemoteEmoji[];
  /** A Question's poll (federation/note-poll.ts). */
  poll: RemotePoll | null;
  /** What it quotes, in the state it starts in (domain/quotes/remote.ts). */
  quote?: QuoteOfStatus | null;
  /** Who may quote it, from its interactionPolicy (absent: nobody but its author). */
  quotePolicy?: QuotePolicy;
}

/** Our status URIs: `<actor>/statuses/<id>` (record.ts). */
const LOCAL_STATUS_PATH = /^\/users\/[^/]+\/statuses\/(\d{1,30})$/;

/** The stored status (or reblog) an ActivityPub id names: one of ours by its path, another server's by the index. */
export function statusByUri(deps: Pick<Deps, "store" | "config">, uri: string): StatusRecord | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.origin === new URL(deps.config.url).origin) {
    const id = normaliseId(LOCAL_STATUS_PATH.exec(url.pathname)?.[1]);
    const status = id ? getStatus(deps.store, id) : undefined;
    return status?.local && status.uri === url.href ? status : undefined;
  }
  const id = remoteStatusIdByUri(deps.store, url.href);
  return id ? getStatus(deps.store, id) : undefined;
}

/** Inside a write: the attachments as media records of `statusId` (remote files, referenced until fetched). */
export function putRemoteMedia(deps: Pick<Deps, "store">, accountId: string, statusId: string, attachments: RemoteAttachment[], now: number): string[] {
  return attachments.map((a) => {
    const mediaId = newId(now);
    putMedia(deps.store, {
      v: 1, id: mediaId, accountId, type: a.type, state: "ready", fileUrl: null, previewUrl: null, thumbnailUrl: null,
      pendingFile: null, contentType: a.contentType, fileSize: 0, meta: mediaMeta(a), focus: a.focus, description: a.description,
      blurhash: a.blurhash, error: null, statusId, unattachedSince: null, createdAt: now, remoteUrl: a.url,
    });
    return mediaId;
  });
}

function mediaMeta(a: RemoteAttachment): Record<string, unknown> {
  if (!a.width || !a.height) return {};
  return { original: { width: a.width, height: a.height, size: `${a.width}x${a.height}`, aspect: a.width / a.height } };
}

/** Stores a remote author's status once: a second call with the same uri returns the first, writing nothing;
 * a status whose author deleted it (a tombstone stands, store/status-tombstones.ts) is refused: null. */
export async function storeRemoteStatus(deps: Deps, author: AccountRecord, draft: RemoteStatusDraft): Promise<StatusRecord | null> {
  const { store } = deps;
  return store.write(() => {
    const existing = statusByUri(deps, draft.uri);
    if (existing) return existing;
    if (statusTombstone(store, draft.uri) !== null) return null;
    const now = Date.now();
    // Minted now, not at `published`: timelines keep the order statuses arrived in, and a backdated one cannot
    // be slipped in under a page already read.
    const id = newId(now);
    const mediaIds = putRemoteMedia(deps, author.id, id, draft.attachments, now);
    const parent = draft.parent ? getStatus(store, draft.parent.id) : undefined;
    let status = newStatusRecord({
      id,
      author,
      visibility: draft.visibility,
      createdAt: draft.createdAt,
      uri: draft.uri,
      url: draft.url,
      content: draft.content,
      spoilerText: draft.spoilerText,
      sensitive: draft.sensitive,
      language: draft.language,
      inReplyTo: parent && !parent.deletedAt ? parent : null,
      mentionIds: draft.mentionIds,
      tags: draft.tags,
      mediaIds,
      quote: draft.quote ?? null,
      quotePolicy: draft.quotePolicy,
      hasPoll: !!draft.poll,
    });
    if (draft.emojis.length > 0) status.emojis = draft.emojis;
    if (!status.inReplyToId && draft.inReplyToUri && !parent) status = { ...status, inReplyToUri: draft.inReplyToUri };
    insertStatus(store, status);
    if (draft.poll) putRemotePoll(deps, id, draft.poll, now);
    status = recordIncomingQuote(deps, status, now);
    onStatusCreated(deps, status, null, "remote");
    if (status.inReplyToId) adjustStatusCounter(store, status.inReplyToId, "repliesCount", 1);
    const account = getAccount(store, author.id);
    if (account && status.visibility !== "direct") {
      putAccount(store, { ...account, statusesCount: account.statusesCount + 1, lastStatusAt: Math.max(account.lastStatusAt ?? 0, draft.createdAt) });
    }
    for (const mentionedId of status.mentionIds) {
      if (canSeeStatus(store, mentionedId, status)) notify(deps, { type: "mention", recipientId: mentionedId, fromAccountId: author.id, statusId: id }, now);
    }
    return status;
  });
}
