// Outgoing deliveries (src/federation/delivery.ts), job workers on: never to a loopback inbox unless private
// addresses are allowed, and never past a redirect to a blocked domain; a server that keeps failing is held
// back by Fedify's circuit breaker until an activity arrives from it; permanent failures (410, 403) are not
// retried, 429 is; an activity queued while its recipient is down arrives once it is back, across a restart
// of the sender too (the queue is durable).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Follow } from "@fedify/vocab";
import { BASE, startTestApp, testRequest, type TestApp } from "../helpers/app.ts";
import { createUser, signedInUser } from "../helpers/clients.ts";
import { circuit, json, quietForMs, relationship, resolveAccount, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { startFakePeer, type FakeActor, type FakePeer } from "../helpers/fake-peer.ts";
import { staffUser } from "../http/admin-helpers.ts";
import { buildApp, createDeps } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import type { AppDeps } from "../../src/deps.ts";
import { federationFor } from "../../src/federation/index.ts";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(60_000);

/** A loopback HTTP server that records the POSTs it gets and answers them with `status`. */
function recordingServer(answer: (request: Request) => Response | undefined = () => undefined) {
  const posts: { path: string; body: any }[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const answered = answer(request);
      if (request.method === "POST") posts.push({ path: new URL(request.url).pathname, body: await request.json().catch(() => null) });
      return answered ?? new Response(null, { status: 202 });
    },
  });
  return { posts, server, port: server.port! };
}

/** Sends a Follow from `app`'s alice to an actor whose inbox is `inbox`, through Fedify's queue. */
async function sendFollow(app: TestApp, inbox: string): Promise<void> {
  const ctx = federationFor(app.deps).federation.createContext(new URL(BASE), undefined);
  const actor = new URL(inbox.replace(/\/inbox$/, ""));
  await ctx.sendActivity({ identifier: "alice" }, { id: actor, inboxId: new URL(inbox) }, new Follow({ id: new URL(`${BASE}/follows/${crypto.randomUUID()}`), actor: ctx.getActorUri("alice"), object: actor }));
}

test("with private addresses not allowed, nothing is delivered to loopback inboxes, and nothing fails", async () => {
  const target = recordingServer();
  const strict = await startTestApp({ WARREN_JOB_WORKERS: "2", WARREN_DELIVERY_RETRY_MS: "20" });
  const open = await startTestApp({ WARREN_JOB_WORKERS: "2", WARREN_ALLOW_PRIVATE_ADDRESSES: "true" });
  try {
    await createUser(strict, "alice");
    await createUser(open, "alice");
    for (const host of [`127.0.0.1:${target.port}`, `localhost:${target.port}`, `[::1]:${target.port}`, `127.1.2.3:${target.port}`]) {
      await sendFollow(strict, `http://${host}/users/bob/inbox`);
    }
    // Refused, not retried: once the queue has run, no delivery waits.
    expect(await quietForMs(strict)).toBe(Infinity);
    expect(target.posts).toEqual([]);
    expect(strict.deps.jobs.stats()).toMatchObject({ claimed: 0, dead: 0 });
    // The same delivery from an instance that allows private addresses arrives: the server was listening.
    await sendFollow(open, `http://127.0.0.1:${target.port}/users/bob/inbox`);
    await eventually(async () => target.posts.length > 0);
    expect(target.posts[0]!.body.type).toBe("Follow");
  } finally {
    await Promise.all([strict.close(), open.close()]);
    target.server.stop(true);
  }
});

test("a redirect to a blocked domain is not followed", async () => {
  const behind = recordingServer();
  const front = recordingServer(() => new Response(null, { status: 307, headers: { location: `http://localhost:${behind.port}/inbox` } }));
  const sender = await startInstance({ WARREN_DELIVERY_RETRY_MS: "20" });
  try {
    await createUser(sender.t, "alice");
    const admin = await staffUser(sender.t, "boss", "Admin");
    const blocked = await sender.t.request("/api/v1/admin/domain_blocks", { method: "POST", token: admin.token, json: { domain: "localhost", severity: "suspend" } });
    expect(blocked.status).toBe(200);
    const ctx = federationFor(sender.t.deps).federation.createContext(new URL(`http://${sender.domain}`), undefined);
    const actor = new URL(`http://127.0.0.1:${front.port}/users/bob`);
    await ctx.sendActivity({ identifier: "alice" }, { id: actor, inboxId: new URL(`${actor.href}/inbox`) }, new Follow({ id: new URL(`http://${sender.domain}/follows/1`), actor: ctx.getActorUri("alice"), object: actor }));
    // The refused hop is a failed attempt: retried (to the same end).
    await eventually(async () => front.posts.length > 1);
    await sender.t.deps.jobs.drain();
    expect(behind.posts).toEqual([]);
    expect(front.posts.length).toBeGreaterThan(1);
  } finally {
    await stopInstance(sender);
    front.server.stop(true);
    behind.server.stop(true);
  }
});

