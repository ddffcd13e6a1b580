// POST /api/v1/statuses: validation, formatting, and the one durable write that stores the status with its
// indexes, counters, mention notifications, idempotency key and follow-up jobs.
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { findAccountByAcct, getAccount, putAccount } from "../../store/accounts.ts";
import { adjustStatusCounter, getIdempotency, getStatus, insertStatus, putIdempotency } from "../../store/statuses.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { SERVER_LANGUAGES, statusLanguages } from "../instance/languages.ts";
import { STATUS_LIMITS } from "../limits.ts";
import { notify } from "../notifications/notify.ts";
import { assertCanReply, IN_REPLY_NOT_FOUND } from "../policy/interaction.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { onStatusCreated } from "../timelines/distribute.ts";
import { countableLength, parseStatusText, renderStatus } from "./format.ts";
import { attachMedia, resolveMediaIds } from "../media/attach.ts";
import { newStatusRecord } from "./record.ts";
import { pollDraft, type PollDraft, type PollInput } from "../polls/input.ts";
import { startPoll } from "../polls/poll.ts";
import { checkDirectQuote, newQuoteState, quotableStatus, quotingVisibility, recordQuote, withQuoteFallback } from "../quotes/attach.ts";
import { policyFor } from "../quotes/policy.ts";
import { IDEMPOTENCY_EXPIRY } from "../job-names.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { QuotePolicy, StatusRecord, Visibility } from "../../model/statuses.ts";

export const IDEMPOTENCY_TTL_MS = 60 * 60 * 1000;
/** The payload of the IDEMPOTENCY_EXPIRY timer (a timer, not an event). */
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
  poll?: PollInput;
  /** Account ids the text may mention; a mention of anyone else refuses the post (UnexpectedMentions). */
  allowedMentions?: string[];
  /** The status to quote (docs/statuses.md#quotes); blank: none. */
  quotedStatusId?: string;
  /** Who may quote this one; default: the user's source[quote_policy]. */
  quoteApprovalPolicy?: QuotePolicy;
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

let knownLanguages: Set<string> | null = null;

/** A code the instance lists (GET /api/v1/instance/languages); anything else falls back, as on Mastodon. */
export function language(raw: string | undefined, fallback: string | null): string {
  knownLanguages ??= new Set(statusLanguages().map((l) => l.code));
  const code = raw?.trim().toLowerCase();
  if (code && knownLanguages.has(code)) return code;
  return fallback && knownLanguages.has(fallback) ? fallback : SERVER_LANGUAGES[0]!;
}

/** What the author wants posted, with every default already applied: the core needs no token, no app and no
 * user preferences, so the API and (with federation) the inbox post through it alike. */
export interface StatusDraft {
  text: string;
  spoilerText: string;
  /** Media marked sensitive (a content warning makes it so in any case). */
  sensitive: boolean;
  visibility: Visibility;
  language: string | null;
  parent: StatusRecord | null;
  mediaIds: string[];
  applicationId: string | null;
  idempotencyKey?: string | null;
  poll?: PollDraft | null;
  /** The only accounts the text may mention (allowed_mentions[]); null: any. */
  allowedMentionIds?: string[] | null;
  /** The status it quotes, checked quotable by its author (domain/quotes/attach.ts). */
  quoted?: StatusRecord | null;
  /** Who may quote it (public, followers, nobody; a private or direct status keeps nobody); default public. */
  quotePolicy?: QuotePolicy;
  /** Runs inside the status's write, which a throw rolls back (publishing consumes its scheduled status there). */
  inWrite?: (status: StatusRecord) => void;
}

/** The text mentions accounts the client did not allow (allowed_mentions[]): Mastodon's 422 listing them. */
export class UnexpectedMentions extends Unprocessable {
  constructor(readonly accounts: AccountRecord[]) {
    super("Post would be sent to unexpected accounts");
  }
}

/** Throws UnexpectedMentions when `mentionIds` go beyond `allowedIds` (null: anything is allowed). */
export function checkAllowedMentions(store: Store, mentionIds: readonly string[], allowedIds: readonly string[] | null | undefined): void {
  if (!allowedIds) return;
  const unexpected = mentionIds.filter((id) => !allowedIds.includes(id));
  if (unexpected.length > 0) throw new UnexpectedMentions(unexpected.flatMap((id) => getAccount(store, id) ?? []));
}

/** A poll and attachments exclude each other (Mastodon's API documentation; its clients offer one or the other). */
function newPoll(input: NewStatusInput): PollDraft | null {
  if (input.poll === undefined) return null;
  if ((input.mediaIds ?? []).length > 0) throw new Unprocessable("Validation failed: A post cannot have both a poll and media attachments");
  return pollDraft(input.poll);
}

/** POST /api/v1/statuses: the token holder's preferences and app fill in what the client left out. */
export async function createStatus(deps: Deps, viewer: UserViewer, input: NewStatusInput): Promise<StatusRecord> {
  const repeated = idempotentHit(deps.store, viewer.account.id, input.idempotencyKey, Date.now());
  if (repeated) return repeated;
  return postStatus(deps, viewer.account, statusDraft(deps, viewer, input));
}

