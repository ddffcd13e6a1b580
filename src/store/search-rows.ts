// The embedded search index's posting rows (store/search-index.ts): LMDB duplicates under a word, packed as
// big-endian integers so that they sort by their bytes, which is the order a query wants them in.
// - A status row is its id in 8 bytes: a word's statuses are one sorted run, newest last, so "newest first"
//   is a reverse scan and max_id a seek.
// - An account row is 18 bytes: followers (inverted, 4 bytes), time of the last status (inverted, 6 bytes),
//   then the id (8 bytes), so a word's accounts come best first: most followers, then most recently active.
// A row's decoded value is its id either way.
import { ID_BYTES, idBound, rowBytes, unpackedId } from "./packed-rows.ts";

export const STATUS_ROW_BYTES = ID_BYTES;
export const ACCOUNT_ROW_BYTES = 18;

const MAX_U32 = 0xffff_ffff;
const MAX_U48 = 2 ** 48 - 1;
const ID_PATTERN = /^\d{1,18}$/;

/** Is this an id a row can hold (what lib/ids makes, or a normalised client cursor)? */
export const isRowId = (id: string): boolean => ID_PATTERN.test(id);

/** The row of a status (for puts and removals). */
export function statusRow(id: string): Buffer {
  const bytes = rowBytes(STATUS_ROW_BYTES);
  bytes.writeBigUInt64BE(BigInt(id));
  return bytes;
}

/** A status row in a buffer of its own: a range bound or a point lookup. */
export const statusBound = idBound;

export interface AccountRank {
  followersCount: number;
  lastStatusAt: number | null;
}

/** The row of an account: where it sorts among the accounts under one word. */
export function accountRow(id: string, rank: AccountRank): Buffer {
  const bytes = rowBytes(ACCOUNT_ROW_BYTES);
  const followers = Math.min(MAX_U32, Math.max(0, Math.floor(rank.followersCount)));
  const last = Math.min(MAX_U48, Math.max(0, Math.floor(rank.lastStatusAt ?? 0)));
  bytes.writeUInt32BE(MAX_U32 - followers, 0);
  bytes.writeUIntBE(MAX_U48 - last, 4, 6);
  bytes.writeBigUInt64BE(BigInt(id), 10);
  return bytes;
}

/** lmdb-js hands a decoder its shared read buffer and the value's size. */
export function decodeRowId(bytes: Uint8Array, size: number = bytes.length): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, size);
  return unpackedId(view.getBigUint64(size - ID_BYTES));
}

/** lmdb-js options of the search_postings keyspace: rows written as Buffers, read back as ids. */
export const SEARCH_POSTINGS_OPTIONS = {
  dupSort: true,
  dupFixed: true,
  encoding: "binary",
  encoder: { encode: (value: Uint8Array) => value, decode: decodeRowId },
} as const;
