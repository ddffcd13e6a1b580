// Fair claiming, for lanes with a per-group limit (LANE_POLICY perGroup; media: one job per uploader at a
// time). Due jobs are not taken oldest first across the lane: among the groups below their limit, the one
// served least recently goes first (then the oldest job), so an account that queued five heavy uploads
// takes turns with one that uploads a small file instead of holding it back. See docs/jobs.md.
import type { JobRecord } from "../model/jobs.ts";

/**
 * How many due jobs of the lane a fair claim looks at. Media uploads are rate limited per account (30 per
 * 30 minutes), so this many spans at least 33 accounts; jobs further back wait until the head moves.
 */
export const FAIR_SCAN = 1000;
/** Groups whose last turn is remembered; the least recent are forgotten first (then count as never served). */
const REMEMBERED_GROUPS = 10_000;

export class FairShare {
  /** group → the turn it was last served at (insertion order = least recent first). */
  private served = new Map<string, number>();
  private turn = 0;

  /**
   * Up to `limit` of `due` (oldest first), none of a group that would then run more than `perGroup` jobs
   * (`running` counts those in flight). Jobs without a group are never held back.
   */
  pick(due: readonly JobRecord[], running: ReadonlyMap<string, number>, perGroup: number, limit: number): JobRecord[] {
    const counts = new Map(running);
    const chosen: JobRecord[] = [];
    while (chosen.length < limit) {
      let best: JobRecord | null = null;
      for (const job of due) {
        if (chosen.includes(job)) continue;
        if (job.group !== undefined && (counts.get(job.group) ?? 0) >= perGroup) continue;
        // Strictly earlier: among equals the first found, the oldest, wins.
        if (!best || this.lastTurn(job) < this.lastTurn(best)) best = job;
      }
      if (!best) break;
      chosen.push(best);
      if (best.group !== undefined) {
        counts.set(best.group, (counts.get(best.group) ?? 0) + 1);
        this.serve(best.group);
      }
    }
    return chosen;
  }

  private lastTurn(job: JobRecord): number {
    return job.group === undefined ? 0 : (this.served.get(job.group) ?? 0);
  }

  private serve(group: string): void {
    this.served.delete(group);
    this.served.set(group, ++this.turn);
    if (this.served.size > REMEMBERED_GROUPS) this.served.delete(this.served.keys().next().value!);
  }
}
