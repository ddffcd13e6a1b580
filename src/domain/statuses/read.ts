// Reading statuses: one by id, several by id, and a thread (context). Synchronous LMDB reads only.
import { Unprocessable } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getStatus, replyIds } from "../../store/statuses.ts";
import { assertVisible } from "../policy/interaction.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { TimelineViewer } from "../timelines/policy.ts";
import { threadShape, type ThreadShape } from "./thread-shape.ts";
import type { StatusRecord } from "../../model/statuses.ts";

export const MAX_STATUSES_BY_ID = 20;

/** The status behind a client-supplied id, if the viewer may see it; 404 otherwise (malformed ids too). */
export function visibleStatus(store: Store, viewerId: string | null, rawId: string): StatusRecord {
  const id = normaliseId(rawId);
  const status = id ? getStatus(store, id) : undefined;
  assertVisible(store, viewerId, status);
  return status;
}

/** GET /api/v1/statuses?id[]=: the visible ones, in the order asked, at most 20 ids. */
export function visibleStatuses(store: Store, viewerId: string | null, rawIds: readonly string[]): StatusRecord[] {
  if (rawIds.length > MAX_STATUSES_BY_ID) throw new Unprocessable(`Validation failed: at most ${MAX_STATUSES_BY_ID} ids may be requested`);
  const out: StatusRecord[] = [];
  const seen = new Set<string>();
  for (const raw of rawIds) {
    const id = normaliseId(raw);
    if (!id || seen.has(id)) continue;
    seen.add(id);
    const status = getStatus(store, id);
    if (status && canSeeStatus(store, viewerId, status)) out.push(status);
  }
  return out;
}

export interface ContextLimits {
  ancestors: number;
  descendants: number;
  depth: number;
}

/** Mastodon's caps: anonymous callers get a trimmed thread, signed-in ones up to 4 096 each way. */
export function contextLimits(signedIn: boolean): ContextLimits {
  return signedIn ? { ancestors: 4096, descendants: 4096, depth: 4096 } : { ancestors: 40, descendants: 60, depth: 20 };
}

export interface StatusContext {
  ancestors: StatusRecord[];
  descendants: StatusRecord[];
}

/**
 * Ancestors oldest first (the walk stops where in_reply_to_id is null or the parent is gone) and
 * descendants depth-first in reply order, each filtered by visibility and by the viewer's blocks and mutes.
 * Deleted statuses are not walked through: their replies drop out of the thread, as on Mastodon. The
 * descendants come from the thread's kept shape (thread-shape.ts), filtered for the viewer with the answers
 * kept per viewer (timelines/viewer-facts.ts).
 */
export function statusContext(store: Store, viewerId: string | null, status: StatusRecord, limits: ContextLimits): StatusContext {
  const viewer = new TimelineViewer(store, viewerId);
  const shown = (s: StatusRecord) => viewer.sees(s);
  const ancestors: StatusRecord[] = [];
  const seen = new Set<string>([status.id]);
  let parentId = status.inReplyToId;
  while (parentId && ancestors.length < limits.ancestors && !seen.has(parentId)) {
    seen.add(parentId);
    const parent = getStatus(store, parentId);
    if (!parent || parent.deletedAt) break;
    if (shown(parent)) ancestors.push(parent);
    parentId = parent.inReplyToId;
  }
  ancestors.reverse();
  const shape = threadShape(store, status.id);
  // A reply that is also an ancestor (a loop of remote statuses) or a shape cut short: the walk below.
  const fromShape = !shape.truncated && !shape.ids.some((id) => seen.has(id));
  return { ancestors, descendants: fromShape ? shapeDescendants(store, shape, shown, limits) : walkDescendants(store, status, seen, shown, limits) };
}

function shapeDescendants(store: Store, shape: ThreadShape, shown: (s: StatusRecord) => boolean, limits: ContextLimits): StatusRecord[] {
  const descendants: StatusRecord[] = [];
  for (let i = 0; i < shape.ids.length && descendants.length < limits.descendants; i++) {
    if (shape.depths[i]! > limits.depth) continue;
    const reply = getStatus(store, shape.ids[i]!);
    if (reply && !reply.deletedAt && shown(reply)) descendants.push(reply);
  }
  return descendants;
}

function walkDescendants(store: Store, status: StatusRecord, seen: Set<string>, shown: (s: StatusRecord) => boolean, limits: ContextLimits): StatusRecord[] {
  const descendants: StatusRecord[] = [];
  // Depth-first, children oldest first: a stack of [id, depth] popped in order.
  const stack: [string, number][] = replyIds(store, status.id).reverse().map((id) => [id, 1]);
  while (stack.length && descendants.length < limits.descendants) {
    const [id, depth] = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const reply = getStatus(store, id);
    if (!reply || reply.deletedAt) continue;
    if (shown(reply)) descendants.push(reply);
    if (depth < limits.depth) for (const child of replyIds(store, id).reverse()) stack.push([child, depth + 1]);
  }
  return descendants;
}
