// WebSocket streaming at /api/v1/streaming: one socket, several streams. The client sends
// {"type":"subscribe"|"unsubscribe","stream":…,"tag"?,"list"?}; the server sends
// {"stream":[…],"event":…,"payload":"<JSON string>"} text frames, pings every 30 s, and closes the socket
// with 1003 on a binary frame. `?stream=…` subscribes at once. Needs a real server (Bun's upgrade).
import { Elysia, t } from "elysia";
import type { AppDeps } from "../../deps.ts";
import { openChannel, type Channel, type StreamViewer } from "../../domain/streaming/channels.ts";
import type { StreamClient, StreamHub } from "../../domain/streaming/hub.ts";
import { authenticateStream, streamHub, wsError } from "./hub.ts";

/** The Bun socket, as far as this file uses it. */
interface Socket {
  data: Record<string, unknown>;
  send(text: string): unknown;
  ping(): unknown;
  close(code?: number, reason?: string): void;
}

interface Session {
  client: StreamClient;
  viewer: StreamViewer;
}

function session(socket: Socket): Session | undefined {
  return socket.data.streamSession as Session | undefined;
}

function socketClient(socket: Socket, viewer: StreamViewer): StreamClient {
  let beats = 0;
  return {
    viewer,
    send: (stream, event, payload) => {
      socket.send(JSON.stringify(payload === undefined ? { stream, event } : { stream, event, payload }));
    },
    // Heartbeats come every 15 s; Mastodon pings sockets every 30 s.
    heartbeat: () => {
      if (++beats % 2 === 0) socket.ping();
    },
    close: () => socket.close(1000, "token revoked"),
  };
}

interface StreamMessage {
  type?: unknown;
  stream?: unknown;
  tag?: unknown;
  list?: unknown;
}

const text = (value: unknown) => (typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined);
/** `stream` may be a name or, as some clients send it, an array whose first element is the name. */
const streamName = (value: unknown) => text(Array.isArray(value) ? value[0] : value) ?? "";

function channelOf(deps: AppDeps, viewer: StreamViewer, message: StreamMessage): Channel {
  return openChannel(deps.store, viewer, streamName(message.stream), { tag: text(message.tag), list: text(message.list) });
}

function handleMessage(deps: AppDeps, hub: StreamHub, socket: Socket, message: unknown): void {
  const current = session(socket);
  if (!current) return;
  if (message instanceof Uint8Array || message instanceof ArrayBuffer) return socket.close(1003, "binary frames are not supported");
  if (typeof message !== "object" || message === null) return;
  const request = message as StreamMessage;
  try {
    if (request.type === "subscribe") hub.subscribe(current.client, channelOf(deps, current.viewer, request));
    else if (request.type === "unsubscribe") hub.unsubscribe(current.client, channelOf(deps, current.viewer, request));
  } catch (error) {
    socket.send(wsError(error));
  }
}

const ConnectQuery = t.Object({
  access_token: t.Optional(t.String({ description: "The user token (or send it as Sec-WebSocket-Protocol, or Authorization)" })),
  stream: t.Optional(t.String({ description: "A stream to subscribe to at once" })),
  tag: t.Optional(t.String()),
  list: t.Optional(t.String()),
});

export const websocketRoutes = (deps: AppDeps) => {
  const hub = streamHub(deps);
  return new Elysia({ name: "streaming-websocket-routes", seed: deps.store.dir }).ws("/api/v1/streaming", {
    query: ConnectQuery,
    // A token sent as the sub-protocol must be echoed, or browsers drop the connection.
    upgrade({ request, set }) {
      const protocol = request.headers.get("sec-websocket-protocol")?.split(",")[0]?.trim();
      if (protocol) set.headers["sec-websocket-protocol"] = protocol;
    },
    beforeHandle(context) {
      (context as unknown as Record<string, unknown>).streamViewer = authenticateStream(deps, context.request);
    },
    open(ws) {
      const socket = ws.raw as unknown as Socket;
      const viewer = socket.data.streamViewer as StreamViewer;
      const client = socketClient(socket, viewer);
      socket.data.streamSession = { client, viewer } satisfies Session;
      hub.connect(client);
      const query = socket.data.query as { stream?: string; tag?: string; list?: string } | undefined;
      if (query?.stream) handleMessage(deps, hub, socket, { type: "subscribe", ...query });
    },
    message(ws, message) {
      handleMessage(deps, hub, ws.raw as unknown as Socket, message);
    },
    close(ws) {
      const current = session(ws.raw as unknown as Socket);
      if (current) hub.disconnect(current.client);
    },
    detail: { summary: "WebSocket streaming (subscribe/unsubscribe messages; several streams per socket)", tags: ["streaming"] },
  });
};
