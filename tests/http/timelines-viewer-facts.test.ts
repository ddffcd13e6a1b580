// A viewer's answers about authors (follows and their options, blocks and mutes both ways, exclusive lists) are
// kept across requests (domain/timelines/viewer-facts.ts). Every request here has a URL of its own, so no
// kept page answers it: each page is built, and must see each change at once, by a request or past the end
// of a mute with nothing written.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { block, call, follow, get, newUser, post, postStatus, type User } from "./timelines-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
});
afterAll(() => t.close());

let asked = 0;
/** The reader's home, built afresh (a limit never asked before). */
async function home(reader: User): Promise<string[]> {
  const res = await get(t, `/api/v1/timelines/home?limit=${40 - (asked++ % 30)}`, reader.token);
  expect(res.status).toBe(200);
  return (res.body as { id: string }[]).map((s) => s.id);
}

async function pair() {
  const [reader, author] = [await newUser(t, "vf"), await newUser(t, "vf")];
  await follow(t, reader, author);
  const status = await postStatus(t, author, "seen?");
  await t.deps.jobs.drain();
  expect(await home(reader)).toContain(status.id);
  return { reader, author, status };
}

test("a mute with an end hides until then, then the same author shows again with nothing written", async () => {
  const { reader, author, status } = await pair();
  expect((await post(t, `/api/v1/accounts/${author.id}/mute`, reader.token, { duration: 2 })).status).toBe(200);
  expect(await home(reader)).not.toContain(status.id);
  expect(await home(reader)).not.toContain(status.id);
  // Its clean-up job would remove the mute (a write); held back, only the end itself can show the status.
  t.deps.jobs.pause();
  try {
    await Bun.sleep(2100); // the mute's end itself is under test
    expect(await home(reader)).toContain(status.id);
  } finally {
    t.deps.jobs.resume();
  }
});

test("a block of the reader by the author, and its undoing, show at once", async () => {
  const { reader, author, status } = await pair();
  await block(t, author, reader);
  expect(await home(reader)).not.toContain(status.id);
  expect((await post(t, `/api/v1/accounts/${reader.id}/unblock`, author.token)).status).toBe(200);
  // The block ended the follow: follow again, and the author's new status arrives.
  await follow(t, reader, author);
  const later = await postStatus(t, author, "again");
  await t.deps.jobs.drain();
  expect(await home(reader)).toContain(later.id);
});

test("the follow's options: reblogs turned off hide the author's reblogs from the next page", async () => {
  const { reader, author } = await pair();
  const other = await newUser(t, "vf");
  const original = await postStatus(t, other, "boost me");
  const reblog = (await post(t, `/api/v1/statuses/${original.id}/reblog`, author.token)).body as { id: string };
  await t.deps.jobs.drain();
  expect(await home(reader)).toContain(reblog.id);
  expect((await post(t, `/api/v1/accounts/${author.id}/follow`, reader.token, { reblogs: false })).status).toBe(200);
  expect(await home(reader)).not.toContain(reblog.id);
});

test("an exclusive list takes its members out of the home from the next page", async () => {
  const { reader, author, status } = await pair();
  const list = (await post(t, "/api/v1/lists", reader.token, { title: "apart", exclusive: true })).body as { id: string };
  expect((await post(t, `/api/v1/lists/${list.id}/accounts`, reader.token, { account_ids: [author.id] })).status).toBe(200);
  expect(await home(reader)).not.toContain(status.id);
  expect((await call(t, "DELETE", `/api/v1/lists/${list.id}/accounts`, reader.token, { account_ids: [author.id] })).status).toBe(200);
  expect(await home(reader)).toContain(status.id);
});
