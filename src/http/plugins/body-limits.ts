// Limits on what a request may make the server hold: the request line, the headers and the body. A body
// is refused from its Content-Length before a byte is read, counted while it streams in (chunked bodies
// declare no length), and dropped when it has not all arrived in time (config.bodyTimeoutMs). Uploads get
// their route's own limit, declared on the route's body schema with `uploadLimit()`; every other body gets
// `config.maxBodyBytes` (1 MiB).
import type { TSchema } from "@sinclair/typebox";
import { ApiError, PayloadTooLarge, RequestTimeout } from "../../lib/errors.ts";
import { targetStart } from "../url.ts";

/** Longest request target (path and query) answered; longer ones get 414. Bun itself refuses past 16 KiB. */
export const MAX_URL_BYTES = 8 * 1024;
/** Largest header section answered; larger ones get 431. Bun itself refuses past 16 KiB. */
export const MAX_HEADER_BYTES = 12 * 1024;

const UPLOAD_LIMIT = "x-max-body-bytes";

/** Marks a route's body schema as an upload of at most `bytes` (multipart files and their fields). */
export function uploadLimit<T extends TSchema>(schema: T, bytes: number): T {
  (schema as Record<string, unknown>)[UPLOAD_LIMIT] = bytes;
  return schema;
}

export function bodyLimitOf(schema: TSchema | undefined, fallback: number): number {
  const declared = (schema as Record<string, unknown> | undefined)?.[UPLOAD_LIMIT];
  return typeof declared === "number" ? declared : fallback;
}

class UriTooLong extends ApiError {
  constructor() {
    super(414, `Request URI too long (the limit is ${MAX_URL_BYTES} bytes)`);
  }
}

class HeadersTooLarge extends ApiError {
  constructor() {
    super(431, `Request header fields too large (the limit is ${MAX_HEADER_BYTES} bytes)`);
  }
}

/** Refuses a request line or header section over the limits (checked before routing). */
export function checkRequestHead(request: Request): void {
  const url = request.url;
  const target = url.length - targetStart(url);
  if (target > MAX_URL_BYTES) throw new UriTooLong();
  headerBytes = 0;
  request.headers.forEach(countHeader);
  if (headerBytes > MAX_HEADER_BYTES) throw new HeadersTooLarge();
}

// One callback for every request, not a closure made per request.
let headerBytes = 0;
const countHeader = (value: string, name: string) => {
  headerBytes += name.length + value.length + 4;
};

// Requests whose body was read to its end. An error answered before that (401 before the body, 413 or 408
// part-way) closes the connection, so the client is not left sending the rest to a server that ignores it.
const bodiesRead = new WeakSet<Request>();

/** Whether part of the request's body may still be on its way (the connection must not be reused). */
export function bodyLeftUnread(request: Request): boolean {
  if (bodiesRead.has(request)) return false;
  const declared = request.headers.get("content-length");
  return (declared !== null && declared !== "0") || request.headers.has("transfer-encoding");
}

/**
 * Hands the body to `take` chunk by chunk (awaiting each, so a slow consumer slows the sender), refusing it
 * past `limit` bytes or when it has not all arrived after `timeoutMs`. Answers the number of bytes.
 */
export async function streamBody(
  request: Request,
  limit: number,
  timeoutMs: number,
  take: (chunk: Uint8Array) => void | Promise<void>,
): Promise<number> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) throw new PayloadTooLarge(limit);
  if (!request.body) {
    bodiesRead.add(request);
    return 0;
  }
  const reader = request.body.getReader();
  // The time-out cancels the stream, which ends a pending read. (A Promise.race against one long-lived
  // deadline promise kept every chunk read reachable from that promise until the body ended.)
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void reader.cancel().catch(() => {});
  }, timeoutMs);
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (timedOut) throw new RequestTimeout();
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw new PayloadTooLarge(limit);
      await take(value);
    }
  } catch (error) {
    void reader.cancel().catch(() => {});
    throw timedOut ? new RequestTimeout() : error;
  } finally {
    clearTimeout(timer);
  }
  bodiesRead.add(request);
  return size;
}

/** Reads the whole body into memory, under the limits of streamBody. */
export async function readBody(request: Request, limit: number, timeoutMs: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const size = await streamBody(request, limit, timeoutMs, (chunk) => {
    chunks.push(chunk);
  });
  if (size === 0) return new Uint8Array(0);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}
