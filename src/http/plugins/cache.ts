// HTTP caching headers. Every response varies on Authorization. Routes serving public data opt in with
// `{ publicCache: seconds }`: anonymous GETs may then be cached by proxies; with a token they are private.
// `{ publicCache: { seconds, always: true } }` caches even authenticated answers (instance information).
import { Elysia } from "elysia";

type CacheOption = number | { seconds: number; always: boolean };

function publicValue(seconds: number): string {
  return `public, max-age=${seconds}, stale-while-revalidate=30, stale-if-error=86400`;
}

export const cachePlugin = new Elysia({ name: "warren-cache" })
  .onAfterHandle({ as: "global" }, ({ set }) => {
    set.headers["vary"] = "Authorization";
    set.headers["cache-control"] ??= "private, no-store";
  })
  .macro({
    publicCache: (option: CacheOption) => ({
      beforeHandle({ request, set }) {
        const seconds = typeof option === "number" ? option : option.seconds;
        const always = typeof option === "object" && option.always;
        // A token in the query (access_token= or bearer_token=) makes the answer personal too.
        const anonymous = !request.headers.has("authorization") && !request.url.includes("_token=");
        const read = request.method === "GET" || request.method === "HEAD";
        if (read && (always || anonymous)) set.headers["cache-control"] = publicValue(seconds);
      },
    }),
  });
