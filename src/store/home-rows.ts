// The home feed's on-disk row: one LMDB duplicate per row under the viewer's id (a dupSort keyspace), packed
// as big-endian 64-bit integers: the status id, its author's id, and for a reblog the id of the status it
// wraps. Duplicates sort by their bytes, so by status id: a viewer's feed is one sorted run, and fan-out
// appends at the end of that run, which keeps its pages full. 16 bytes (24 for a reblog) where a msgpack
// record under [viewerId, statusId] took about 116 on disk.
import { idBound, rowBytes, unpackedId } from "./packed-rows.ts";

export interface HomeRow {
  statusId: string;
  authorId: string;
  /** the status a reblog wraps; null for an ordinary status */
  reblogOfId: string | null;
}

/** The first 8 bytes of the rows of `statusId`: a bound that sorts before all of them. */
export const statusPrefix = idBound;

/** A bound that sorts after every row of `statusId`. */
export function afterStatus(statusId: string): Buffer {
  return Buffer.concat([statusPrefix(statusId), Buffer.alloc(16, 0xff)]);
}

/** The row to put or remove, cut from the shared slabs of store/packed-rows.ts. */
export function encodeHomeRow(row: HomeRow): Buffer {
  const bytes = rowBytes(row.reblogOfId ? 24 : 16);
  bytes.writeBigUInt64BE(BigInt(row.statusId), 0);
  bytes.writeBigUInt64BE(BigInt(row.authorId), 8);
  if (row.reblogOfId) bytes.writeBigUInt64BE(BigInt(row.reblogOfId), 16);
  return bytes;
}

/** lmdb-js hands a decoder its shared read buffer and the value's size. */
export function decodeHomeRow(bytes: Uint8Array, size: number = bytes.length): HomeRow {
  const view = new DataView(bytes.buffer, bytes.byteOffset, size);
  return {
    statusId: unpackedId(view.getBigUint64(0)),
    authorId: unpackedId(view.getBigUint64(8)),
    reblogOfId: size >= 24 ? unpackedId(view.getBigUint64(16)) : null,
  };
}

/**
 * lmdb-js options of the home_rows keyspace. Values are written as the Buffers encodeHomeRow makes and read
 * back as HomeRow; range bounds are raw Buffers (statusPrefix, afterStatus).
 */
export const HOME_ROWS_OPTIONS = {
  dupSort: true,
  encoding: "binary",
  encoder: { encode: (value: Uint8Array) => value, decode: decodeHomeRow },
} as const;
