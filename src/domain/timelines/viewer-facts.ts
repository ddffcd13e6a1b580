// What a viewer's timelines ask about each author (follows, blocks and mutes both ways, exclusive lists,
// followed hashtags) depends only on what the viewer sees: every write to those bumps the viewer's version
// (store/versions.ts). So the answers are kept per viewer across pages and requests, filled as authors come
// up, and dropped when that version moves or a mute that decided one of them runs out (the generic versioned
// cache, least recently used viewer out first).
import type { Store } from "../../store/db.ts";
import { insideWrite, noteExpiry, versionName } from "../../store/versions.ts";
import { VersionedCache } from "../caches/versioned.ts";
import type { FollowRecord } from "../../model/relationships.ts";

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

const kept = new VersionedCache<ViewerFacts>("viewer facts", MAX_VIEWERS, {
  lru: true,
  // Answers are added after the facts are kept: a viewer reading across a huge instance starts over.
  usable: (facts, now) => now < facts.until && facts.size <= MAX_ANSWERS,
});

/**
 * The facts kept for `viewerId`, current in this read snapshot (fresh ones inside a write transaction,
 * whose reads may still roll back). A page built meanwhile depends on the viewer's version and on the end
 * of the mutes behind the answers.
 */
export function viewerFacts(store: Store, viewerId: string): ViewerFacts {
  if (insideWrite(store)) return new ViewerFacts();
  const facts = kept.get(store, viewerId, () => ({ value: new ViewerFacts(), depends: [versionName.viewer(viewerId)] })).value;
  if (facts.until !== Infinity) noteExpiry(facts.until);
  return facts;
}