/** The post a client asks for, checked (422, 404 for the reply's parent) and with the user's defaults applied. */
export function statusDraft(deps: Deps, viewer: UserViewer, input: NewStatusInput): StatusDraft {
  const { store } = deps;
  const author = viewer.account;
  const parent = replyParent(store, author.id, input.inReplyToId);
  const quoted = input.quotedStatusId?.trim() ? quotableStatus(store, author.id, input.quotedStatusId) : null;
  const poll = newPoll(input);
  return {
    text: input.status ?? "",
    spoilerText: input.spoilerText ?? "",
    sensitive: input.sensitive ?? viewer.user.sensitive ?? false,
    visibility: input.visibility ?? (parent ? parent.visibility : (viewer.user.privacy ?? (author.locked ? "private" : "public"))),
    language: language(input.language, viewer.user.language ?? null),
    parent,
    mediaIds: resolveMediaIds(store, author.id, input.mediaIds ?? []),
    applicationId: viewer.app.id,
    idempotencyKey: input.idempotencyKey,
    poll,
    allowedMentionIds: input.allowedMentions?.map((raw) => normaliseId(raw) ?? raw) ?? null,
    quoted,
    quotePolicy: input.quoteApprovalPolicy ?? viewer.user.quotePolicy ?? "public",
  };
}

/**
 * The text and content warning as posted (or edited): trimmed, a lone warning moved into the body, 422 when
 * blank without attachments or a poll, or past the length limit; then rendered to HTML with its mentions.
 */
export function composeText(deps: Pick<Deps, "store" | "config">, rawText: string, rawSpoiler: string, hasAttachments: boolean) {
  const { store, config } = deps;
  let text = rawText.trim();
  let spoilerText = rawSpoiler.trim();
  // A content warning with no body becomes the body (Mastodon does the same), still marked sensitive.
  if (text === "" && spoilerText !== "" && !hasAttachments) [text, spoilerText] = [spoilerText, ""];
  if (text === "" && !hasAttachments) throw new Unprocessable("Validation failed: Text can't be blank");
  const segments = text.length + spoilerText.length > MAX_INPUT_LENGTH ? null : parseStatusText(text);
  if (!segments || countableLength(spoilerText, segments) > STATUS_LIMITS.maxCharacters) {
    throw new Unprocessable(`Validation failed: Text character limit of ${STATUS_LIMITS.maxCharacters} exceeded`);
  }
  const formatted = renderStatus(segments, config.url, (username, domain) => {
    const local = domain === null || domain.toLowerCase() === config.domain.toLowerCase();
    const account = findAccountByAcct(store, username, local ? null : domain);
    return account && !account.suspended ? { id: account.id, username: account.username, url: account.url || account.uri } : undefined;
  });
  return { text, spoilerText, formatted };
}

/** The core of posting, for any author: the rules, the formatting, and the one write with its event. */
export async function postStatus(deps: Deps, author: AccountRecord, draft: StatusDraft): Promise<StatusRecord> {
  const { store } = deps;
  const { parent, mediaIds } = draft;
  if (parent) assertCanReply(store, author.id, parent);
  const now = Date.now();
  const poll = draft.poll ?? null;
  // A content warning makes the media sensitive, even one that composeText moves into the body.
  const sensitive = draft.sensitive || draft.spoilerText.trim() !== "";
  const quoted = draft.quoted ?? null;
  // A quote may go without text, as media and polls may.
  const { text, spoilerText, formatted } = composeText(deps, draft.text, draft.spoilerText, mediaIds.length > 0 || poll !== null || quoted !== null);
  checkAllowedMentions(store, formatted.mentionIds, draft.allowedMentionIds);
  const unsilenced = draft.visibility === "public" && author.silenced ? "unlisted" : draft.visibility;
  const visibility = quoted ? quotingVisibility(unsilenced, quoted) : unsilenced;
  if (quoted) checkDirectQuote(visibility, author.id, formatted.mentionIds, quoted);

  const id = newId(now);
  const status = newStatusRecord({
    id,
    author,
    createdAt: now,
    text,
    content: quoted ? withQuoteFallback(formatted.html, text, quoted) : formatted.html,
    spoilerText,
    sensitive,
    visibility,
    language: draft.language,
    inReplyTo: parent,
    applicationId: draft.applicationId,
    mentionIds: formatted.mentionIds,
    tags: formatted.tags,
    mediaIds,
    hasPoll: poll !== null,
    quotePolicy: policyFor(visibility, draft.quotePolicy ?? "public"),
    quote: quoted && { statusId: quoted.id, accountId: quoted.accountId, state: newQuoteState(quoted) },
  });

  return store.write(() => {
    // Checked again inside the write: two requests racing with one key still create one status.
    const raced = idempotentHit(store, author.id, draft.idempotencyKey, now);
    if (raced) return raced;
    attachMedia(store, status);
    insertStatus(store, status);
    recordQuote(deps, status, now);
    if (poll) startPoll(deps, id, poll, now);
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
    if (draft.idempotencyKey) {
      putIdempotency(store, author.id, draft.idempotencyKey, { statusId: id, at: now });
      const expiry: IdempotencyExpiry = { accountId: author.id, key: draft.idempotencyKey, statusId: id };
      deps.jobs.enqueue(IDEMPOTENCY_EXPIRY, expiry, { delayMs: IDEMPOTENCY_TTL_MS });
    }
    draft.inWrite?.(status);
    return status;
  });
}
