// The parts of a request URL that the plugins read before routing, without building a URL object (they run
// on every request).

/** Where the request target (path and query) starts in an absolute URL. */
export function targetStart(url: string): number {
  return url.indexOf("/", url.indexOf("//") + 2);
}

/** The path and the raw query string (without "?") of an absolute URL. */
export function pathAndQuery(url: string): [string, string] {
  const start = targetStart(url);
  const q = url.indexOf("?", start);
  return q < 0 ? [url.slice(start), ""] : [url.slice(start, q), url.slice(q + 1)];
}
