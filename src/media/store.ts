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
import { S3MediaStore } from "./s3-store.ts";

export interface StoredObject {
  key: string;
  size: number;
}

export interface MediaStore {
  readonly kind: "local" | "s3";
  /** Stores `data` under `key` durably and whole (a reader sees all of it or nothing). */
  write(key: string, data: Uint8Array, contentType: string): Promise<void>;
  /** Moves a finished file (under the data directory) to `key`; the file is gone from its place afterwards. */
  adopt(key: string, file: string, contentType: string): Promise<void>;
  /** The stored bytes, or null when there is nothing under `key`. */
  read(key: string): Promise<Uint8Array | null>;
  /** Size and time of the stored file, or null when there is none. */
  stat(key: string): Promise<{ size: number; modified: Date } | null>;
  /** Removes `key`; nothing stored under it is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored file whose key starts with `prefix` ("" for all), in no promised order. */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** The absolute URL clients fetch `key` from. */
  publicUrl(key: string): string;
}

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
