// LMDB refuses a key longer than its maximum (1978 bytes in lmdb-js: `maxKeySize`), and lmdb-js throws where
// it meets one: on a put, and on a range read as it positions its cursor. Many keys carry text a client or a
// remote server chose (tags, usernames, domains, URIs, e-mail addresses, client ids, reaction names, keywords),
// and a 2,000-letter hashtag in a search used to be a 500. Every keyspace is bounded here, in one place:
// a key too long to exist is a lookup that finds nothing (an empty range, a count of 0, a remove that removes
// nothing), and a write of one is refused with KeyTooLong, a 422, inside the write's transaction so nothing of
// it stays. Domain code checks lengths first where Mastodon names the limit; this is the floor under it.
import type { Database } from "lmdb";
import { Unprocessable } from "../lib/errors.ts";

/** lmdb-js's maximum key size in bytes (its default build; `maxKeySize` on every database). */
export const MAX_KEY_BYTES = 1978;

/** A write whose key could not be stored: text from a client or a peer longer than any name can be. */
export class KeyTooLong extends Unprocessable {
  constructor() {
    super("Validation failed: a name or address in this request is too long");
  }
}

// Below this many UTF-16 units a key fits whatever it holds (a unit is at most 3 bytes of UTF-8, a number at
// most 9 bytes, each element one separator byte): the common case costs a loop over lengths, no encoding.
const SURELY_FITS_UNITS = Math.floor((MAX_KEY_BYTES - 64) / 3);

function partBytes(part: unknown): number {
  if (typeof part === "string") return Buffer.byteLength(part);
  if (part instanceof Uint8Array) return part.length;
  return 9;
}

/** Whether an ordered-binary key (a string, number, or array of them) fits in an LMDB key. */
export function keyFits(key: unknown): boolean {
  if (typeof key === "string") return key.length <= SURELY_FITS_UNITS || Buffer.byteLength(key) <= MAX_KEY_BYTES;
  if (!Array.isArray(key)) return true;
  let units = 0;
  for (const part of key) units += typeof part === "string" ? part.length : 9;
  if (units <= SURELY_FITS_UNITS) return true;
  let bytes = key.length - 1;
  for (const part of key) bytes += partBytes(part);
  return bytes <= MAX_KEY_BYTES;
}

interface RangeOptions {
  start?: unknown;
  end?: unknown;
  key?: unknown;
}

const rangeFits = (options: RangeOptions | undefined) =>
  !options || (keyFits(options.start) && keyFits(options.end) && keyFits(options.key));

type Method = (...args: any[]) => any;

/**
 * Makes every method of `keyspace` that takes a key answer "nothing there" for a key too long to exist and
 * refuse to write one. A range bounded by such a key is empty: every range built from client text is a scan
 * of one prefix, so a prefix too long to store has no keys under it.
 */
export function boundKeys(keyspace: Database<any, any>): void {
  const ks = keyspace as unknown as Record<string, Method>;
  const wrap = (name: string, make: (original: Method) => Method) => {
    const original = ks[name]!.bind(keyspace);
    ks[name] = make(original);
  };
  // An empty range of the keyspace's own kind (so .map, .filter and .asArray work as on any other).
  const nothing = (original: Method) => original({ limit: 0 });
  for (const name of ["get", "getEntry", "getBinary"]) {
    wrap(name, (original) => (key, ...rest) => (keyFits(key) ? original(key, ...rest) : undefined));
  }
  wrap("doesExist", (original) => (key, ...rest) => keyFits(key) && original(key, ...rest));
  wrap("getValuesCount", (original) => (key, ...rest) => (keyFits(key) ? original(key, ...rest) : 0));
  const getRange = ks.getRange!.bind(keyspace);
  wrap("getValues", (original) => (key, options) => (keyFits(key) ? original(key, options) : nothing(getRange)));
  wrap("getRange", (original) => (options) => (rangeFits(options) ? original(options) : nothing(getRange)));
  wrap("getKeys", (original) => (options) => (rangeFits(options) ? original(options) : nothing(original)));
  wrap("getCount", (original) => (options) => (rangeFits(options) ? original(options) : 0));
  for (const name of ["put", "putSync", "ifNoExists"]) {
    wrap(name, (original) => (key, ...rest) => {
      if (!keyFits(key)) throw new KeyTooLong();
      return original(key, ...rest);
    });
  }
  for (const name of ["remove", "removeSync"]) {
    wrap(name, (original) => (key, ...rest) => (keyFits(key) ? original(key, ...rest) : false));
  }
}
