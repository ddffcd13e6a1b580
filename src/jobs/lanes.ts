// Lanes: each waiting job is keyed under its lane, and each lane has its own batch size and its own slots on
// the workers, so fan-out and notifications never queue behind link cards, e-mail, deliveries or back-fills.
// A worker thread runs at most one batch per lane at a time; the jobs of a batch run concurrently, so their
// writes share LMDB commits and their network waits overlap. See docs/jobs.md.
import { LANES, type Lane } from "../store/jobs.ts";

export { LANES, type Lane };

export interface LanePolicy {
  /** Most jobs claimed and handed to one worker at once. */
  batch: number;
  /** How many workers may run a batch of this lane at the same time, out of `workers`. */
  slots(workers: number): number;
}

const everyWorker = (workers: number) => Math.max(1, workers);

export const LANE_POLICY: Record<Lane, LanePolicy> = {
  // Many small jobs whose writes are worth merging into one commit.
  realtime: { batch: 64, slots: everyWorker },
  default: { batch: 32, slots: everyWorker },
  // Each job mostly waits on another server: a batch overlaps the waits.
  network: { batch: 16, slots: everyWorker },
  // Big jobs nobody is watching: at most half the workers, so their CPU time never takes a whole machine.
  backfill: { batch: 4, slots: (workers) => Math.max(1, Math.floor(workers / 2)) },
  // Video and audio processing: one ffmpeg at a time per slot, each using two threads.
  media: { batch: 1, slots: (workers) => Math.max(1, Math.floor(workers / 2)) },
};

export const DEFAULT_LANE: Lane = "default";

export function isLane(value: unknown): value is Lane {
  return (LANES as readonly unknown[]).includes(value);
}
