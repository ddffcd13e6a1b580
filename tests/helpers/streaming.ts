// Streaming through real sockets: a test app listening on a local port (Bun's WebSocket upgrade needs one),
// with jobs on worker threads (so stream signals cross from workers to the main thread), and the SSE and
// WebSocket clients the streaming tests read it with.
import { expect } from "bun:test";
import { startTestApp, type TestApp } from "./app.ts";
import { eventually } from "./eventually.ts";

export interface ListeningApp {
  t: TestApp;
  /** `http://127.0.0.1:<port>` */
  base: string;
}

/** A test app listening on a free local port, its jobs on two worker threads as in production. */
export async function startListeningApp(env: Record<string, string> = {}): Promise<ListeningApp> {
  const t = await startTestApp({ WARREN_JOB_WORKERS: "2", ...env });
  t.app.listen({ port: 0, hostname: "127.0.0.1" });
  return { t, base: `http://127.0.0.1:${t.app.server!.port}` };
}

export async function stopListeningApp(t: TestApp): Promise<void> {
  await t.app.stop(true);
  await t.close();
}

/**
 * Lets pending work finish before asserting absence: drain() returns once every job's outcome is recorded, and a
 * worker's stream signals come before its outcomes. The pause is kept for what is still on its way to an SSE
 * client (no message to it is answered; WebSocket tests can use WsClient.synced), and the second drain for jobs
 * that work enqueued meanwhile.
 */
export async function settle(t: TestApp): Promise<void> {
  await t.deps.jobs.drain();
  await Bun.sleep(250);
  await t.deps.jobs.drain();
}

// ---- SSE ----

export interface SseEvent {
  event: string;
  data: string;
}

export class SseClient {
  events: SseEvent[] = [];
  comments: string[] = [];
  /** the server ended the stream */
  ended = false;
  private reader: { read(): Promise<{ value?: Uint8Array; done: boolean }>; cancel(): Promise<void> };
  private buffer = "";

  constructor(readonly response: Response) {
    this.reader = response.body!.getReader();
    void this.pump();
  }

  private async pump() {
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await this.reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) {
        this.ended = true;
        return;
      }
      this.buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = this.buffer.indexOf("\n")) >= 0) {
        const line = this.buffer.slice(0, cut);
        this.buffer = this.buffer.slice(cut + 1);
        if (line.startsWith(":")) this.comments.push(line.slice(1));
        else if (line.startsWith("event: ")) this.events.push({ event: line.slice(7), data: "" });
        else if (line.startsWith("data: ")) this.events.at(-1)!.data = line.slice(6);
      }
    }
  }

  /** The status ids of the `update` events whose data has arrived, in order. */
  updates(): string[] {
    return this.events.filter((e) => e.event === "update" && e.data !== "").map((e) => JSON.parse(e.data).id);
  }

  close() {
    void this.reader.cancel().catch(() => {});
  }
}

/** Opens an event stream at `base + path`, checks it is one (200, text/event-stream) and waits for its opening comment. */
export async function openSse(base: string, path: string, token?: string): Promise<SseClient> {
  const res = await fetch(base + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/event-stream");
  const client = new SseClient(res);
  await eventually(() => (client.comments.includes(")") ? true : undefined), { what: "the opening comment" });
  return client;
}

// ---- WebSocket ----

export interface WsMessage {
  stream?: string[];
  event?: string;
  payload?: string;
  error?: string;
  status?: number;
}

/** A stream name no server knows, so that subscribing to it is answered at once (WsClient.synced). */
const SYNC_PROBE = "warren-test-sync-probe";

export class WsClient {
  messages: WsMessage[] = [];
  closed: { code: number } | null = null;
  constructor(readonly socket: WebSocket) {
    socket.onmessage = (e) => this.messages.push(JSON.parse(String(e.data)));
    socket.onclose = (e) => (this.closed = { code: e.code });
  }
  send(message: unknown) {
    this.socket.send(JSON.stringify(message));
  }
  /** Subscribes, and returns once the server has taken the subscription. */
  async subscribe(message: Record<string, unknown>) {
    this.send({ type: "subscribe", ...message });
    await this.synced();
  }
  /** Unsubscribes, and returns once the server has dropped the subscription. */
  async unsubscribe(message: Record<string, unknown>) {
    this.send({ type: "unsubscribe", ...message });
    await this.synced();
  }
  /**
   * Returns once the server has handled every message sent before (and the subscriptions of `?stream=`, taken
   * as the socket opens): it handles a socket's messages in order, and answers a subscription to an unknown
   * stream with an error, which is awaited here and then left out of `messages`.
   */
  async synced() {
    const before = this.messages.length;
    this.send({ type: "subscribe", stream: SYNC_PROBE });
    const answer = await eventually(() => this.messages.slice(before).find((m) => m.error === "Unknown stream type"), { what: "the answer to a probe" });
    this.messages.splice(this.messages.indexOf(answer), 1);
  }
  /** The messages of this event, on streams whose first part is `stream` if given. */
  events(event: string, stream?: string) {
    return this.messages.filter((m) => m.event === event && (!stream || m.stream?.[0] === stream));
  }
  updateIds(stream?: string) {
    return this.events("update", stream).map((m) => JSON.parse(m.payload!).id as string);
  }
  /** The statuses of the `update` events on exactly this stream (its parts joined by ":", e.g. "public:local:media"). */
  updates(stream: string): any[] {
    return this.messages.filter((m) => m.event === "update" && m.stream?.join(":") === stream).map((m) => JSON.parse(m.payload!));
  }
  close() {
    this.socket.close();
  }
}

/** Opens a WebSocket on `/api/v1/streaming<query>` of the app at `base` and waits until it is open. */
export async function openWebSocket(base: string, query = "", protocols?: string[], headers?: Record<string, string>): Promise<WsClient> {
  const url = `${base.replace("http", "ws")}/api/v1/streaming${query}`;
  const socket = headers ? new WebSocket(url, { headers } as any) : new WebSocket(url, protocols);
  const client = new WsClient(socket);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error("websocket failed to open"));
  });
  return client;
}
