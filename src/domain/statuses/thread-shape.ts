// The shape of a thread below a status: every reply that is not deleted, depth-first, children oldest first,
// with its depth. It is the same for every viewer, so it is kept per thread (the generic versioned cache)
// and each context read filters it for its viewer instead of walking the tree: the walk costs a range read
// of each status's replies, ~200 for the seeded 200-reply thread. It depends on every status it read (`s:`),
// and a write to a status's replies index bumps that status's `s:` (store/versions.ts), so a new reply, a
// deletion or a reply moved anywhere in the tree makes the next read walk it again.
import type { Store } from "../../store/db.ts";
import { getStatus, replyIds } from "../../store/statuses.ts";
import { versionName } from "../../store/versions.ts";
import { VersionedCache } from "../caches/versioned.ts";

/** Replies a kept shape holds at most; a read that needs more walks the tree itself. */
const MAX_NODES = 10_000;

export interface ThreadShape {
  /** Reply ids, depth-first in reply order. */
  ids: string[];
  /** The depth of each (1: a direct reply). */
  depths: number[];
  /** Replies were left out (MAX_NODES reached). */
  truncated: boolean;
}

const kept = new VersionedCache<ThreadShape>("thread shapes", 200_000, { weigh: (shape) => 1 + shape.ids.length, lru: true });

/** The shape below `rootId`, kept while neither it (its direct replies) nor any status it read has changed. */
export function threadShape(store: Store, rootId: string): ThreadShape {
  return kept.get(store, rootId, () => ({ value: walk(store, rootId), depends: [versionName.status(rootId)] })).value;
}

function walk(store: Store, rootId: string): ThreadShape {
  const shape: ThreadShape = { ids: [], depths: [], truncated: false };
  const seen = new Set<string>([rootId]);
  // Depth-first, children oldest first: a stack of [id, depth] popped in order.
  const stack: [string, number][] = replyIds(store, rootId).reverse().map((id) => [id, 1]);
  while (stack.length) {
    if (shape.ids.length >= MAX_NODES) {
      shape.truncated = true;
      break;
    }
    const [id, depth] = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const reply = getStatus(store, id);
    if (!reply || reply.deletedAt) continue;
    shape.ids.push(id);
    shape.depths.push(depth);
    for (const child of replyIds(store, id).reverse()) stack.push([child, depth + 1]);
  }
  return shape;
}
