// What /metrics reads of the store (http/metrics/collect.ts): the job queue's backlog per lane, from its LMDB
// keys so that jobs written by any thread or process count, and how full LMDB's map is.
import type { Store } from "../../store/db.ts";
import { jobBacklog as laneBacklog, mapUsage as storeMapUsage, type LaneBacklog, type MapUsage } from "../../store/stats.ts";

export const jobBacklog = (store: Store, now = Date.now()): LaneBacklog[] => laneBacklog(store, now);

export const mapUsage = (store: Store): MapUsage => storeMapUsage(store);
