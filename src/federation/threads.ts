// Statuses fetched by URL (docs/federation.md): a search with resolve=true for another server's status, and
// the status of an Announce not seen before. The Note comes through the federation's document loader
// (signed GET, lib/safe-fetch.ts limits), its author is resolved like any remote actor, and its ancestors
// (`inReplyTo`) are fetched the same way up to ANCESTOR_LIMIT. It is stored even when nobody here follows the
// author: someone here asked for it. The same checks as for an incoming Create apply (note-draft.ts).
import { queueStatusFetches, THREAD_DEPTH } from "./thread-queue.ts";
import { statusByUri, storeRemoteStatus } from "../domain/statuses/remote.ts";
import type { FederationDeps } from "./context.ts";
import { isBlockedUrl } from "./domain-policy.ts";
import { context } from "./fedify-context.ts";
import { remoteSender } from "./inbound-accounts.ts";
import { isNoteLike, sameOrigin } from "./note-checks.ts";
import { noteDraft } from "./note-draft.ts";
import { rawJsonOf } from "./note-attachments.ts";
import type { StatusRecord } from "../model/statuses.ts";

/** How many ancestors of a fetched status are fetched with it, and for how long at most (a search waits for them). */
export const ANCESTOR_LIMIT = 5;
/** Ancestors of one status fetched afterwards in background jobs (thread-fetch.ts), one per job. */
const ANCESTORS_WITHIN_MS = 15_000;

/** The status at `url`: stored already, or fetched and stored with up to `ancestors` ancestors (no new one
 * started after `until`), the rest of its thread queued for up to `threadDepth` more; null otherwise. */
export async function fetchStatus(
  deps: FederationDeps,
  url: URL,
  ancestors = ANCESTOR_LIMIT,
  until = Date.now() + ANCESTORS_WITHIN_MS,
  threadDepth = THREAD_DEPTH,
): Promise<StatusRecord | null> {
  const known = statusByUri(deps, url.href);
  if (known) return known;
  if (url.origin === new URL(deps.config.url).origin || isBlockedUrl(deps.store, url)) return null;
  const ctx = await context(deps);
  // Fedify drops a document whose id is on another origin than the URL it was fetched from.
  const note = await ctx.lookupObject(url.href).catch(() => null);
  if (!isNoteLike(note) || !note.id) return null;
  const stored = statusByUri(deps, note.id.href);
  if (stored) return stored;
  const authorId = note.attributionId;
  if (!authorId || !sameOrigin(authorId, note.id)) return null;
  const author = await remoteSender(deps, authorId);
  if (!author) return null;
  const draft = await noteDraft(deps, ctx, note, author, { raw: rawJsonOf(note) });
  if (!draft) return null;
  draft.inReplyToUri = note.replyTargetId?.href ?? null;
  if (!draft.parent && note.replyTargetId && ancestors > 0 && Date.now() < until) {
    draft.parent = await fetchStatus(deps, note.replyTargetId, ancestors - 1, until, threadDepth);
  }
  const status = await storeRemoteStatus(deps, author, draft);
  if (status) await queueStatusFetches(deps, status, threadDepth);
  return status;
}
