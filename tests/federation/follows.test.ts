// Two Warren instances on loopback (two ports, two data dirs, each its own domain 127.0.0.1:PORT, job
// workers on), talking to each other through Fedify: resolving a remote account by search, follows of an
// unlocked and of a locked account, authorising the request, unfollowing; and a forged signature refused.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { json, relationship, resolveAccount, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { startSmtpSink } from "../helpers/smtp.ts";
import { eventually } from "../helpers/eventually.ts";

let a: Instance;
let b: Instance;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let bob: Awaited<ReturnType<typeof signedInUser>>;
let carol: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  [a, b] = await Promise.all([startInstance(), startInstance()]);
  alice = await signedInUser(a.t, "alice");
  bob = await signedInUser(b.t, "bob");
  carol = await signedInUser(b.t, "carol");
  const locked = await b.t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: carol.token, json: { locked: true } });
  expect(locked.status).toBe(200);
});
afterAll(async () => {
  await Promise.all([stopInstance(a), stopInstance(b)]);
});





test("search with resolve=true stores the remote account; lookup finds it once known, never resolves", async () => {
  const before = await a.t.request(`/api/v1/accounts/lookup?acct=bob@${b.domain}`);
  expect(before.status).toBe(404);
  const remote = await resolveAccount(a, alice.token, "bob", b);
  expect(remote.acct).toBe(`bob@${b.domain}`);
  expect(remote.username).toBe("bob");
  expect(remote.url).toBeString();
  const unresolved = await json(a, `/api/v2/search?q=${encodeURIComponent(`@bob@${b.domain}`)}&type=accounts`, alice.token);
  expect(unresolved.accounts[0].id).toBe(remote.id);
  const after = await a.t.request(`/api/v1/accounts/lookup?acct=bob@${b.domain}`);
  expect(after.status).toBe(200);
});

test("following an unlocked remote account: requested, then following once it accepts; unfollow on both", async () => {
  const remote = await resolveAccount(a, alice.token, "bob", b);
  const followed = await json(a, `/api/v1/accounts/${remote.id}/follow`, alice.token, { method: "POST" });
  expect(followed.following || followed.requested).toBe(true);
  await eventually(async () => (await relationship(a, alice.token, remote.id)).following);
  const aliceOnB = (await json(b, `/api/v2/search?q=${encodeURIComponent(`@alice@${a.domain}`)}&type=accounts`, bob.token)).accounts[0];
  expect(aliceOnB.acct).toBe(`alice@${a.domain}`);
  const followers = await json(b, `/api/v1/accounts/${bob.id}/followers`, bob.token);
  expect(followers.map((f: any) => f.id)).toContain(aliceOnB.id);
  expect((await relationship(b, bob.token, aliceOnB.id)).followed_by).toBe(true);

  await json(a, `/api/v1/accounts/${remote.id}/unfollow`, alice.token, { method: "POST" });
  expect((await relationship(a, alice.token, remote.id)).following).toBe(false);
  await eventually(async () => !(await relationship(b, bob.token, aliceOnB.id)).followed_by);
});

test("following a locked remote account: a request there, authorised, then following", async () => {
  const remote = await resolveAccount(a, alice.token, "carol", b);
  expect(remote.locked).toBe(true);
  const asked = await json(a, `/api/v1/accounts/${remote.id}/follow`, alice.token, { method: "POST" });
  expect(asked.requested).toBe(true);
  expect(asked.following).toBe(false);
  const requests = await eventually(async () => {
    const list = await json(b, "/api/v1/follow_requests", carol.token);
    return list.length ? list : undefined;
  });
  expect(requests[0].acct).toBe(`alice@${a.domain}`);
  expect((await relationship(b, carol.token, requests[0].id)).requested_by).toBe(true);
  // Remote requests are e-mailed, never in the notifications API (as local ones).
  expect((await json(b, "/api/v1/notifications", carol.token)).length).toBe(0);
  expect((await relationship(a, alice.token, remote.id)).requested).toBe(true);

  await json(b, `/api/v1/follow_requests/${requests[0].id}/authorize`, carol.token, { method: "POST" });
  expect((await relationship(b, carol.token, requests[0].id)).followed_by).toBe(true);
  await eventually(async () => (await relationship(a, alice.token, remote.id)).following);

  await json(a, `/api/v1/accounts/${remote.id}/unfollow`, alice.token, { method: "POST" });
  await eventually(async () => !(await relationship(b, carol.token, requests[0].id)).followed_by);
});

test("a rejected request to a locked remote account goes away on both sides", async () => {
  const remote = await resolveAccount(a, alice.token, "carol", b);
  await json(a, `/api/v1/accounts/${remote.id}/follow`, alice.token, { method: "POST" });
  const requests = await eventually(async () => {
    const list = await json(b, "/api/v1/follow_requests", carol.token);
    return list.length ? list : undefined;
  });
  await json(b, `/api/v1/follow_requests/${requests[0].id}/reject`, carol.token, { method: "POST" });
  await eventually(async () => !(await relationship(a, alice.token, remote.id)).requested);
  expect((await relationship(a, alice.token, remote.id)).following).toBe(false);
});

test("an activity with a forged signature is refused (401) and changes nothing", async () => {
  const body = JSON.stringify({
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `http://${a.domain}/users/alice#follows/forged`,
    type: "Follow",
    actor: `http://${a.domain}/users/alice`,
    object: `http://${b.domain}/users/bob`,
  });
  const unsigned = await fetch(`http://${b.domain}/users/bob/inbox`, { method: "POST", headers: { "content-type": "application/activity+json" }, body });
  expect(unsigned.status).toBe(401);
  const forged = await fetch(`http://${b.domain}/users/bob/inbox`, {
    method: "POST",
    headers: {
      "content-type": "application/activity+json",
      date: new Date().toUTCString(),
      signature: `keyId="http://${a.domain}/users/alice#main-key",algorithm="rsa-sha256",headers="(request-target) host date",signature="${btoa("not a signature")}"`,
    },
    body,
  });
  expect(forged.status).toBe(401);
  await b.t.deps.jobs.drain();
  expect((await json(b, `/api/v1/accounts/${bob.id}/followers`, bob.token)).length).toBe(0);
});

test("the owner of a locked account is e-mailed a remote follow request", async () => {
  const smtp = await startSmtpSink();
  const c = await startInstance({ WARREN_SMTP_URL: smtp.url, WARREN_SMTP_FROM: "warren@c.test" });
  try {
    const dora = await signedInUser(c.t, "dora");
    expect((await c.t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: dora.token, json: { locked: true } })).status).toBe(200);
    const remote = await resolveAccount(a, alice.token, "dora", c);
    expect((await json(a, `/api/v1/accounts/${remote.id}/follow`, alice.token, { method: "POST" })).requested).toBe(true);
    const mail = await eventually(async () => smtp.inbox.find((m) => m.to.includes(dora.email)));
    const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
    expect(head).toMatch(new RegExp(`^Subject: Pending follower: @alice@${a.domain.replace(/\./g, "\\.")}$`, "m"));
    expect(mail.raw.replace(/=\r?\n/g, "")).toContain(`@alice@${a.domain} has requested to follow you.`);
    expect(smtp.inbox).toHaveLength(1);
  } finally {
    await stopInstance(c);
    await smtp.close();
  }
});
