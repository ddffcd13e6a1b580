// The one way Warren fetches a URL it was handed from outside: a GET that follows redirects itself, checking
// every hop with lib/url-safety.ts and connecting to exactly the address that was checked (the URL's host is
// replaced by that address; the Host header and, for https, the TLS server name and certificate check keep
// the real name), within a time budget and a byte limit.
import { bareHostname, resolveFetchTarget, type TargetPolicy } from "./url-safety.ts";

export class TooManyRedirects extends Error {}

export interface SafeFetchOptions extends TargetPolicy {
  /** Bytes of body read at most; a longer body is cut there and reported as truncated. */
  maxBytes: number;
  /** Redirects followed at most; one more is an error. */
  maxRedirects: number;
  /** Time budget for the whole fetch, redirects and body included. */
  timeoutMs: number;
  /** An outer budget shared with other fetches (a link card's page and its oEmbed document). */
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface SafeResponse {
  /** The URL that answered, after redirects. */
  url: URL;
  status: number;
  headers: Headers;
  body: Uint8Array;
  truncated: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The URL to request and the options that make Bun connect to `address` while speaking to `url`'s host. */
export function pinnedTo(url: URL, address: string): { target: URL; host?: string; serverName?: string } {
  if (bareHostname(url) === address) return { target: url };
  const target = new URL(url);
  target.hostname = address.includes(":") ? `[${address}]` : address;
  return { target, host: url.host, serverName: url.protocol === "https:" ? url.hostname : undefined };
}

async function readLimited(response: Response, maxBytes: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  if (response.body) {
    const reader = response.body.getReader();
    try {
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        if (size + value.length > maxBytes) {
          chunks.push(value.subarray(0, maxBytes - size));
          size = maxBytes;
          truncated = true;
          break;
        }
        chunks.push(value);
        size += value.length;
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return { body, truncated };
}

/** GETs `start`; throws UnsafeUrl, TooManyRedirects, or the fetch's own error (time-out, refused connection). */
export async function safeFetch(start: URL, options: SafeFetchOptions): Promise<SafeResponse> {
  const budget = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([budget, options.signal]) : budget;
  let url = start;
  for (let hop = 0; ; hop++) {
    const address = await resolveFetchTarget(url, options);
    const { target, host, serverName } = pinnedTo(url, address);
    const response = await fetch(target, {
      redirect: "manual",
      signal,
      headers: { ...options.headers, ...(host ? { host } : {}) },
      // A fresh connection per request: a pooled one could have been opened for another name.
      keepalive: false,
      ...(serverName ? { tls: { serverName } } : {}),
    });
    const location = REDIRECTS.has(response.status) ? response.headers.get("location") : null;
    if (!location) return { url, status: response.status, headers: response.headers, ...(await readLimited(response, options.maxBytes)) };
    await response.body?.cancel().catch(() => {});
    if (hop >= options.maxRedirects) throw new TooManyRedirects(`more than ${options.maxRedirects} redirects`);
    url = new URL(location, url); // relative to the name, not to the address it was pinned to
  }
}
