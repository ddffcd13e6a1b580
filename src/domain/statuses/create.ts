// POST /api/v1/statuses: validation, formatting, and the one durable write that stores the status with its
// indexes, counters, mention notifications, idempotency key and follow-up jobs.
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId, publicId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { findAccountByAcct, getAccount, putAccount } from "../../store/accounts.ts";
import type { AccountRecord, StatusRecord, Visibility } from "../../store/records.ts";
import { adjustStatusCounter, getIdempotency, getStatus, insertStatus, putIdempotency } from "../../store/statuses.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { SERVER_LANGUAGES, statusLanguages } from "../instance/languages.ts";
import { STATUS_LIMITS } from "../limits.ts";
import { notify } from "../notifications/notify.ts";
import { assertCanReply, IN_REPLY_NOT_FOUND } from "../policy/interaction.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { onStatusCreated } from "../timelines/distribute.ts";
import { countableLength, parseStatusText, renderStatus } from "./format.ts";
import { resolveMediaIds } from "./media.ts";

export const IDEMPOTENCY_TTL_MS = 60 * 60 * 1000;
/** A timer, not an event: forgets an Idempotency-Key an hour after its status was posted. */
export const IDEMPOTENCY_EXPIRY = "status.idempotency_expired";
export type IdempotencyExpiry = { accountId: string; key: string; statusId: string };
/** Longer input is refused before it is even segmented. */
const MAX_INPUT_LENGTH = 20_000;

export interface NewStatusInput {
  status?: string;
  spoilerText?: string;
  sensitive?: boolean;
  visibility?: Visibility;
  inReplyToId?: string;
  language?: string;
  mediaIds?: string[];
  idempotencyKey?: string | null;
  /** Features clients may ask for that this server does not have yet: refused, never silently dropped. */
  scheduledAt?: string;
  poll?: unknown;
  quotedStatusId?: string;
}

/** A client that asked for a schedule, a poll or a quote must not get a plain post it did not ask for. */
function refuseUnsupported(input: NewStatusInput): void {
  if (input.scheduledAt !== undefined && input.scheduledAt.trim() !== "") {
    throw new Unprocessable("Validation failed: Scheduled posts are not supported by this server yet");
  }
  if (input.poll !== undefined) throw new Unprocessable("Validation failed: Polls are not supported by this server yet");
  if (input.quotedStatusId !== undefined && input.quotedStatusId.trim() !== "") {
    throw new Unprocessable("Validation failed: Quotes are not supported by this server yet");
  }
}

export function statusUrls(account: AccountRecord, id: string, reblog = false) {
  const uri = `${account.uri}/statuses/${publicId(id)}`;
  return { uri: reblog ? `${uri}/activity` : uri, url: `${account.url}/${publicId(id)}` };
}

/** A repeated Idempotency-Key within the hour: the first status, if it still exists. */
function idempotentHit(store: Store, accountId: string, key: string | null | undefined, now: number): StatusRecord | undefined {
  if (!key) return undefined;
  const entry = getIdempotency(store, accountId, key);
  if (!entry || now - entry.at > IDEMPOTENCY_TTL_MS) return undefined;
  const status = getStatus(store, entry.statusId);
  return status && !status.deletedAt ? status : undefined;
}

function replyParent(store: Store, viewerId: string, rawId: string | undefined): StatusRecord | null {
  if (rawId === undefined || rawId === "") return null;
  const id = normaliseId(rawId);
  if (!id) throw new NotFound(IN_REPLY_NOT_FOUND);
  let parent = getStatus(store, id);
  if (parent?.reblogOfId) parent = getStatus(store, parent.reblogOfId);
  assertCanReply(store, viewerId, parent);
  return parent;
}

function defaultVisibility(viewer: UserViewer, parent: StatusRecord | null): Visibility {
  if (parent) return parent.visibility;
  return viewer.user.privacy ?? (viewer.account.locked ? "private" : "public");
}

let knownLanguages: Set<string> | null = null;

