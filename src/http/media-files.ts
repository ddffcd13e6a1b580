// GET and HEAD /system/*: stored media files (avatars, headers, status attachments) from `<dataDir>/media`.
// Names are random and never reused, so a file never changes: answers are cacheable for a year and the
// strong ETag comes from the name and size alone. Paths that could leave the media directory, dot files
// and unknown extensions are 404, like missing files. User uploads are served with nosniff and a
// sandboxing CSP, so a file can never run as a page of this origin.
//
// Range requests (for video and audio players) follow RFC 9110 §14: one range `bytes=a-b`, `bytes=a-` or
// `bytes=-n` is 206 with that slice, read from disk as it is sent; a range starting past the end (or an
// empty suffix, or any range of an empty file) is 416. A Range that is not valid syntax (another unit,
// `a-b` with b < a, garbage) is ignored and the whole file is 200, as is a list of several ranges (RFC
// 9110 lets a server ignore Range). If-Range is honoured: a range is served only when If-Range is our ETag
// or our Last-Modified date, otherwise the whole file. If-None-Match with our ETag (or `*`) is 304.
//
// With media on object storage (WARREN_S3_*), the API's URLs point to the bucket's public URL; a `/system/…`
// URL (in a federated copy or a client's cache from before the move) is a 302 to the same key there. Not
// permanent: an operator may move media back (`warren media migrate --to=local`).
import { basename } from "node:path";
import { Elysia, t } from "elysia";
import type { Deps } from "../deps.ts";
import { NotFound } from "../lib/errors.ts";
import { MEDIA_URL_PREFIX, mediaFileInfo, mediaFileInfoSync, mediaKey, mediaUrl, type StoredMediaFile } from "../media/storage.ts";
import type { Config } from "../config.ts";
import { ErrorBody } from "./schemas.ts";
import { cachePlugin } from "./plugins/cache.ts";

/** The one range to serve (inclusive bounds), "unsatisfiable", or null for the whole file. */
function parseRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const match = header ? /^bytes=\s*(\d*)-(\d*)\s*$/i.exec(header) : null;
  if (!match) return null;
  const [first, last] = [match[1]!, match[2]!];
  if (!first && !last) return null;
  if (!first) {
    const suffix = Number(last);
    return suffix > 0 && size > 0 ? { start: Math.max(0, size - suffix), end: size - 1 } : "unsatisfiable";
  }
  const start = Number(first);
  const end = last ? Number(last) : Infinity;
  if (end < start) return null;
  return start < size ? { start, end: Math.min(end, size - 1) } : "unsatisfiable";
}

/** Whether an If-None-Match list names this strong ETag (weak comparison, RFC 9110 §13.1.2). */
function matchesETag(header: string, etag: string): boolean {
  return header.split(",").some((tag) => {
    const trimmed = tag.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "") === etag;
  });
}

function answer(request: Request, stored: StoredMediaFile): Response {
  const etag = `"${Bun.hash(`${basename(stored.file)}:${stored.size}`).toString(36)}"`;
  const lastModified = stored.modified.toUTCString();
  const headers: Record<string, string> = {
    "cache-control": "public, max-age=31536000, immutable",
    etag,
    "last-modified": lastModified,
    "accept-ranges": "bytes",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    vary: "Authorization", // as on every answer (plugins/cache.ts), which HEAD answered early would miss
  };
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && matchesETag(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });

  const ifRange = request.headers.get("if-range");
  const rangeHeader = ifRange && ifRange !== etag && ifRange !== lastModified ? null : request.headers.get("range");
  const range = parseRange(rangeHeader, stored.size);
  if (range === "unsatisfiable") {
    return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${stored.size}` } });
  }
  const file = Bun.file(stored.file);
  const body = range ? file.slice(range.start, range.end + 1) : file;
  headers["content-type"] = stored.contentType;
  headers["content-length"] = String(body.size);
  if (range) headers["content-range"] = `bytes ${range.start}-${range.end}/${stored.size}`;
  return new Response(request.method === "HEAD" ? null : body, { status: range ? 206 : 200, headers });
}

/** With object storage: the redirect to where a `/system/…` path lives now, or null for a path we never write. */
function redirectToBucket(config: Config, request: Request): Response | null {
  const path = new URL(request.url).pathname;
  if (!mediaKey(path)) return null;
  const headers = { location: mediaUrl(config, path)!, "cache-control": "public, max-age=3600", vary: "Authorization" };
  return new Response(null, { status: 302, headers });
}

const response = {
  200: t.Any({ description: "The whole file (image/*, video/mp4, video/webm, audio/mpeg, audio/ogg); none for HEAD" }),
  206: t.Any({ description: "The requested byte range (Content-Range: bytes a-b/size); none for HEAD" }),
  302: t.Any({ description: "With object storage: the file is at Location (the bucket's public URL); no body" }),
  304: t.Any({ description: "Not modified: If-None-Match names the file's ETag; no body" }),
  404: ErrorBody,
  416: t.Any({ description: "Range not satisfiable (Content-Range: bytes */size); no body" }),
};
const detail = (summary: string) => ({
  summary,
  description: "One byte range (Range, If-Range) and If-None-Match are supported. Several ranges or an invalid Range give the whole file.",
  tags: ["media"],
});

export const mediaFileRoutes = (deps: Deps) => {
  // The raw path, not Elysia's decoded parameter: each segment is decoded and checked on its own.
  const handler = async ({ request }: { request: Request }) => {
    if (deps.config.s3) {
      const redirect = redirectToBucket(deps.config, request);
      if (redirect) return redirect;
      throw new NotFound();
    }
    const stored = await mediaFileInfo(deps.config, new URL(request.url).pathname);
    if (!stored) throw new NotFound();
    return answer(request, stored);
  };
  const headAnswer = (request: Request): Response | undefined => {
    if (deps.config.s3) return redirectToBucket(deps.config, request) ?? undefined;
    const stored = mediaFileInfoSync(deps.config, new URL(request.url).pathname);
    return stored ? answer(request, stored) : undefined;
  };
  return (
    new Elysia({ name: "media-file-routes", seed: deps.store.dir })
      .use(cachePlugin)
      // Elysia answers HEAD on a wildcard path with the GET route, reading the whole body to count its
      // length (the HEAD route below is never reached): HEAD of a stored file is answered here first, from
      // its size. A missing file goes on to the GET route and its 404.
      // (Its source returns no call's value: Elysia would take it for an async hook and await it on every request.)
      .onRequest(({ request }) => {
        const head = request.method === "HEAD" && request.url.includes(MEDIA_URL_PREFIX) ? headAnswer(request) : undefined;
        return head;
      })
      .get("/system/*", handler, { response, detail: detail("A stored media file (avatar, header, attachment)") })
      .head("/system/*", handler, { response, detail: detail("The headers of a stored media file, without its body") })
  );
};
