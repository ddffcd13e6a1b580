// Streaming (API.md §12) on the main server: GET /api/v1/streaming/health, the SSE paths and the WebSocket.
import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps.ts";
import { sseRoutes } from "./sse.ts";
import { websocketRoutes } from "./websocket.ts";

export const streamingRoutes = (deps: AppDeps) =>
  new Elysia({ name: "streaming-routes", seed: deps.store.dir })
    .get("/api/v1/streaming/health", ({ set }) => {
      set.headers["content-type"] = "text/plain; charset=utf-8";
      return "OK";
    }, {
      response: { 200: t.String() },
      detail: { summary: "Is streaming available? Answers OK", tags: ["streaming"] },
    })
    .use(sseRoutes(deps))
    .use(websocketRoutes(deps));
