// What a MediaStore is (media/store.ts chooses one): the data directory (local-store.ts) or an S3-compatible
// bucket (s3-store.ts). Its own file, so that the stores implement it without importing the module that
// picks between them.
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
