// Lanes: each waiting job is keyed under its lane, and each lane has its own limit of jobs in flight on each
// worker, so fan-out and notifications never queue behind link cards, e-mail, deliveries or back-fills. The
// limit counts jobs, not batches: a job that finishes frees its place at once, so a slow one (a remote server
// that takes 30 s) holds only its own place, never its batch-mates'. See docs/jobs.md.
import { LANES } from "../store/jobs.ts";
import type { ClaimedJob, Lane } from "../model/jobs.ts";

export { LANES, type Lane };

export interface LanePolicy {
  /** Most jobs of the lane in flight on one worker (or inline) at once; so also the largest batch. */
  batch: number;
  /** How many workers may hold jobs of this lane at the same time, out of `workers`. */
  slots(workers: number): number;
  /** Most jobs of one group (JobRecord.group) running at once; the lane then claims fairly between groups. */
  perGroup?: number;
}

const everyWorker = (workers: number) => Math.max(1, workers);

export const LANE_POLICY: Record<Lane, LanePolicy> = {
  // Many small jobs whose writes are worth merging into one commit.
  realtime: { batch: 64, slots: everyWorker },
  default: { batch: 32, slots: everyWorker },
  // Search indexing of new statuses: a burst of posts indexes as fast as it posts, but on at most half the
  // workers, so home fan-out always has a worker of its own.
  index: { batch: 64, slots: (workers) => Math.max(1, Math.floor(workers / 2)) },
  // Each job mostly waits on another server: many in flight overlap the waits.
  network: { batch: 16, slots: everyWorker },
  // Big jobs nobody is watching: at most half the workers, so their CPU time never takes a whole machine.
  backfill: { batch: 4, slots: (workers) => Math.max(1, Math.floor(workers / 2)) },
  // Video and audio processing (each job mostly waits on its ffmpeg, which uses half the cores): two at a time
  // on at most half the workers, and one at a time per uploader, so another account's upload runs beside the
  // heavy ones of the first instead of behind them.
  media: { batch: 2, slots: (workers) => Math.max(1, Math.floor(workers / 2)), perGroup: 1 },
  // Fetches from other servers nobody waits on (remote media, threads, profiles: federation/remote-jobs.ts),
  // grouped by host: two at a time per server, so a slow or hostile one holds two places, never the lane.
  remote: { batch: 16, slots: everyWorker, perGroup: 2 },
};

export const DEFAULT_LANE: Lane = "default";

export function isLane(value: unknown): value is Lane {
  return (LANES as readonly unknown[]).includes(value);
}

/**
 * Cuts claimed jobs of one lane into batches for workers with `room[i]` free places each: a job that failed
 * before in a batch of its own (a job that keeps failing, or crashing its worker, cannot take batch-mates down
 * with it), the others one batch per worker, each job to the worker with most room left (so the load evens
 * out, and a few jobs still use every worker). Jobs that do not fit are left out, for the caller to keep.
 */
export function intoBatches(jobs: ClaimedJob[], room: number[]): Array<{ at: number; jobs: ClaimedJob[] }> {
  const left = [...room];
  const roomiest = () => {
    const at = left.indexOf(Math.max(...left));
    if (!(left[at]! > 0)) return -1;
    left[at]!--;
    return at;
  };
  const batches: Array<{ at: number; jobs: ClaimedJob[] }> = [];
  for (const job of jobs) {
    if (job.lastError === null) continue;
    const at = roomiest();
    if (at < 0) break;
    batches.push({ at, jobs: [job] });
  }
  const fresh = jobs.filter((job) => job.lastError === null);
  const shares = room.map(() => 0);
  for (let i = 0; i < fresh.length; i++) {
    const at = roomiest();
    if (at < 0) break;
    shares[at]!++;
  }
  let from = 0;
  shares.forEach((n, at) => {
    if (n > 0) batches.push({ at, jobs: fresh.slice(from, (from += n)) });
  });
  return batches;
}
