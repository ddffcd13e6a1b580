// The one invalidation mechanism, for the caches above the domain (http/cache): versions, bumped by every write
// to what they name in the write's own transaction, and the version log's per-thread mirror that checks them
// (store/versions.ts, store/version-log.ts). The http layer reaches them here, not in the store.
export {
  changedVersions,
  insideWrite,
  mirrorStamp,
  readVersions,
  recordingReads,
  syncVersionsTo,
  versionName,
  versionsUnchanged,
  type Versions,
} from "../../store/versions.ts";
export type { Stamp } from "./versioned.ts";
export { registerCache } from "./index.ts";