/** `actor` served by another loopback server: its documents name that server's host. */
function movedTo(actor: FakeActor, host: string): FakeActor {
  const swap = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll(new URL(actor.id).host, host));
  return { ...actor, id: swap(actor.id), inbox: swap(actor.inbox), keyId: swap(actor.keyId), document: swap(actor.document) };
}

test("a failing server is held back after repeated failures and cleared by an activity from it; 410 and 403 are not retried, 429 is", async () => {
  let status = 503;
  let actor: FakeActor | undefined;
  const flaky = recordingServer((request) => {
    if (request.method === "POST") return new Response(null, { status });
    if (actor && new URL(request.url).pathname === new URL(actor.id).pathname) {
      return new Response(JSON.stringify(actor.document), { headers: { "content-type": "application/activity+json" } });
    }
    return new Response(null, { status: 404 });
  });
  const peer: FakePeer = await startFakePeer();
  const a = await startInstance({ WARREN_DELIVERY_RETRY_MS: "50", WARREN_DELIVERY_RECOVERY_MS: "60000" });
  try {
    const alice = await signedInUser(a.t, "alice");
    actor = movedTo(await peer.actor("flaky"), `127.0.0.1:${flaky.port}`);
    const aliceUri = `http://${a.domain}/users/alice`;
    const follow = (n: number) => ({ id: `${actor!.id}#follows/${n}`, type: "Follow", actor: actor!.id, object: aliceUri });
    const sent = (type: string, from = 0) => flaky.posts.slice(from).filter((post) => post.body?.type === type);

    // Its Follow is taken; the Accept going back fails: 5 attempts (each knocked twice, one per signature
    // kind), then the circuit opens and no more are sent.
    expect((await peer.send(actor, `${aliceUri}/inbox`, follow(1))).status).toBe(202);
    // Open, the circuit holds what is left until the recovery probe (60 s): nothing can be sent before.
    await eventually(async () => sent("Accept").length >= 10);
    expect(await quietForMs(a.t)).toBeGreaterThan(30_000);
    const afterFailures = flaky.posts.length;
    expect(afterFailures).toBe(10);

    // A new delivery to it is held too.
    const remote = (await json(a, `/api/v2/search?q=${encodeURIComponent(`@flaky@127.0.0.1:${flaky.port}`)}&type=accounts`, alice.token)).accounts[0];
    await json(a, `/api/v1/accounts/${remote.id}/follow`, alice.token, { method: "POST" });
    expect(await quietForMs(a.t)).toBeGreaterThan(30_000);
    expect(flaky.posts.length).toBe(afterFailures);

    // It is back and sends an activity: the host is cleared, the Accept of this Follow goes at once.
    status = 202;
    expect((await peer.send(actor, `${aliceUri}/inbox`, follow(2))).status).toBe(202);
    await eventually(async () => sent("Accept", afterFailures).some((post) => JSON.stringify(post.body.object).includes("follows/2")));

    // 410 Gone: knocked twice, never retried.
    status = 410;
    let mark = flaky.posts.length;
    await json(a, `/api/v1/accounts/${remote.id}/unfollow`, alice.token, { method: "POST" });
    await eventually(async () => sent("Undo", mark).length >= 2);
    expect(await quietForMs(a.t)).toBeGreaterThan(30_000);
    expect(sent("Undo", mark).length).toBe(2);

    // 403 (any 4xx but 401, 408 and 429, as Mastodon): not retried either (Fedify alone retries it).
    status = 403;
    mark = flaky.posts.length;
    await json(a, `/api/v1/accounts/${remote.id}/follow`, alice.token, { method: "POST" });
    await eventually(async () => sent("Follow", mark).length >= 2);
    expect(await quietForMs(a.t)).toBeGreaterThan(30_000);
    expect(sent("Follow", mark).length).toBe(2);

    // 429 Too Many Requests: retried until it is taken.
    status = 429;
    mark = flaky.posts.length;
    await json(a, `/api/v1/accounts/${remote.id}/unfollow`, alice.token, { method: "POST" });
    await eventually(async () => sent("Undo", mark).length >= 4);
    status = 202;
    const taken = flaky.posts.length;
    await eventually(async () => sent("Undo", taken).length >= 1);
  } finally {
    await stopInstance(a);
    peer.stop();
    flaky.server.stop(true);
  }
});

