// Grouped notifications kept per account (domain/notifications/window.ts, http/cache/notification-groups.ts):
// a page asked again is answered from the account's window and its kept rendering, and never after a change
// to what it shows: a new notification, one joining a group, a dismissal, the recipient's block, mute and
// filter, a deleted status, a sender suspended by another process (the CLI), and a mute's end with nothing
// written. Each check reads the page once so the window and the page are kept, changes one thing, and reads again.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { eventually } from "../helpers/eventually.ts";
import { block, call, favourite, follow, get, newUser, post, postStatus, reblog, type User } from "./notifications-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
});
afterAll(() => t.close());

interface Group {
  group_key: string;
  type: string;
  notifications_count: number;
  sample_account_ids: string[];
}

async function groups(user: User, query = ""): Promise<Group[]> {
  const res = await get(t, `/api/v2/notifications${query}`, user.token);
  expect(res.status).toBe(200);
  return res.body.notification_groups;
}

/** The page twice (kept), then after `change` and its jobs. */
async function after(user: User, change: () => Promise<unknown>, query = ""): Promise<Group[]> {
  const first = await groups(user, query);
  expect(await groups(user, query)).toEqual(first);
  await change();
  await t.deps.jobs.drain();
  return groups(user, query);
}

/** owner's post favourited by f1; a mention from f2. */
async function scene() {
  const [owner, f1, f2] = [await newUser(t, "w"), await newUser(t, "w"), await newUser(t, "w")];
  const own = await postStatus(t, owner, "kept");
  await favourite(t, f1, own.id);
  const mention = await postStatus(t, f2, `hi @${owner.username}`);
  await t.deps.jobs.drain();
  return { owner, f1, f2, own, mention };
}

const typesOf = (list: Group[]) => list.map((g) => g.type);

describe("a kept page of grouped notifications", () => {
  test("a new notification, and one joining a group", async () => {
    const { owner, f2, own } = await scene();
    const joined = await after(owner, () => favourite(t, f2, own.id));
    expect(typesOf(joined)).toEqual(["favourite", "mention"]);
    expect(joined[0]).toMatchObject({ notifications_count: 2, sample_account_ids: [f2.id, expect.any(String)] });
    expect(typesOf(await after(owner, () => reblog(t, f2, own.id)))).toEqual(["reblog", "favourite", "mention"]);
  });

  test("the same rows under a new max_id are the same page; a page past them is not", async () => {
    const { owner } = await scene();
    const all = await groups(owner);
    const newest = BigInt((await get(t, "/api/v1/notifications?limit=1", owner.token)).body[0].id);
    expect(await groups(owner, `?max_id=${newest + 1n}`)).toEqual(all);
    expect(await groups(owner, `?max_id=${newest + 2n}`)).toEqual(all);
    expect(await groups(owner, `?max_id=${newest}`)).toEqual(all.slice(1));
    expect(await groups(owner, "?limit=1")).toEqual(all.slice(0, 1));
    expect(typesOf(await groups(owner, "?exclude_types[]=favourite"))).toEqual(["mention"]);
    expect(typesOf(await groups(owner, "?types[]=favourite"))).toEqual(["favourite"]);
  });

  test("a dismissed group", async () => {
    const { owner } = await scene();
    const favouriteGroup = (await groups(owner)).find((g) => g.type === "favourite")!;
    const dismiss = () => post(t, `/api/v2/notifications/${favouriteGroup.group_key}/dismiss`, owner.token);
    expect(typesOf(await after(owner, dismiss))).toEqual(["mention"]);
  });

  test("the recipient blocks a sender, and mutes another with their notifications", async () => {
    const { owner, f1, f2 } = await scene();
    expect(typesOf(await after(owner, () => block(t, owner, f2)))).toEqual(["favourite"]);
    const muteWithNotifications = () => post(t, `/api/v1/accounts/${f1.id}/mute`, owner.token, { notifications: true });
    expect(await after(owner, muteWithNotifications)).toEqual([]);
  });

  test("a mute's end shows the sender's notifications again, with nothing written", async () => {
    const { owner, f2 } = await scene();
    const briefly = () => post(t, `/api/v1/accounts/${f2.id}/mute`, owner.token, { notifications: true, duration: 1 });
    expect(typesOf(await after(owner, briefly))).toEqual(["favourite"]);
    await eventually(async () => (await groups(owner)).length === 2, { timeoutMs: 5_000, what: "the mute's end" });
    expect(typesOf(await groups(owner))).toEqual(["mention", "favourite"]);
  });

  test("a hide filter on notifications, and a deleted status", async () => {
    const { owner } = await scene();
    const filter = () => post(t, "/api/v2/filters", owner.token, { title: "no hi", context: ["notifications"], filter_action: "hide", keywords_attributes: [{ keyword: "hi" }] });
    expect(typesOf(await after(owner, filter))).toEqual(["favourite"]);
    const other = await scene();
    const deleted = () => call(t, "DELETE", `/api/v1/statuses/${other.mention.id}`, other.f2.token);
    expect(typesOf(await after(other.owner, deleted))).toEqual(["favourite"]);
  });

  test("another process's write: a sender deleted by the CLI", async () => {
    const { owner, f2 } = await scene();
    const deleteByCli = async () => expect((await runWarren(t.dir, "accounts", "delete", f2.username)).code).toBe(0);
    expect(typesOf(await after(owner, deleteByCli))).toEqual(["favourite"]);
  });

  test("a follow notification joins the hour's follow group", async () => {
    const { owner, f1, f2 } = await scene();
    await follow(t, f1, owner);
    await t.deps.jobs.drain();
    const joined = await after(owner, () => follow(t, f2, owner));
    expect(joined[0]).toMatchObject({ type: "follow", notifications_count: 2 });
  });
});
