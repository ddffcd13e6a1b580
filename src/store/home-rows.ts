// The home feed's on-disk row: one LMDB duplicate per row under the viewer's id (a dupSort keyspace), the
// status id as a big-endian 64-bit integer. Duplicates sort by their bytes, so by status id: a viewer's feed
// is one sorted run, and fan-out appends at the end of that run, which keeps its pages full. 8 bytes a row
// (schema 10; docs/disk.md): the rows of schemas 4–9 also held the author's id and, for a reblog, the
// wrapped status's id (16 or 24 bytes), both of which the status record gives a reader that reads it anyway.
import { idBound, rowBytes, unpackedId } from "./packed-rows.ts";

export const HOME_ROW_BYTES = 8;

/** The row of `statusId`, and a bound that sorts before every row of a later status. */
export const statusPrefix = idBound;

/** A bound that sorts after the row of `statusId` (and after the longer rows of schemas 4–9). */
export function afterStatus(statusId: string): Buffer {
  return Buffer.concat([statusPrefix(statusId), Buffer.alloc(16, 0xff)]);
}

/** The row to put or remove, cut from the shared slabs of store/packed-rows.ts. */
export function encodeHomeRow(statusId: string): Buffer {
  const bytes = rowBytes(HOME_ROW_BYTES);
  bytes.writeBigUInt64BE(BigInt(statusId), 0);
  return bytes;
}

/** lmdb-js hands a decoder its shared read buffer and the value's size; a row of any schema starts with the status id. */
export function decodeHomeRow(bytes: Uint8Array, size: number = bytes.length): string {
  return unpackedId(new DataView(bytes.buffer, bytes.byteOffset, Math.min(size, HOME_ROW_BYTES)).getBigUint64(0));
}

/**
 * lmdb-js options of the home keyspaces. Values are written as the Buffers encodeHomeRow makes and read back
 * as status ids; range bounds are raw Buffers (statusPrefix, afterStatus).
 */
export const HOME_ROWS_OPTIONS = {
  dupSort: true,
  encoding: "binary",
  encoder: { encode: (value: Uint8Array) => value, decode: decodeHomeRow },
} as const;
