// Streams and suspension, over real sockets with jobs on worker threads: statuses of a suspended author are
// not streamed to anyone, and a suspended user's own streams are closed.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { openSse, settle, startListeningApp, stopListeningApp } from "../helpers/streaming.ts";
import { streamHub } from "../../src/http/streaming/hub.ts";
import { followRemote, newUser, remoteAccount, remoteStatus } from "../http/timelines-helpers.ts";
import { api, staffUser, type Staffer } from "../http/admin-helpers.ts";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(30_000);

let t: TestApp;
let base: string;
let admin: Staffer;

beforeAll(async () => {
  ({ t, base } = await startListeningApp());
  admin = await staffUser(t, "boss", "Admin");
});
afterAll(() => stopListeningApp(t));

const updates = (events: { event: string; data: string }[]) =>
  events.filter((e) => e.event === "update").map((e) => JSON.parse(e.data).account.acct as string);

describe("streams and suspension", () => {
  test("a suspended author's statuses reach neither home nor public streams", async () => {
    const viewer = await newUser(t, "viewer");
    const remote = await remoteAccount(t, "loud", "remote.example");
    await followRemote(t, viewer, remote);
    const home = await openSse(base, "/api/v1/streaming/user", viewer.token);
    const pub = await openSse(base, "/api/v1/streaming/public", viewer.token);
    // Before: both streams carry the remote status (so the absence below means something).
    await remoteStatus(t, remote, { content: "<p>first</p>" });
    await eventually(() => (updates(home.events).includes("loud@remote.example") ? true : undefined), { what: "the home update" });
    await eventually(() => (updates(pub.events).includes("loud@remote.example") ? true : undefined), { what: "the public update" });
    const before = [home.events.length, pub.events.length];
    const suspended = await api(t, "POST", `/api/v1/admin/accounts/${remote.id.replace(/^0+/, "")}/action`, admin.token, { type: "suspend" });
    expect(suspended.status).toBe(200);
    await remoteStatus(t, remote, { content: "<p>second</p>" });
    await settle(t);
    expect(updates(home.events.slice(before[0]))).toEqual([]);
    expect(updates(pub.events.slice(before[1]))).toEqual([]);
    home.close();
    pub.close();
  });

  test("a suspended user's streams are closed", async () => {
    const victim = await newUser(t, "victim");
    const events = await openSse(base, "/api/v1/streaming/user", victim.token);
    const hub = streamHub(t.deps);
    const answer = await api(t, "POST", `/api/v1/admin/accounts/${victim.id}/action`, admin.token, { type: "suspend", send_email_notification: false });
    expect(answer.status).toBe(200);
    hub.tick();
    await eventually(() => (events.ended ? true : undefined), { what: "the event stream to end" });
    // And a new one is refused.
    const again = await fetch(`${base}/api/v1/streaming/user`, { headers: { authorization: `Bearer ${victim.token}` } });
    expect(again.status).not.toBe(200);
  });
});
