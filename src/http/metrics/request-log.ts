// WARREN_LOG_FORMAT=json: each request gets an id, sent back as X-Request-Id (as Mastodon does) and carried
// by every log line written while it is handled (lib/log.ts requestScope), and one `request` line is logged
// once it is answered (method, route pattern, status, milliseconds). In the default text format this plugin
// is empty: no per-request cost.
import { Elysia } from "elysia";
import { jsonLogs, log, requestScope } from "../../lib/log.ts";
import { randomSecret } from "../../lib/secrets.ts";
import { statusOf } from "./instrument.ts";

/** Unique per process run: a random prefix and a counter (cheaper than a UUID per request). */
const prefix = randomSecret(6);
let sequence = 0;

const STARTED = Symbol("warren.requestStarted");

export function requestLogPlugin() {
  const plugin = new Elysia({ name: "warren-request-log" });
  if (!jsonLogs) return plugin;
  return plugin
    .onRequest((context) => {
      const id = `${prefix}-${(++sequence).toString(36)}`;
      // Entered for the rest of this request's handling: its hooks, handler and error handler.
      requestScope.enterWith({ id });
      context.set.headers["x-request-id"] = id;
      (context as { [STARTED]?: number })[STARTED] = performance.now();
    })
    .onAfterResponse({ as: "global" }, (context) => {
      const { request, route, set, responseValue, error } = context as typeof context & { responseValue?: unknown; error?: unknown };
      const started = (context as { [STARTED]?: number })[STARTED] ?? performance.now();
      const status = statusOf(set, responseValue, error);
      log.info("request", { method: request.method, route: route || "(unmatched)", status, ms: Math.round((performance.now() - started) * 10) / 10 });
    });
}
