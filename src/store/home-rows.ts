// The home feed's on-disk row: one LMDB duplicate per row under the viewer's id (a dupSort keyspace), packed
// as big-endian 64-bit integers: the status id, its author's id, and for a reblog the id of the status it
// wraps. Duplicates sort by their bytes, so by status id: a viewer's feed is one sorted run, and fan-out
// appends at the end of that run, which keeps its pages full. 16 bytes (24 for a reblog) where a msgpack
// record under [viewerId, statusId] took about 116 on disk.
import { ID_WIDTH } from "../lib/ids.ts";

export interface HomeRow {
  statusId: string;
  authorId: string;
  /** the status a reblog wraps; null for an ordinary status */
  reblogOfId: string | null;
}

const toId = (value: bigint) => value.toString().padStart(ID_WIDTH, "0");

/** The first 8 bytes of the rows of `statusId`: a bound that sorts before all of them. */
export function statusPrefix(statusId: string): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(statusId));
  return bytes;
}

/** A bound that sorts after every row of `statusId`. */
export function afterStatus(statusId: string): Buffer {
  return Buffer.concat([statusPrefix(statusId), Buffer.alloc(16, 0xff)]);
}

// Rows are cut from shared slabs: lmdb-js looks up (and then remembers) the memory address of a value's
// ArrayBuffer on every put, and a Buffer of its own per row made that a tenth of fan-out's time.
const SLAB_BYTES = 64 * 1024;
let slab = Buffer.allocUnsafeSlow(0);
let slabUsed = 0;

function rowBytes(size: number): Buffer {
  if (slabUsed + size > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  slabUsed += size;
  return slab.subarray(slabUsed - size, slabUsed);
}

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
    statusId: toId(view.getBigUint64(0)),
    authorId: toId(view.getBigUint64(8)),
    reblogOfId: size >= 24 ? toId(view.getBigUint64(16)) : null,
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
