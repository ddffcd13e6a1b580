// The media variants of the public streams through real sockets: `public:media` and `public:local:media`
// (WebSocket subscriptions and SSE with only_media) carry statuses with attachments only, while `public`
// carries every public status. A listening server and jobs on worker threads, as in production.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import sharp from "sharp";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { newUser, postStatus, type User } from "../http/timelines-helpers.ts";

setDefaultTimeout(30_000);

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
  t.app.listen({ port: 0, hostname: "127.0.0.1" });
  base = `http://127.0.0.1:${t.app.server!.port}`;
});
afterAll(async () => {
  await t.app.stop(true);
  await t.close();
});

async function until<T>(probe: () => T | undefined, what: string, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}

/** Lets pending work (fan-out in the workers) finish before asserting absence. */
async function settle(): Promise<void> {
  await t.deps.jobs.drain();
  await Bun.sleep(250);
  await t.deps.jobs.drain();
}

async function uploadImage(user: User): Promise<string> {
  const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3a7" } }).jpeg().toBuffer();
  const body = new FormData();
  body.set("file", new File([bytes], "photo.jpg", { type: "image/jpeg" }));
  body.set("description", "a green rectangle");
  const res = await t.request("/api/v2/media", { method: "POST", token: user.token, body });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

interface WsMessage {
  stream?: string[];
  event?: string;
  payload?: string;
}

class WsClient {
  messages: WsMessage[] = [];
  constructor(readonly socket: WebSocket) {
    socket.onmessage = (e) => this.messages.push(JSON.parse(String(e.data)));
  }
  async subscribe(stream: string) {
    this.socket.send(JSON.stringify({ type: "subscribe", stream }));
    await Bun.sleep(30);
  }
  updates(stream: string): any[] {
    return this.messages.filter((m) => m.event === "update" && m.stream?.join(":") === stream).map((m) => JSON.parse(m.payload!));
  }
  close() {
    this.socket.close();
  }
}

async function ws(token: string): Promise<WsClient> {
  const socket = new WebSocket(`${base.replace("http", "ws")}/api/v1/streaming?access_token=${token}`);
  const client = new WsClient(socket);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error("websocket failed to open"));
  });
  return client;
}

/** The ids of the `update` events of an SSE stream, as they arrive. */
class SseUpdates {
  ids: string[] = [];
  private reader: { read(): Promise<{ value?: Uint8Array; done: boolean }>; cancel(): Promise<void> };
  opened = false;
  constructor(response: Response) {
    this.reader = response.body!.getReader();
    void this.pump();
  }
  private async pump() {
    const decoder = new TextDecoder();
    let buffer = "";
    let event = "";
    for (;;) {
      const { value, done } = await this.reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 1);
        if (line.startsWith(":")) this.opened = true;
        else if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ") && event === "update") this.ids.push(JSON.parse(line.slice(6)).id);
      }
    }
  }
  close() {
    void this.reader.cancel().catch(() => {});
  }
}

async function sse(path: string, token: string): Promise<SseUpdates> {
  const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const client = new SseUpdates(res);
  await until(() => (client.opened ? true : undefined), "the opening comment");
  return client;
}

describe("media streams", () => {
  test("public:media and public:local:media get the status with media only; public gets both; public:remote:media neither", async () => {
    const [reader, author] = [await newUser(t, "reader"), await newUser(t, "author")];
    const socket = await ws(reader.token);
    for (const stream of ["public:media", "public:local:media", "public", "public:remote:media"]) await socket.subscribe(stream);
    const sseMedia = await sse("/api/v1/streaming/public?only_media=true", reader.token);
    const sseLocalMedia = await sse("/api/v1/streaming/public/local?only_media=true", reader.token);

    const textOnly = await postStatus(t, author, "just words");
    const mediaId = await uploadImage(author);
    const withMedia = await postStatus(t, author, { status: "a picture", media_ids: [mediaId] });

    for (const stream of ["public:media", "public:local:media"]) {
      const first = await until(() => socket.updates(stream)[0], `the first update on ${stream}`);
      expect(first.id).toBe(withMedia.id);
      expect(first.media_attachments.map((m: any) => [m.id, m.type, m.description])).toEqual([[mediaId, "image", "a green rectangle"]]);
    }
    await until(() => (socket.updates("public").length === 2 ? true : undefined), "both updates on public");
    await until(() => (sseMedia.ids.length && sseLocalMedia.ids.length ? true : undefined), "the SSE updates");
    await settle();

    expect(socket.updates("public:media").map((s) => s.id)).toEqual([withMedia.id]);
    expect(socket.updates("public:local:media").map((s) => s.id)).toEqual([withMedia.id]);
    expect(socket.updates("public").map((s) => s.id)).toEqual([textOnly.id, withMedia.id]);
    expect(socket.updates("public").map((s) => s.media_attachments.length)).toEqual([0, 1]);
    expect(socket.updates("public:remote:media")).toEqual([]);
    expect(sseMedia.ids).toEqual([withMedia.id]);
    expect(sseLocalMedia.ids).toEqual([withMedia.id]);
    socket.close();
    sseMedia.close();
    sseLocalMedia.close();
  });
});
