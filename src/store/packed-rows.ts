// Rows of the dupSort keyspaces whose duplicates are packed big-endian integers, so that they sort by their
// bytes (store/home-rows.ts, store/search-rows.ts): an id is an unsigned 64-bit integer, and its 8 bytes sort
// as the ids do.
import { ID_WIDTH } from "../lib/ids.ts";

/** Bytes of a packed id. */
export const ID_BYTES = 8;

// Rows written are cut from shared slabs: lmdb-js looks up (and then remembers) the memory address of a
// value's ArrayBuffer on every put, and a Buffer of its own per row made that a tenth of fan-out's time.
const SLAB_BYTES = 64 * 1024;
let slab = Buffer.allocUnsafeSlow(0);
let slabUsed = 0;

/** `size` bytes for a row to put or remove, cut from the current slab (never handed out twice). */
export function rowBytes(size: number): Buffer {
  if (slabUsed + size > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    slabUsed = 0;
  }
  slabUsed += size;
  return slab.subarray(slabUsed - size, slabUsed);
}

/** An id in a buffer of its own: a range bound or a point lookup. */
export function idBound(id: string): Buffer {
  const bytes = Buffer.alloc(ID_BYTES);
  bytes.writeBigUInt64BE(BigInt(id));
  return bytes;
}

/** A packed id read back, as lib/ids writes ids (zero-padded to ID_WIDTH). */
export const unpackedId = (value: bigint): string => value.toString().padStart(ID_WIDTH, "0");