/** A Warren instance on a fixed loopback port whose process-side (store, jobs, app) can be stopped and started
 * again on the same data directory: a restart, with the HTTP server answering 503 meanwhile. */
async function restartableInstance(env: Record<string, string>) {
  let deps: AppDeps | null = null;
  let app: ReturnType<typeof buildApp> | null = null;
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => (app ? app.handle(request) : new Response(null, { status: 503 })) });
  const domain = `127.0.0.1:${server.port}`;
  const dir = mkdtempSync(join(tmpdir(), "warren-restart-"));
  const config = loadConfig({
    WARREN_DATA_DIR: dir,
    WARREN_URL: `http://${domain}`,
    WARREN_ALLOW_PRIVATE_ADDRESSES: "true",
    WARREN_JOB_WORKERS: "2",
    WARREN_RATE_LIMITS: "off",
    WARREN_CHECK_RESPONSES: process.env.WARREN_CHECK_RESPONSES ?? "on",
    ...env,
  });
  const start = async () => {
    deps = createDeps(config);
    const built = buildApp(deps);
    await built.modules;
    deps.jobs.start();
    app = built;
  };
  const stop = async () => {
    app = null;
    await deps!.jobs.stop();
    await deps!.store.close();
  };
  await start();
  const t: TestApp = {
    get deps() {
      return deps!;
    },
    get app() {
      return app!;
    },
    dir,
    request: (path, init = {}) => app!.handle(testRequest(`http://${domain}${path}`, init)),
    async close() {
      await stop();
      server.stop(true);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const instance: Instance = { t, domain, port: server.port!, down() {}, up() {} };
  return { instance, restart: async () => (await stop(), await start()) };
}

let b: Instance;
let sender: Awaited<ReturnType<typeof restartableInstance>>;

beforeAll(async () => {
  [b, sender] = await Promise.all([startInstance(), restartableInstance({ WARREN_DELIVERY_RETRY_MS: "100", WARREN_DELIVERY_RECOVERY_MS: "500" })]);
});
afterAll(async () => {
  await Promise.all([stopInstance(b), sender.instance.t.close()]);
});

test("an activity queued while the peer is down arrives once it is back, the sender restarted in between", async () => {
  const a = sender.instance;
  const alice = await signedInUser(a.t, "alice");
  const bob = await signedInUser(b.t, "bob");
  const remoteBob = await resolveAccount(a, alice.token, "bob", b);
  await json(a, `/api/v1/accounts/${remoteBob.id}/follow`, alice.token, { method: "POST" });
  await eventually(async () => (await relationship(a, alice.token, remoteBob.id)).following);
  const aliceOnB = (await json(b, `/api/v2/search?q=${encodeURIComponent(`@alice@${a.domain}`)}&type=accounts`, bob.token)).accounts[0];
  expect((await relationship(b, bob.token, aliceOnB.id)).followed_by).toBe(true);

  // B goes down; alice unfollows: the Undo fails (retried, then held by the open circuit).
  b.down();
  await json(a, `/api/v1/accounts/${remoteBob.id}/unfollow`, alice.token, { method: "POST" });
  await eventually(async () => (await circuit(a.t, b.domain))?.state === "open");
  // The sender restarts: the Undo is still in its durable queue.
  await sender.restart();
  await a.t.deps.jobs.drain();
  expect((await relationship(a, alice.token, remoteBob.id)).following).toBe(false);
  b.up();
  // The next probe (or retry) reaches B: alice no longer follows bob there.
  await eventually(async () => !(await relationship(b, bob.token, aliceOnB.id)).followed_by, { timeoutMs: 20_000 });
});
