// The home feed's on-disk row: one LMDB duplicate per row under the viewer's id, packed as two big-endian
// 64-bit integers, the status id and its author's id (a reblog's author is the account that reblogged).
// Duplicates sort by their bytes, so by status id: a viewer's feed is one sorted run, and fan-out appends at
// the end of that run. Every row is 16 bytes, so the keyspace is MDB_DUPFIXED: LMDB packs a viewer's rows
// side by side in its pages without a node header each (16 bytes a row, where the 16- or 24-byte rows of
// schemas 4–7, which also held the reblogged status's id, took 26–34 bytes and more; docs/disk.md).
// What a reblog wraps is on its status record, which a reader reads anyway.
import { idBound, rowBytes, unpackedId } from "./packed-rows.ts";

export interface HomeRow {
  statusId: string;
  authorId: string;
}

export const HOME_ROW_BYTES = 16;

/** The first 8 bytes of the rows of `statusId`: a bound that sorts before all of them. */
export const statusPrefix = idBound;

/** A bound that sorts after every row of `statusId`. */
export function afterStatus(statusId: string): Buffer {
  return Buffer.concat([statusPrefix(statusId), Buffer.alloc(HOME_ROW_BYTES - 8, 0xff)]);
}

/** The row to put or remove, cut from the shared slabs of store/packed-rows.ts. */
export function encodeHomeRow(row: HomeRow): Buffer {
  const bytes = rowBytes(HOME_ROW_BYTES);
  bytes.writeBigUInt64BE(BigInt(row.statusId), 0);
  bytes.writeBigUInt64BE(BigInt(row.authorId), 8);
  return bytes;
}

/** lmdb-js hands a decoder its shared read buffer and the value's size. */
export function decodeHomeRow(bytes: Uint8Array, size: number = bytes.length): HomeRow {
  const view = new DataView(bytes.buffer, bytes.byteOffset, size);
  return { statusId: unpackedId(view.getBigUint64(0)), authorId: unpackedId(view.getBigUint64(8)) };
}

/**
 * lmdb-js options of the home keyspace. Values are written as the Buffers encodeHomeRow makes and read back
 * as HomeRow; range bounds are raw Buffers (statusPrefix, afterStatus).
 */
export const HOME_ROWS_OPTIONS = {
  dupSort: true,
  dupFixed: true,
  encoding: "binary",
  encoder: { encode: (value: Uint8Array) => value, decode: decodeHomeRow },
} as const;

// The rows of schemas 4–7 (home_rows): 16 bytes, or 24 for a reblog (its third id, the reblogged status, is
// no longer kept). Read once, by migration 8, which moves them into the fixed-size rows above.

/** The status and author ids of a schema 4–7 row (the first 16 bytes, as in the rows above). */
export function decodeVariableHomeRow(bytes: Uint8Array, size: number = bytes.length): HomeRow {
  return decodeHomeRow(bytes, Math.min(size, HOME_ROW_BYTES));
}

export const VARIABLE_HOME_ROWS_OPTIONS = {
  dupSort: true,
  encoding: "binary",
  encoder: { encode: (value: Uint8Array) => value, decode: decodeVariableHomeRow },
} as const;
