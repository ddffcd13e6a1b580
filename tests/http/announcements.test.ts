// Announcements: published with `warren announcements add` (run as the operator runs it, on the app's data
// directory), listed to signed-in users until they end, dismissed per user, reacted to with emoji.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { openSse, startListeningApp, stopListeningApp } from "../helpers/streaming.ts";
import { call, get, newUser, post } from "./notifications-helpers.ts";
import { eventually } from "../helpers/eventually.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function publish(...args: string[]): Promise<string> {
  const run = await runWarren(t.dir, "announcements", "add", ...args);
  expect(run.code).toBe(0);
  return run.stdout.trim().split("\n")[1]!;
}
const list = (token: string, query = "") => get(t, `/api/v1/announcements${query}`, token);
const react = (token: string, id: string, name: string, method = "PUT") =>
  call(t, method, `/api/v1/announcements/${id}/reactions/${encodeURIComponent(name)}`, token);

describe("announcements", () => {
  test("the CLI publishes; users see the active ones with Mastodon's keys; ended ones are gone", async () => {
    const user = await newUser(t, "an");
    const id = await publish(`Maintenance tonight, see https://status.example/ #ops @${user.username}`, "--starts-at=2030-01-01T20:00:00Z", "--ends-at=2099-01-01T22:00:00Z");
    await publish("Old news", "--ends-at=2020-01-01T00:00:00Z");
    const res = await list(user.token);
    expect(res.status).toBe(200);
    const mine = res.body.find((a: { id: string }) => a.id === id);
    expect(Object.keys(mine).sort()).toEqual(
      ["id", "content", "starts_at", "ends_at", "published", "all_day", "published_at", "updated_at", "read", "mentions", "statuses", "tags", "emojis", "reactions"].sort(),
    );
    expect(mine).toMatchObject({
      starts_at: "2030-01-01T20:00:00.000Z",
      ends_at: "2099-01-01T22:00:00.000Z",
      all_day: false,
      read: false,
      tags: [{ name: "ops" }],
      mentions: [{ id: user.id, username: user.username }],
      reactions: [],
    });
    expect(mine.content).toContain('href="https://status.example/"');
    expect(res.body.some((a: { content: string }) => a.content.includes("Old news"))).toBe(false);
  });

  test("the CLI refuses bad input", async () => {
    expect((await runWarren(t.dir, "announcements", "add")).code).toBe(64);
    expect((await runWarren(t.dir, "announcements", "add", "x", "--ends-at=tomorrow")).code).toBe(64);
    expect((await runWarren(t.dir, "announcements", "add", "x", "--starts-at=2030-01-02T00:00:00Z", "--ends-at=2030-01-01T00:00:00Z")).code).toBe(1);
    expect((await runWarren(t.dir, "announcements", "remove", "12345")).code).toBe(1);
  });

  test("dismissing is per user; with_dismissed shows them read", async () => {
    const [a, b] = [await newUser(t, "an"), await newUser(t, "an")];
    const id = await publish("Dismiss me");
    expect((await post(t, `/api/v1/announcements/${id}/dismiss`, a.token)).status).toBe(200);
    expect((await list(a.token)).body.some((x: { id: string }) => x.id === id)).toBe(false);
    expect((await list(a.token, "?with_dismissed=true")).body.find((x: { id: string }) => x.id === id).read).toBe(true);
    expect((await list(b.token)).body.find((x: { id: string }) => x.id === id).read).toBe(false);
    expect((await post(t, "/api/v1/announcements/999999/dismiss", a.token)).status).toBe(404);
  });

  test("reactions: emoji only, counted with me, at most 8 different, withdrawn", async () => {
    const [a, b] = [await newUser(t, "an"), await newUser(t, "an")];
    const id = await publish("React to me");
    expect((await react(a.token, id, "👍")).status).toBe(200);
    expect((await react(b.token, id, "👍")).status).toBe(200);
    expect((await react(a.token, id, "👍")).status).toBe(200);
    expect((await react(b.token, id, "🇫🇷")).status).toBe(200);
    expect((await react(a.token, id, "not an emoji")).status).toBe(422);
    expect((await react(a.token, id, "👍👍")).status).toBe(422);
    const seen = (await list(a.token)).body.find((x: { id: string }) => x.id === id).reactions;
    expect(seen).toEqual([
      { name: "🇫🇷", count: 1, me: false },
      { name: "👍", count: 2, me: true },
    ].sort((x, y) => (x.name < y.name ? -1 : 1)));
    for (const e of ["😀", "😁", "😂", "🤣", "😃", "😄"]) expect((await react(a.token, id, e)).status).toBe(200);
    expect((await react(a.token, id, "😅")).status).toBe(422);
    expect((await react(b.token, id, "😀")).status).toBe(200);
    expect((await react(a.token, id, "👍", "DELETE")).status).toBe(200);
    expect((await react(a.token, id, "👍", "DELETE")).status).toBe(404);
    const after = (await list(a.token)).body.find((x: { id: string }) => x.id === id).reactions;
    expect(after.find((r: { name: string }) => r.name === "👍")).toEqual({ name: "👍", count: 1, me: false });
  });

  test("a user token with the scopes is required", async () => {
    expect((await get(t, "/api/v1/announcements")).status).toBe(401);
    const reader = await newUser(t, "an", "read");
    const id = await publish("Scopes");
    expect((await list(reader.token)).status).toBe(200);
    expect((await post(t, `/api/v1/announcements/${id}/dismiss`, reader.token)).status).toBe(403);
    expect((await react(reader.token, id, "👍")).status).toBe(403);
  });
});

describe("streams", () => {
  test("user streams hear announcement (from the CLI), announcement.reaction and announcement.delete", async () => {
    const { t: app, base } = await startListeningApp();
    try {
      const [a, b] = [await newUser(app, "as"), await newUser(app, "as")];
      const stream = await openSse(base, "/api/v1/streaming/user", a.token);
      try {
        const added = await runWarren(app.dir, "announcements", "add", "Streamed news");
        const id = added.stdout.trim().split("\n")[1]!;
        const pushed = await eventually(() => stream.events.find((e) => e.event === "announcement"), { what: "announcement", timeoutMs: 10_000 });
        expect(JSON.parse(pushed.data)).toMatchObject({ id, read: false, reactions: [] });
        await call(app, "PUT", `/api/v1/announcements/${id}/reactions/${encodeURIComponent("🎉")}`, b.token);
        const reaction = await eventually(() => stream.events.find((e) => e.event === "announcement.reaction"), { what: "announcement.reaction" });
        expect(JSON.parse(reaction.data)).toEqual({ name: "🎉", count: 1, announcement_id: id });
        expect((await runWarren(app.dir, "announcements", "remove", id)).code).toBe(0);
        const removed = await eventually(() => stream.events.find((e) => e.event === "announcement.delete"), { what: "announcement.delete", timeoutMs: 10_000 });
        expect(removed.data).toBe(id);
      } finally {
        stream.close();
      }
    } finally {
      await stopListeningApp(app);
    }
  });
});