/** A code the instance lists (GET /api/v1/instance/languages); anything else falls back, as on Mastodon. */
function language(raw: string | undefined, fallback: string | null): string {
  knownLanguages ??= new Set(statusLanguages().map((l) => l.code));
  const code = raw?.trim().toLowerCase();
  if (code && knownLanguages.has(code)) return code;
  return fallback && knownLanguages.has(fallback) ? fallback : SERVER_LANGUAGES[0]!;
}

export async function createStatus(deps: Deps, viewer: UserViewer, input: NewStatusInput): Promise<StatusRecord> {
  const { store, config } = deps;
  refuseUnsupported(input);
  const author = viewer.account;
  const now = Date.now();
  const repeated = idempotentHit(store, author.id, input.idempotencyKey, now);
  if (repeated) return repeated;

  const parent = replyParent(store, author.id, input.inReplyToId);
  const mediaIds = resolveMediaIds(store, author.id, input.mediaIds ?? []);
  let text = (input.status ?? "").trim();
  let spoilerText = (input.spoilerText ?? "").trim();
  const sensitive = (input.sensitive ?? viewer.user.sensitive) || spoilerText !== "";
  // A content warning with no body becomes the body (Mastodon does the same), still marked sensitive.
  if (text === "" && spoilerText !== "" && mediaIds.length === 0) [text, spoilerText] = [spoilerText, ""];
  if (text === "" && mediaIds.length === 0) throw new Unprocessable("Validation failed: Text can't be blank");
  const segments = text.length + spoilerText.length > MAX_INPUT_LENGTH ? null : parseStatusText(text);
  if (!segments || countableLength(spoilerText, segments) > STATUS_LIMITS.maxCharacters) {
    throw new Unprocessable(`Validation failed: Text character limit of ${STATUS_LIMITS.maxCharacters} exceeded`);
  }

  let visibility = input.visibility ?? defaultVisibility(viewer, parent);
  if (visibility === "public" && author.silenced) visibility = "unlisted";
  const formatted = renderStatus(segments, config.url, (username, domain) => {
    const local = domain === null || domain.toLowerCase() === config.domain.toLowerCase();
    const account = findAccountByAcct(store, username, local ? null : domain);
    return account && !account.suspended ? { id: account.id, username: account.username, url: account.url || account.uri } : undefined;
  });

  const id = newId(now);
  const status: StatusRecord = {
    v: 1,
    id,
    accountId: author.id,
    ...statusUrls(author, id),
    local: true,
    text,
    content: formatted.html,
    spoilerText,
    sensitive,
    visibility,
    language: language(input.language, viewer.user.language ?? null),
    inReplyToId: parent?.id ?? null,
    inReplyToAccountId: parent?.accountId ?? null,
    reblogOfId: null,
    applicationId: viewer.app.id,
    mentionIds: formatted.mentionIds,
    tags: formatted.tags,
    mediaIds,
    repliesCount: 0,
    reblogsCount: 0,
    favouritesCount: 0,
    createdAt: now,
    editedAt: null,
    deletedAt: null,
  };

  return store.write(() => {
    // Checked again inside the write: two requests racing with one key still create one status.
    const raced = idempotentHit(store, author.id, input.idempotencyKey, now);
    if (raced) return raced;
    insertStatus(store, status);
    onStatusCreated(deps, status, mediaIds.length === 0 ? formatted.firstUrl : null);
    if (parent) adjustStatusCounter(store, parent.id, "repliesCount", 1);
    const account = getAccount(store, author.id);
    if (account) {
      const counted = visibility === "direct" ? 0 : 1;
      putAccount(store, { ...account, statusesCount: account.statusesCount + counted, lastStatusAt: now });
    }
    for (const mentionedId of status.mentionIds) {
      if (canSeeStatus(store, mentionedId, status)) notify(deps, { type: "mention", recipientId: mentionedId, fromAccountId: author.id, statusId: id }, now);
    }
    if (input.idempotencyKey) {
      putIdempotency(store, author.id, input.idempotencyKey, { statusId: id, at: now });
      const expiry: IdempotencyExpiry = { accountId: author.id, key: input.idempotencyKey, statusId: id };
      deps.jobs.enqueue(IDEMPOTENCY_EXPIRY, expiry, { delayMs: IDEMPOTENCY_TTL_MS });
    }
    return status;
  });
}
