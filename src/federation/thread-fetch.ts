// Threads completed in the background (docs/federation.md, "Threads"). A remote reply whose parent is not
// known is stored with the parent's id (StatusRecord.inReplyToUri) and a `remote` job fetches that parent,
// links the reply under it, and goes on with the parent's own missing parent: one fetch per job, at most
// THREAD_DEPTH ancestors for one reply. The context of a remote status (GET /api/v1/statuses/:id/context)
// also asks (background-asks.ts), at most every REPLIES_EVERY_MS per status, for its `replies` collection (as
// Mastodon 4.4's context fetching does): up to REPLIES_LIMIT replies not known yet, each fetched by a job of its own host.
import { statusByUri } from "../domain/statuses/remote.ts";
import { linkOrphanReply } from "../domain/statuses/thread-link.ts";
import { getStatus } from "../store/statuses.ts";
import { collectionItems } from "./collection-items.ts";
import type { FederationDeps } from "./context.ts";
import { context } from "./fedify-context.ts";
import { isNoteLike } from "./note-checks.ts";
import { enqueueRemoteFetch, REMOTE_STATUS_FETCH } from "./remote-jobs.ts";
import { fetchStatus } from "./threads.ts";

export const REPLIES_LIMIT = 20;

export async function fetchThreadStep(deps: FederationDeps, { statusId, depth }: { statusId: string; depth: number }): Promise<void> {
  const child = getStatus(deps.store, statusId);
  if (!child?.inReplyToUri || child.inReplyToId || child.deletedAt || depth <= 0) return;
  let url: URL;
  try {
    url = new URL(child.inReplyToUri);
  } catch {
    return;
  }
  // Stored with its own missing parent queued (depth - 1), or known already.
  const parent = await fetchStatus(deps, url, 0, undefined, depth - 1);
  if (parent) await linkOrphanReply(deps, child.id, parent);
}

/** The replies collection of a remote status: each reply not known yet is queued for its own fetch. */
export async function fetchReplies(deps: FederationDeps, { statusId }: { statusId: string }): Promise<void> {
  const status = getStatus(deps.store, statusId);
  if (!status || status.local || status.deletedAt) return;
  const ctx = await context(deps);
  const note = await ctx.lookupObject(status.uri).catch(() => null);
  if (!isNoteLike(note) || note.id?.href !== status.uri) return;
  const items = await collectionItems(await note.getReplies().catch(() => null), REPLIES_LIMIT);
  const uris = new Set<string>();
  for (const item of items) {
    const id = item instanceof URL ? item : (item as { id?: unknown }).id;
    if (id instanceof URL && !statusByUri(deps, id.href)) uris.add(id.href);
  }
  if (uris.size === 0) return;
  await deps.store.write(() => {
    for (const uri of uris) enqueueRemoteFetch(deps, REMOTE_STATUS_FETCH, { uri }, uri);
  });
}

/** One status by its URI (a reply named by a replies collection). */
export async function fetchOneStatus(deps: FederationDeps, { uri }: { uri: string }): Promise<void> {
  await fetchStatus(deps, new URL(uri), 0);
}
