// What a viewer's timelines ask about each author (follows, blocks and mutes both ways, exclusive lists,
// followed hashtags) depends only on what the viewer sees: every write to those bumps the viewer's version
// (store/versions.ts). So the answers are kept per viewer across pages and requests, filled as authors come
// up, and dropped when that version moves or a mute that decided one of them runs out.
import type { Store } from "../../store/db.ts";
import type { FollowRecord } from "../../store/records.ts";
import { insideWrite, noteExpiry, noteRead, readVersions, versionName, versionsUnchanged, type Versions } from "../../store/versions.ts";

/** Viewers whose facts are kept per thread, least recently used out first. */
const MAX_VIEWERS = 2_000;
/**
 * Answers kept per viewer before it starts over (a viewer reading across a huge instance): a page asks about
 * a few dozen authors, and with the viewer limit this bounds the whole at 2 million answers (~100 MB) at worst.
 */
const MAX_ANSWERS = 1_000;

export class ViewerFacts {
  readonly follows = new Map<string, FollowRecord | null>();
  readonly exclusives = new Map<string, boolean>();
  readonly hidden = new Map<string, boolean>();
  readonly blockers = new Map<string, boolean>();
  tagFollower: boolean | undefined;
  /** When the first mute behind an answer ends (ms since the epoch). */
  until = Infinity;

  get size(): number {
    return this.follows.size + this.exclusives.size + this.hidden.size + this.blockers.size;
  }
}

interface Kept {
  facts: ViewerFacts;
  read: Versions;
}

const byStore = new WeakMap<Store, Map<string, Kept>>();

/**
 * The facts kept for `viewerId`, current in this read snapshot (fresh ones inside a write transaction,
 * whose reads may still roll back). A page built meanwhile depends on the viewer's version and on the end
 * of the mutes behind the answers.
 */
export function viewerFacts(store: Store, viewerId: string): ViewerFacts {
  const name = versionName.viewer(viewerId);
  if (insideWrite(store)) return new ViewerFacts();
  let kept = byStore.get(store);
  if (!kept) byStore.set(store, (kept = new Map()));
  const now = Date.now();
  let entry = kept.get(viewerId);
  if (entry && (now >= entry.facts.until || entry.facts.size > MAX_ANSWERS || !versionsUnchanged(store, entry.read))) entry = undefined;
  if (!entry) {
    entry = { facts: new ViewerFacts(), read: readVersions(store, [name]) };
    if (kept.size >= MAX_VIEWERS) kept.delete(kept.keys().next().value!);
  } else {
    kept.delete(viewerId);
  }
  // Re-inserted: Map order is the recency order.
  kept.set(viewerId, entry);
  noteRead(name);
  if (entry.facts.until !== Infinity) noteExpiry(entry.facts.until);
  return entry.facts;
}
