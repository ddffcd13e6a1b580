// GET /api/v2/suggestions (and the deprecated v1): the sources' candidates merged into one entry per account
// listing every source that named it, ranked (staff picks first, in the order they were picked, then by a
// reciprocal-rank score summed over the sources), filtered for the viewer, then sliced by offset and limit.
// DELETE /api/v1/suggestions/:account_id dismisses an account for good.
//
// Cost: the personal sources (friends of friends, similar to recently followed) read at most ~15,000 index
// rows and are kept per viewer while nothing they read has changed (VersionedCache); the global ones (most
// followed, most interactions) read at most ~60,000 rows and are kept per thread for GLOBAL_TTL_MS; the
// staff picks and every exclusion are read at each request (a few point reads per candidate looked at).
import type { Deps } from "../../deps.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { putDismissal } from "../../store/suggestions.ts";
import { VersionedCache } from "../caches/versioned.ts";
import { suggestibleTo } from "./eligible.ts";
import { featuredIds, mostFollowed, mostInteractions, personalSources, SOURCE_ORDER, type Ranked, type SuggestionSource } from "./sources.ts";
import type { AccountRecord } from "../../model/accounts.ts";

export type { SuggestionSource };

export interface Suggestion {
  account: AccountRecord;
  /** in SOURCE_ORDER; never empty */
  sources: SuggestionSource[];
}

/** Default and maximum `limit` (API.md §9). */
export const SUGGESTIONS_LIMIT = 40;

/** How long the global rankings are kept before they are read again (Mastodon keeps suggestions 15 minutes). */
export const GLOBAL_TTL_MS = 10 * 60_000;

/** Reciprocal-rank fusion: a candidate's score is the sum over its sources of 1 / (RANK_OFFSET + rank). */
const RANK_OFFSET = 10;

interface Global {
  at: number;
  mostFollowed: Ranked[];
  mostInteractions: Ranked[];
}

const globals = new WeakMap<Store, Global>();

function globalRankings(store: Store, now: number): Global {
  const kept = globals.get(store);
  if (kept && now - kept.at < GLOBAL_TTL_MS && now >= kept.at) return kept;
  const fresh = { at: now, mostFollowed: mostFollowed(store), mostInteractions: mostInteractions(store, now) };
  globals.set(store, fresh);
  return fresh;
}

type PersonalRankings = Pick<ReturnType<typeof personalSources>, "friendsOfFriends" | "similar">;
const MAX_VIEWERS = 2_000;
const personal = new VersionedCache<PersonalRankings>("personal suggestions", MAX_VIEWERS);

/** The personal rankings, kept while the viewer's follows, the friends' follows and the followers read are unchanged. */
function personalRankings(store: Store, viewerId: string): PersonalRankings {
  return personal.get(store, viewerId, () => {
    const { depends, ...value } = personalSources(store, viewerId);
    return { value, depends };
  }).value;
}

interface Candidate {
  accountId: string;
  sources: Set<SuggestionSource>;
  /** position among the staff picks; Infinity for the rest */
  pick: number;
  score: number;
}

/** Every candidate once, best first. */
function mergedCandidates(store: Store, viewerId: string, now: number): Candidate[] {
  const byId = new Map<string, Candidate>();
  const entry = (accountId: string) => {
    let candidate = byId.get(accountId);
    if (!candidate) byId.set(accountId, (candidate = { accountId, sources: new Set(), pick: Infinity, score: 0 }));
    return candidate;
  };
  featuredIds(store).forEach((accountId, i) => {
    const candidate = entry(accountId);
    candidate.sources.add("featured");
    candidate.pick = i;
  });
  const { friendsOfFriends, similar } = personalRankings(store, viewerId);
  const global = globalRankings(store, now);
  const ranked: [SuggestionSource, Ranked[]][] = [
    ["friends_of_friends", friendsOfFriends],
    ["similar_to_recently_followed", similar],
    ["most_followed", global.mostFollowed],
    ["most_interactions", global.mostInteractions],
  ];
  for (const [source, list] of ranked) {
    list.forEach(({ accountId }, i) => {
      const candidate = entry(accountId);
      candidate.sources.add(source);
      candidate.score += 1 / (RANK_OFFSET + i);
    });
  }
  return [...byId.values()].sort(
    (a, b) => a.pick - b.pick || b.score - a.score || (a.accountId < b.accountId ? 1 : a.accountId > b.accountId ? -1 : 0),
  );
}

export interface SuggestionsQuery {
  limit: number;
  offset: number;
}

/** The viewer's suggestions from `offset`, at most `limit`. */
export function suggestionsFor(deps: Deps, viewerId: string, query: SuggestionsQuery): Suggestion[] {
  const { store } = deps;
  const out: Suggestion[] = [];
  if (query.limit <= 0) return out;
  const now = Date.now();
  let skipped = 0;
  for (const candidate of mergedCandidates(store, viewerId, now)) {
    const account = getAccount(store, candidate.accountId);
    if (!account || !suggestibleTo(store, viewerId, account, now)) continue;
    if (skipped < query.offset) {
      skipped++;
      continue;
    }
    out.push({ account, sources: SOURCE_ORDER.filter((source) => candidate.sources.has(source)) });
    if (out.length >= query.limit) break;
  }
  return out;
}

/**
 * Never suggests the account to the viewer again. As on Mastodon the answer is the same whatever the id
 * names (unknown and malformed ids are simply not recorded), and dismissing twice changes nothing.
 */
export async function dismissSuggestion(deps: Deps, viewerId: string, rawAccountId: string): Promise<void> {
  const { store } = deps;
  const id = normaliseId(rawAccountId);
  if (!id || id === viewerId || !getAccount(store, id)) return;
  await store.write(() => putDismissal(store, viewerId, id, Date.now()));
}
