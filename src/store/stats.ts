// Figures about the store read at scrape time for /metrics (src/http/metrics): the job queue's backlog per
// lane and how much of the LMDB memory map is in use. Reads only; each is one range count or a meta-page read.
import { END, type Store } from "./handle.ts";
import { LANES } from "./jobs.ts";
import type { Lane } from "../model/jobs.ts";

export interface LaneBacklog {
  lane: Lane;
  /** Jobs waiting in the lane, due or delayed (claimed ones are running, not waiting). */
  waiting: number;
  /** How long the oldest due job has waited past its due time (seconds); 0 when none is due. */
  lagSeconds: number;
}

export function jobBacklog(store: Store, now = Date.now()): LaneBacklog[] {
  return LANES.map((lane) => {
    const waiting = store.db.jobs.getCount({ start: [lane, 0], end: [lane, END] });
    let lagSeconds = 0;
    for (const key of store.db.jobs.getKeys({ start: [lane, 0], end: [lane, END], limit: 1 })) {
      const runAt = (key as [Lane, number])[1];
      if (runAt < now) lagSeconds = (now - runAt) / 1000;
    }
    return { lane, waiting, lagSeconds };
  });
}

interface EnvInfo {
  mapSize: number;
  lastPageNumber: number;
  numReaders: number;
}

export interface MapUsage {
  /** Bytes of the memory map up to its last used page (the data file's live size; free pages inside count). */
  usedBytes: number;
  mapSizeBytes: number;
  readers: number;
}

/** From LMDB's meta page (mdb_env_info) and page size (mdb_env_stat): no tree walk. */
export function mapUsage(store: Store): MapUsage {
  const env = (store.db.jobs as unknown as { env: { info(): EnvInfo; stat(): { pageSize: number } } }).env;
  const info = env.info();
  return { usedBytes: (info.lastPageNumber + 1) * env.stat().pageSize, mapSizeBytes: info.mapSize, readers: info.numReaders };
}
