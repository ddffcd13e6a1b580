// Fedify's MessageQueue on our job queue (src/federation/queue.ts), with worker threads on: an activity sent
// through Fedify becomes `federation.message` jobs on the network lane, run on a worker, which delivers it
// signed to the recipient's inbox; delays become the job's due time.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Follow } from "@fedify/vocab";
import { BASE, startTestApp, type TestApp } from "../helpers/app.ts";
import { createUser } from "../helpers/clients.ts";
import { federationFor } from "../../src/federation/index.ts";
import { FEDERATION_MESSAGE_JOB } from "../../src/domain/job-names.ts";
import { pendingJobs } from "../../src/store/jobs.ts";
import { eventually } from "../helpers/eventually.ts";

let t: TestApp;
const received: { path: string; headers: Headers; body: any }[] = [];
let inbox: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  inbox = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      received.push({ path: new URL(request.url).pathname, headers: request.headers, body: await request.json() });
      return new Response(null, { status: 202 });
    },
  });
  t = await startTestApp({ WARREN_JOB_WORKERS: "2", WARREN_ALLOW_PRIVATE_ADDRESSES: "true" });
  await createUser(t, "alice");
});
afterAll(async () => {
  await t.close();
  inbox.stop(true);
});

test("an activity sent through Fedify is delivered, signed, by a job on a worker thread", async () => {
  const { federation } = federationFor(t.deps);
  const ctx = federation.createContext(new URL(BASE), undefined);
  const remote = `http://127.0.0.1:${inbox.port}/users/bob`;
  const follow = new Follow({ id: new URL(`${BASE}/follows/1`), actor: ctx.getActorUri("alice"), object: new URL(remote) });
  t.deps.jobs.pause();
  try {
    await ctx.sendActivity({ identifier: "alice" }, { id: new URL(remote), inboxId: new URL(`${remote}/inbox`) }, follow);
    // Committed as a job before sendActivity resolved; nothing sent yet.
    expect(pendingJobs(t.deps.store, 1000).filter((j) => j.type === FEDERATION_MESSAGE_JOB && j.lane === "network").length).toBe(1);
    expect(received.length).toBe(0);
  } finally {
    t.deps.jobs.resume();
  }
  await eventually(() => received.length > 0);
  const [delivery] = received;
  expect(delivery!.path).toBe("/users/bob/inbox");
  expect(delivery!.body.type).toBe("Follow");
  expect(delivery!.body.actor).toBe(`${BASE}/users/alice`);
  // RFC 9421 on the first knock (draft-cavage when the peer refuses it, as Fedify negotiates).
  const signed = delivery!.headers.get("signature-input") ?? delivery!.headers.get("signature");
  expect(signed).toContain(`${BASE}/users/alice`);
  await t.deps.jobs.drain();
  expect(t.deps.jobs.stats()).toMatchObject({ claimed: 0, dead: 0 });
});

test("a delay becomes the job's due time on the network lane", async () => {
  const { queue } = federationFor(t.deps);
  t.deps.jobs.pause();
  try {
    const before = Date.now();
    await queue.enqueue({ type: "test" }, { delay: Temporal.Duration.from({ minutes: 5 }) });
    const job = pendingJobs(t.deps.store, 1000).find((j) => j.type === FEDERATION_MESSAGE_JOB);
    expect(job).toBeDefined();
    expect(job!.lane).toBe("network");
    expect(job!.runAt).toBeGreaterThanOrEqual(before + 5 * 60_000);
    expect(JSON.parse((job!.payload as { message: string }).message)).toEqual({ type: "test" });
  } finally {
    t.deps.jobs.resume();
  }
});

test("listen resolves when its signal aborts", async () => {
  const { JobMessageQueue } = await import("../../src/federation/queue.ts");
  const queue = new JobMessageQueue(t.deps.store, t.deps.jobs);
  const controller = new AbortController();
  const seen: unknown[] = [];
  const listening = queue.listen((message) => void seen.push(message), { signal: controller.signal });
  await queue.deliver({ message: JSON.stringify({ hello: 1 }) });
  expect(seen).toEqual([{ hello: 1 }]);
  controller.abort();
  await listening;
  expect(queue.deliver({ message: "{}" })).rejects.toThrow("no federation listener");
});
