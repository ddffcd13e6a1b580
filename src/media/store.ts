// Where media bytes live: one MediaStore, the data directory (local-store.ts) or an S3-compatible bucket
// (s3-store.ts), chosen from the configuration (`config.s3`) and the same for every caller in a process: the
// HTTP layer, the job workers (which get the config from the pool) and the CLI. Everything that writes,
// reads, lists or deletes a stored file goes through it; records keep the public path (`/system/<key>`), so
// moving media between stores (`warren media migrate`) changes no record, only where URLs point.
//
// A key is the path under `/system/` ("media_attachments/original/<mediaId>/<random>.png"): the same in the
// folder `<dataDir>/media` and in the bucket.
import type { Config } from "../config.ts";
import { LocalMediaStore } from "./local-store.ts";
import type { MediaStore } from "./media-store.ts";
import { S3MediaStore } from "./s3-store.ts";

const stores = new WeakMap<Config, MediaStore>();

/** The store this configuration names (object storage when `config.s3` is set), one per config object. */
export function mediaStore(config: Config): MediaStore {
  let store = stores.get(config);
  if (!store) {
    store = config.s3 ? new S3MediaStore(config.s3) : new LocalMediaStore(config);
    stores.set(config, store);
  }
  return store;
}

/** Both stores of a configuration with object storage, for `warren media migrate`. */
export function bothStores(config: Config): { local: MediaStore; s3: MediaStore } | null {
  return config.s3 ? { local: new LocalMediaStore(config), s3: new S3MediaStore(config.s3) } : null;
}
