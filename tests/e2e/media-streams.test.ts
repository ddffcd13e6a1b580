// The media variants of the public streams through real sockets: `public:media` and `public:local:media`
// (WebSocket subscriptions and SSE with only_media) carry statuses with attachments only, while `public`
// carries every public status. A listening server and jobs on worker threads, as in production.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { solidImage, uploadImage } from "../helpers/media.ts";
import { openSse, openWebSocket, settle, startListeningApp, stopListeningApp } from "../helpers/streaming.ts";
import { newUser, postStatus } from "../http/timelines-helpers.ts";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(30_000);

let t: TestApp;
let base: string;

beforeAll(async () => ({ t, base } = await startListeningApp()));
afterAll(() => stopListeningApp(t));

describe("media streams", () => {
  test("public:media and public:local:media get the status with media only; public gets both; public:remote:media neither", async () => {
    const [reader, author] = [await newUser(t, "reader"), await newUser(t, "author")];
    const socket = await openWebSocket(base, `?access_token=${reader.token}`);
    for (const stream of ["public:media", "public:local:media", "public", "public:remote:media"]) await socket.subscribe({ stream });
    const sseMedia = await openSse(base, "/api/v1/streaming/public?only_media=true", reader.token);
    const sseLocalMedia = await openSse(base, "/api/v1/streaming/public/local?only_media=true", reader.token);

    const textOnly = await postStatus(t, author, "just words");
    const mediaId = (await uploadImage(t, author.token, "a green rectangle", await solidImage(64, 48, "#3a7"))).id;
    const withMedia = await postStatus(t, author, { status: "a picture", media_ids: [mediaId] });

    for (const stream of ["public:media", "public:local:media"]) {
      const first = await eventually(() => socket.updates(stream)[0], { what: `the first update on ${stream}` });
      expect(first.id).toBe(withMedia.id);
      expect(first.media_attachments.map((m: any) => [m.id, m.type, m.description])).toEqual([[mediaId, "image", "a green rectangle"]]);
    }
    await eventually(() => (socket.updates("public").length === 2 ? true : undefined), { what: "both updates on public" });
    await eventually(() => (sseMedia.updates().length && sseLocalMedia.updates().length ? true : undefined), { what: "the SSE updates" });
    await settle(t);

    expect(socket.updates("public:media").map((s) => s.id)).toEqual([withMedia.id]);
    expect(socket.updates("public:local:media").map((s) => s.id)).toEqual([withMedia.id]);
    expect(socket.updates("public").map((s) => s.id)).toEqual([textOnly.id, withMedia.id]);
    expect(socket.updates("public").map((s) => s.media_attachments.length)).toEqual([0, 1]);
    expect(socket.updates("public:remote:media")).toEqual([]);
    expect(sseMedia.updates()).toEqual([withMedia.id]);
    expect(sseLocalMedia.updates()).toEqual([withMedia.id]);
    socket.close();
    sseMedia.close();
    sseLocalMedia.close();
  });
});
