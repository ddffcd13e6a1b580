// Polls, edits and scheduled statuses as masto.js (the client library behind Elk and Phanpy) drives them:
// its JSON bodies (numbers for poll choices and expires_in, camelCase turned snake_case, media_attributes as
// an array of objects) against the in-process app behind a real HTTP listener.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createRestAPIClient, MastoHttpError, type mastodon } from "masto";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { uploadImage } from "../helpers/media.ts";
import { newUser, type User } from "./statuses-helpers.ts";

let t: TestApp;
let server: ReturnType<typeof Bun.serve>;
let alice: User;
let bob: User;
let asAlice: mastodon.rest.Client;
let asBob: mastodon.rest.Client;

beforeAll(async () => {
  t = await startTestApp();
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => t.app.handle(request) });
  [alice, bob] = await Promise.all([newUser(t, "alice"), newUser(t, "bob")]);
  const url = `http://127.0.0.1:${server.port}`;
  asAlice = createRestAPIClient({ url, accessToken: alice.token });
  asBob = createRestAPIClient({ url, accessToken: bob.token });
}, 60_000);
afterAll(async () => {
  server.stop(true);
  await t.close();
});

async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
  } catch (error) {
    if (error instanceof MastoHttpError) return error.statusCode;
    throw error;
  }
  return 200;
}

describe("masto.js", () => {
  test("posts a poll, votes, reads it back", async () => {
    const status = await asAlice.v1.statuses.create({ status: "tabs or spaces?", poll: { options: ["tabs", "spaces"], expiresIn: 3600, multiple: false } });
    expect(status.poll?.options.map((o) => o.title)).toEqual(["tabs", "spaces"]);
    const voted = await asBob.v1.polls.$select(status.poll!.id).votes.create({ choices: [1] });
    expect(voted).toMatchObject({ votesCount: 1, votersCount: 1, voted: true, ownVotes: [1] });
    expect((await asAlice.v1.polls.$select(status.poll!.id).fetch()).options[1]!.votesCount).toBe(1);
    expect(await statusOf(asBob.v1.polls.$select(status.poll!.id).votes.create({ choices: [0] }))).toBe(422);
  });

  test("edits a status with new attachment descriptions, reads its history and source", async () => {
    const media = await uploadImage(t, alice.token, "before");
    const status = await asAlice.v1.statuses.create({ status: "draft", mediaIds: [media.id] });
    const edited = await asAlice.v1.statuses.$select(status.id).update({
      status: "final",
      mediaIds: [media.id],
      mediaAttributes: [{ id: media.id, description: "after" }],
    });
    expect(edited.content).toBe("<p>final</p>");
    expect(edited.editedAt).not.toBeNull();
    expect(edited.mediaAttachments[0]!.description).toBe("after");
    const history = await asAlice.v1.statuses.$select(status.id).history.list();
    expect(history.map((v) => [v.content, v.mediaAttachments[0]?.description])).toEqual([["<p>draft</p>", "before"], ["<p>final</p>", "after"]]);
    expect(await asAlice.v1.statuses.$select(status.id).source.fetch()).toEqual({ id: status.id, text: "final", spoilerText: "" });
    expect(await statusOf(asBob.v1.statuses.$select(status.id).update({ status: "mine now" }))).toBe(403);
  });

  test("schedules a status, lists, moves and cancels it", async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await asAlice.v1.statuses.create({ status: "later", scheduledAt: at });
    expect(scheduled).toMatchObject({ scheduledAt: at, params: { text: "later" } });
    const listed = await asAlice.v1.scheduledStatuses.list();
    expect(listed.map((s) => s.id)).toContain(scheduled.id);
    const later = new Date(Date.now() + 7_200_000).toISOString();
    expect((await asAlice.v1.scheduledStatuses.$select(scheduled.id).update({ scheduledAt: later })).scheduledAt).toBe(later);
    await asAlice.v1.scheduledStatuses.$select(scheduled.id).remove();
    expect(await statusOf(asAlice.v1.scheduledStatuses.$select(scheduled.id).fetch())).toBe(404);
  });
});
