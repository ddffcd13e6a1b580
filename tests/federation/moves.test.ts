// Account migration between two Warren instances (docs/federation.md "Moving accounts"), through the web
// pages and the API as people and clients see it: bob on B lists alice on A as an alias; alice moves to bob
// (password, alias check, 30-day cool-down); the Move reaches B; followers on both servers end up following
// bob, with a `move` notification; alice's `moved` is bob on both servers and her API is closed. Then the
// other direction: erin on B moves to frank on A.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { json, relationship, resolveAccount, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { WebBrowser } from "../helpers/web.ts";
import { eventually } from "../helpers/eventually.ts";

type User = Awaited<ReturnType<typeof signedInUser>>;
let a: Instance;
let b: Instance;
let alice: User, dave: User; // on A
let bob: User, carol: User; // on B

beforeAll(async () => {
  [a, b] = await Promise.all([startInstance(), startInstance()]);
  [alice, dave] = await Promise.all([signedInUser(a.t, "alice"), signedInUser(a.t, "dave")]);
  [bob, carol] = await Promise.all([signedInUser(b.t, "bob"), signedInUser(b.t, "carol")]);
});
afterAll(async () => {
  await Promise.all([stopInstance(a), stopInstance(b)]);
});

const actorOf = async (i: Instance, username: string) =>
  (await i.t.request(`/users/${username}`, { headers: { accept: "application/activity+json" } })).json() as Promise<any>;

async function follow(i: Instance, token: string, id: string) {
  await json(i, `/api/v1/accounts/${id}/follow`, token, { method: "POST" });
  await eventually(async () => (await relationship(i, token, id)).following);
}

const migrate = (browser: WebBrowser, acct: string, password: string) =>
  browser.submit("/settings/migration", "/settings/migration", { "account_migration[acct]": acct, "account_migration[current_password]": password });

