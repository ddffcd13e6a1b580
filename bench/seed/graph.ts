// The follow graph: each account follows a Pareto-distributed number of others (most a few, some hundreds),
// chosen by a Zipf-like popularity, so a handful of accounts are followed by most of the instance and most by
// few. Follows go through the follow core with both account records in hand (notifications, events, home
// back-fill), many at once.
import type { Deps } from "../../src/deps.ts";
import { follow } from "../../src/domain/relationships/follow.ts";
import type { UserViewer } from "../../src/domain/auth/viewer.ts";
import type { SeedJobQueue } from "./jobs.ts";
import { Progress } from "./progress.ts";
import { Random, Zipf } from "./random.ts";

/** Follows made concurrently before their subscriber jobs run (one commit or a few per wave). */
const WAVE = 20_000;
const POPULARITY_EXPONENT = 0.8;

export interface FollowGraph {
  /** Followed account indexes, per follower index. */
  following: Uint32Array[];
  followerCounts: Uint32Array;
  popularity: Zipf;
  total: number;
}

export function planFollowGraph(accounts: number, random: Random): FollowGraph {
  const popularity = new Zipf(accounts, POPULARITY_EXPONENT, random);
  const followerCounts = new Uint32Array(accounts);
  let total = 0;
  const following = Array.from({ length: accounts }, (_, follower) => {
    const wanted = random.pareto(8, 1.6, Math.min(2000, Math.floor((accounts - 1) / 2)));
    const chosen = new Set<number>();
    // Popular accounts are drawn again and again; give up on a follower's tail rather than loop for long.
    for (let tries = 0; chosen.size < wanted && tries < wanted * 20; tries++) {
      const target = popularity.draw(random);
      if (target !== follower) chosen.add(target);
    }
    for (const target of chosen) followerCounts[target]!++;
    total += chosen.size;
    return Uint32Array.from(chosen);
  });
  return { following, followerCounts, popularity, total };
}

export async function createFollows(deps: Deps & { jobs: SeedJobQueue }, viewers: UserViewer[], graph: FollowGraph): Promise<void> {
  const progress = new Progress("follows", graph.total);
  let done = 0;
  let wave: Promise<unknown>[] = [];
  const flush = async () => {
    await Promise.all(wave);
    done += wave.length;
    wave = [];
    await deps.jobs.runPending();
    progress.update(done);
  };
  for (const [follower, targets] of graph.following.entries()) {
    for (const target of targets) {
      wave.push(follow(deps, viewers[follower]!.account, viewers[target]!.account, {}));
      if (wave.length >= WAVE) await flush();
    }
  }
  await flush();
  progress.done();
}
