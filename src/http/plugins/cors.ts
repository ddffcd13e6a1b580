// Cross-origin access for browser clients (Elk, Phanpy, the web UIs of other servers), as Mastodon allows:
// any origin may call the API, OAuth's token endpoints and the discovery documents, without cookies.
import { Elysia } from "elysia";
import { pathAndQuery } from "../url.ts";

const CORS_PATHS = /^\/(api\/|oauth\/(token|revoke|userinfo)|\.well-known\/|nodeinfo\/)/;
const EXPOSED = "Link, X-RateLimit-Reset, X-RateLimit-Limit, X-RateLimit-Remaining, X-Request-Id, Idempotency-Key, Mastodon-Async-Refresh";
const METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";

// Only requests that carry an Origin (browsers) get CORS headers, as with Rails' rack-cors: other clients
// would just carry them around.
export const corsPlugin = new Elysia({ name: "warren-cors" }).onRequest(({ request, set }) => {
  if (!request.headers.has("origin") || !CORS_PATHS.test(pathAndQuery(request.url)[0])) return;
  set.headers["access-control-allow-origin"] = "*";
  set.headers["access-control-expose-headers"] = EXPOSED;
  if (request.method === "OPTIONS" && request.headers.has("access-control-request-method")) {
    return new Response(null, {
      status: 204,
      headers: {
        "access-control-allow-origin": "*",
        "access-control-allow-methods": METHODS,
        "access-control-allow-headers": request.headers.get("access-control-request-headers") ?? "Authorization, Content-Type",
        "access-control-max-age": "7200",
        vary: "Authorization, Origin, Access-Control-Request-Headers",
      },
    });
  }
});