test("A to B: aliases, the checks, the Move, followers on both servers carried over, moved accounts closed", async () => {
  // Followers of alice: dave on A, carol on B.
  await follow(a, dave.token, alice.id);
  const aliceOnB = await resolveAccount(b, carol.token, "alice", a);
  await follow(b, carol.token, aliceOnB.id);

  // Without the alias on B, the move is refused; a wrong password too.
  const aliceWeb = await new WebBrowser(a.t).signIn("alice", alice.password);
  const noAlias = await migrate(aliceWeb, `bob@${b.domain}`, alice.password);
  expect(noAlias.res.status).toBe(422);
  expect(noAlias.html).toContain("must list this account as an alias");

  // bob adds alice as an alias: resolved by WebFinger, listed, and on his actor as alsoKnownAs.
  const bobWeb = await new WebBrowser(b.t).signIn("bob", bob.password);
  const unknown = await bobWeb.submit("/settings/aliases", "/settings/aliases", { "account_alias[acct]": `nobody@${a.domain}` });
  expect(unknown.res.status).toBe(422);
  const added = await bobWeb.submit("/settings/aliases", "/settings/aliases", { "account_alias[acct]": `alice@${a.domain}` });
  expect(added.res.status).toBe(200);
  expect(added.html).toContain(`alice@${a.domain}`);
  expect((await actorOf(b, "bob")).alsoKnownAs).toEqual(`http://${a.domain}/users/alice`);

  const wrongPassword = await migrate(aliceWeb, `bob@${b.domain}`, "not-the-password");
  expect(wrongPassword.res.status).toBe(422);
  const moved = await migrate(aliceWeb, `bob@${b.domain}`, alice.password);
  expect(moved.res.status).toBe(200);
  expect(moved.html).toContain("redirects to");

  // On A: alice's actor says movedTo, her Account has `moved`, her API answers 403, nobody may follow her.
  expect((await actorOf(a, "alice")).movedTo).toBe(`http://${b.domain}/users/bob`);
  const aliceOnA = await json(a, `/api/v1/accounts/${alice.id}`, dave.token);
  expect(aliceOnA.moved.acct).toBe(`bob@${b.domain}`);
  expect(aliceOnA.moved.moved).toBeUndefined();
  const post = await a.t.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { status: "still here?" } });
  expect(post.status).toBe(403);
  expect(await post.json()).toEqual({ error: "Your login is currently disabled" });
  expect((await a.t.request(`/api/v1/accounts/${alice.id}/follow`, { method: "POST", token: dave.token })).status).toBe(403);
  expect(await (await a.t.request("/@alice")).text()).toContain("has moved to");

  // dave (local to the old account) now follows bob on B, not alice, and has a move notification.
  const bobOnA = await resolveAccount(a, dave.token, "bob", b);
  await eventually(async () => (await relationship(a, dave.token, bobOnA.id)).following);
  await eventually(async () => !(await relationship(a, dave.token, alice.id)).following);
  const [daveNote] = await json(a, "/api/v1/notifications?types[]=move", dave.token);
  expect(daveNote).toMatchObject({ type: "move", account: { id: aliceOnA.id }, target: { id: bobOnA.id } });

  // carol (on B, following the old account remotely) got the Move: she follows bob, not alice@A.
  await eventually(async () => (await relationship(b, carol.token, bob.id)).following);
  await eventually(async () => !(await relationship(b, carol.token, aliceOnB.id)).following);
  expect((await json(b, `/api/v1/accounts/${aliceOnB.id}`, carol.token)).moved.id).toBe(bob.id);
  const [carolNote] = await json(b, "/api/v1/notifications?types[]=move", carol.token);
  expect(carolNote).toMatchObject({ type: "move", account: { id: aliceOnB.id }, target: { id: bob.id } });

  // Cancelling the redirect reopens the API; moving again inside 30 days is refused.
  const cancelled = await aliceWeb.submit("/settings/migration", "/settings/migration/cancel");
  expect(cancelled.res.status).toBe(200);
  expect((await a.t.request("/api/v1/accounts/verify_credentials", { token: alice.token })).status).toBe(200);
  const again = await migrate(aliceWeb, `bob@${b.domain}`, alice.password);
  expect(again.res.status).toBe(422);
  expect(again.html).toContain("30 days");
});

test("B to A: erin on B moves to frank on A (frank locked: the follower carried over without asking)", async () => {
  const [erin, frank, gina] = await Promise.all([signedInUser(b.t, "erin"), signedInUser(a.t, "frank"), signedInUser(a.t, "gina")]);
  await json(a, "/api/v1/accounts/update_credentials", frank.token, { method: "PATCH", body: JSON.stringify({ locked: true }), headers: { "content-type": "application/json" } });
  const erinOnA = await resolveAccount(a, gina.token, "erin", b);
  await follow(a, gina.token, erinOnA.id);

  const frankWeb = await new WebBrowser(a.t).signIn("frank", frank.password);
  expect((await frankWeb.submit("/settings/aliases", "/settings/aliases", { "account_alias[acct]": `erin@${b.domain}` })).res.status).toBe(200);
  const erinWeb = await new WebBrowser(b.t).signIn("erin", erin.password);
  expect((await migrate(erinWeb, `frank@${a.domain}`, erin.password)).res.status).toBe(200);

  // gina (on A, following erin@B) follows frank at once: he listed the alias, so no request.
  await eventually(async () => (await relationship(a, gina.token, frank.id)).following);
  await eventually(async () => !(await relationship(a, gina.token, erinOnA.id)).following);
  expect((await json(a, `/api/v1/accounts/${erinOnA.id}`, gina.token)).moved.id).toBe(frank.id);
  // Removing the alias takes it off frank's actor.
  const page = await frankWeb.open("/settings/aliases");
  const removed = await frankWeb.post("/settings/aliases/remove", page.csrf, { alias: `http://${b.domain}/users/erin` });
  expect(removed.res.status).toBe(200);
  expect((await actorOf(a, "frank")).alsoKnownAs).toBeUndefined();
});
