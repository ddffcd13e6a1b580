// Server-sent events: GET /api/v1/streaming/<stream> keeps the response open and writes
// `event: <name>\ndata: <payload>\n\n` frames, a `:)` comment first and a `:thump` comment every 15 s.
import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps.ts";
import { openChannel, type StreamName, type StreamViewer } from "../../domain/streaming/channels.ts";
import type { StreamClient, StreamHub } from "../../domain/streaming/hub.ts";
import { ErrorBody, Flag, toBool, type FlagValue } from "../schemas.ts";
import { authenticateStream, streamHub } from "./hub.ts";

/** A client this far behind (queued frames) is dropped rather than buffered without end. */
const MAX_QUEUED = 10_000;

const encoder = new TextEncoder();

function eventStream(hub: StreamHub, viewer: StreamViewer, request: Request, subscribe: (client: StreamClient) => void): Response {
  let client: StreamClient | null = null;
  const done = () => client && hub.disconnect(client);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const write = (text: string) => {
        if (!open) return;
        if ((controller.desiredSize ?? 0) < -MAX_QUEUED) return client?.close();
        controller.enqueue(encoder.encode(text));
      };
      client = {
        viewer,
        send: (_stream, event, payload) => write(`event: ${event}\ndata: ${payload}\n\n`),
        heartbeat: () => write(":thump\n"),
        close: () => {
          if (!open) return;
          open = false;
          done();
          controller.close();
        },
      };
      write(":)\n");
      subscribe(client);
    },
    cancel: () => {
      done();
    },
  });
  request.signal.addEventListener("abort", done);
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no" },
  });
}

const StreamQuery = t.Object({
  access_token: t.Optional(t.String({ description: "The user token, when no Authorization header can be sent" })),
  only_media: t.Optional(Flag({ description: "Public streams: only statuses with media (the :media variants)" })),
  tag: t.Optional(t.String({ description: "Hashtag streams: the hashtag" })),
  list: t.Optional(t.String({ description: "List stream: the id of one of your lists" })),
});

type Query = typeof StreamQuery.static;

function media(query: Query): boolean {
  return toBool(query.only_media as FlagValue | undefined);
}

type Context = { request: Request; query: Query; server: unknown };

export const sseRoutes = (deps: AppDeps) => {
  const hub = streamHub(deps);
  const open = (name: (query: Query) => StreamName) => ({ request, query, server }: Context) => {
    const viewer = authenticateStream(deps, request);
    const channel = openChannel(deps.store, viewer, name(query), { tag: query.tag, list: query.list });
    // The stream is long-lived: no idle timeout (heartbeats keep proxies from closing it).
    (server as { timeout?: (request: Request, seconds: number) => void } | null)?.timeout?.(request, 0);
    return eventStream(hub, viewer, request, (client) => hub.subscribe(client, channel));
  };
  const options = (summary: string) => ({
    query: StreamQuery,
    response: { 200: t.String({ description: "text/event-stream" }), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 422: ErrorBody },
    detail: { summary: `Server-sent events: ${summary}`, tags: ["streaming"], security: [{ bearer: ["read:statuses"] }] },
  });
  return new Elysia({ name: "streaming-sse-routes", seed: deps.store.dir })
    .get("/api/v1/streaming/user", open(() => "user"), options("your home timeline, notifications and filter changes"))
    .get("/api/v1/streaming/user/notification", open(() => "user:notification"), options("your notifications"))
    .get("/api/v1/streaming/public", open((q) => (media(q) ? "public:media" : "public")), options("the public timeline"))
    .get("/api/v1/streaming/public/local", open((q) => (media(q) ? "public:local:media" : "public:local")), options("public statuses of local users"))
    .get("/api/v1/streaming/public/remote", open((q) => (media(q) ? "public:remote:media" : "public:remote")), options("public statuses from other servers"))
    .get("/api/v1/streaming/hashtag", open(() => "hashtag"), options("public statuses with a hashtag (tag=)"))
    .get("/api/v1/streaming/hashtag/local", open(() => "hashtag:local"), options("local public statuses with a hashtag (tag=)"))
    .get("/api/v1/streaming/list", open(() => "list"), options("one of your lists (list=)"))
    .get("/api/v1/streaming/direct", open(() => "direct"), options("direct statuses you wrote or are mentioned in"));
};
