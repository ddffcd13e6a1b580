// Keys and values made of ids only, packed (schema 9, docs/disk.md): an id is 8 big-endian bytes in place of
// ordered-binary's 18 digits and a separator, so a key of two ids is 16 bytes where it was 38. The 8 bytes of
// ids sort as the ids do (store/packed-rows.ts), so a keyspace keeps its order and its range scans: keys are
// still arrays of id strings to the code, and END (the upper bound of a prefix) is 8 bytes of 0xff.
import { ID_BYTES, unpackedId } from "./packed-rows.ts";

/** The upper bound of a prefix in range scans: handle.ts's END, which this file cannot import (keys.ts does). */
const END = "\uffff";

/** The longest key of a packed keyspace: three ids. */
const MAX_TUPLE_BYTES = 3 * ID_BYTES;

/** Writes one id (or END) at `position` of `target`; returns the position after it. */
function writeId(id: string, target: Uint8Array, position: number): number {
  const view = new DataView(target.buffer, target.byteOffset + position, ID_BYTES);
  view.setBigUint64(0, id === END ? 0xffff_ffff_ffff_ffffn : BigInt(id));
  return position + ID_BYTES;
}

function readId(source: Uint8Array, position: number): string {
  return unpackedId(new DataView(source.buffer, source.byteOffset + position, ID_BYTES).getBigUint64(0));
}

/**
 * lmdb-js keyEncoder of the packed keyspaces: a key is an id or an array of ids (a prefix of the keyspace's
 * tuple for range bounds), each written as 8 bytes. An element that is not an id cannot be stored: a key
 * built from one throws, as lmdb-js does for any key it cannot encode.
 */
export const ID_TUPLE_KEYS = {
  writeKey(key: string | string[] | Uint8Array, target: Uint8Array, position: number): number {
    // lmdb-js starts a range without `start` (and ends a reverse one) at a bound of its own, a byte 5 that
    // would skip ids whose first byte is lower: the beginning of a packed keyspace is a byte 0.
    if (key instanceof Uint8Array) target[position++] = 0;
    else if (!Array.isArray(key)) position = writeId(key, target, position);
    else for (const part of key) position = writeId(part, target, position);
    // lmdb-js compares a key it was given with a stored one 4 bytes at a time over the stored key's length,
    // reading past the given key's end (compareFast, which expects it "zero terminated/padded"): a prefix
    // must be followed by zeros as far as the longest stored key reaches, or a range starts anywhere.
    target.fill(0, position, Math.min(target.length, position + MAX_TUPLE_BYTES));
    return position;
  },
  readKey(source: Uint8Array, start: number, end: number): string[] {
    const key: string[] = [];
    for (let position = start; position + ID_BYTES <= end; position += ID_BYTES) key.push(readId(source, position));
    return key;
  },
  // lmdb-js reads a keyEncoder without this as binary keys (Buffers) and never calls the two above.
  enableNullTermination() {},
};

/** A value that is an id (8 bytes) or null (no bytes). */
export const ID_OR_NULL_VALUES = {
  encode: (value: string | null): Buffer => {
    if (value === null) return Buffer.alloc(0);
    const bytes = Buffer.alloc(ID_BYTES);
    writeId(value, bytes, 0);
    return bytes;
  },
  decode: (bytes: Uint8Array, size: number = bytes.length): string | null => (size === 0 ? null : readId(bytes, 0)),
};

/** lmdb-js options of a keyspace of id tuples whose values are ids or null. */
export const PACKED_ID_OPTIONS = { keyEncoder: ID_TUPLE_KEYS, encoding: "binary", encoder: ID_OR_NULL_VALUES } as const;
