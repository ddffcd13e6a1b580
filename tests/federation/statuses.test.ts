// Issue 14 end to end: two Warren instances on loopback (workers on). A public, an unlisted, a private and a
// direct status of alice (on A) reach exactly the right timelines on B; a reply and a mention notify across;
// a favourite and a reblog from B count on A and their undos uncount; a delete removes the copies; B's reply
// shows in the thread's context on A.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { signedInUser } from "../helpers/clients.ts";
import { json, resolveAccount, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(60_000);

type User = Awaited<ReturnType<typeof signedInUser>>;
let a: Instance;
let b: Instance;
let alice: User;
let bob: User; // follows alice
let carol: User; // follows nobody
let dave: User; // mentioned in the direct status
let aliceOnB: any;

const post = (i: Instance, user: User, body: Record<string, unknown>) => json(i, "/api/v1/statuses", user.token, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const texts = (statuses: any[]) => statuses.map((s) => s.content as string);
const home = (i: Instance, user: User) => json(i, "/api/v1/timelines/home", user.token);
const withText = (statuses: any[], text: string) => statuses.find((s) => (s.content as string).includes(text));

beforeAll(async () => {
  [a, b] = await Promise.all([startInstance(), startInstance()]);
  alice = await signedInUser(a.t, "alice");
  [bob, carol, dave] = [await signedInUser(b.t, "bob"), await signedInUser(b.t, "carol"), await signedInUser(b.t, "dave")];
  aliceOnB = await resolveAccount(b, bob.token, "alice", a);
  await json(b, `/api/v1/accounts/${aliceOnB.id}/follow`, bob.token, { method: "POST" });
  await eventually(async () => (await json(b, `/api/v1/accounts/relationships?id[]=${aliceOnB.id}`, bob.token))[0].following);
  await resolveAccount(a, alice.token, "dave", b); // so that alice's mention of dave links
});
afterAll(async () => {
  await Promise.all([stopInstance(a), stopInstance(b)]);
});

test("each visibility reaches exactly its audience on the other server", async () => {
  await post(a, alice, { status: "one public post", visibility: "public" });
  await post(a, alice, { status: "one unlisted post", visibility: "unlisted" });
  await post(a, alice, { status: "one private post", visibility: "private" });
  await post(a, alice, { status: `@dave@${b.domain} one direct post`, visibility: "direct" });

  const bobsHome = await eventually(async () => {
    const statuses = await home(b, bob);
    return statuses.length >= 3 ? statuses : undefined;
  });
  // A private mention from someone dave does not follow is filtered by the default notification policy
  // (Mastodon 4.3's): it is there with include_filtered.
  const mention = await eventually(async () => (await json(b, "/api/v1/notifications?types[]=mention&include_filtered=true", dave.token))[0]);
  // Anything that should not arrive has had its chance too: what A sent, then what B took in, has run.
  await a.t.deps.jobs.drain();
  await b.t.deps.jobs.drain();

  expect(texts(await home(b, bob)).join()).toContain("one public post");
  const bobs = texts(await home(b, bob)).join("\n");
  for (const text of ["one public post", "one unlisted post", "one private post"]) expect(bobs).toContain(text);
  expect(bobs).not.toContain("one direct post");
  expect(bobsHome.every((s: any) => s.account.acct === `alice@${a.domain}`)).toBe(true);
  expect(withText(bobsHome, "one unlisted post").visibility).toBe("unlisted");
  expect(withText(bobsHome, "one private post").visibility).toBe("private");

  // The federated timeline: the public post only (unlisted stays out).
  const federated = texts(await json(b, "/api/v1/timelines/public?remote=true", bob.token)).join("\n");
  expect(federated).toContain("one public post");
  expect(federated).not.toContain("one unlisted post");
  expect(federated).not.toContain("one private post");
  expect(texts(await json(b, "/api/v1/timelines/public?local=true", bob.token)).join()).not.toContain("one public post");

  // dave was mentioned: the direct post reaches him as a (filtered) mention and a conversation (not his home: he does not
  // follow alice, as on Mastodon); carol sees none of it.
  expect(mention.status.visibility).toBe("direct");
  expect(mention.status.content).toContain("one direct post");
  const conversations = await json(b, "/api/v1/conversations", dave.token);
  expect(conversations.map((c: any) => c.last_status.content).join()).toContain("one direct post");
  expect((await b.t.request(`/api/v1/statuses/${mention.status.id}`, { token: bob.token })).status).toBe(404);
  expect(texts(await home(b, carol))).toEqual([]);
  const carolsView = texts(await json(b, `/api/v1/accounts/${aliceOnB.id}/statuses`, carol.token)).join("\n");
  expect(carolsView).toContain("one public post");
  expect(carolsView).not.toContain("one private post");
  expect(carolsView).not.toContain("one direct post");
  const privateOnB = withText(bobsHome, "one private post");
  expect((await b.t.request(`/api/v1/statuses/${privateOnB.id}`, { token: carol.token })).status).toBe(404);
  expect((await b.t.request(`/api/v1/statuses/${privateOnB.id}`, { token: bob.token })).status).toBe(200);
});

test("a reply and a mention notify across; the reply is in the thread's context", async () => {
  const original = await post(a, alice, { status: "what do you think?" });
  const copy = await eventually(async () => withText(await home(b, bob), "what do you think?"));
  await post(b, bob, { status: `@alice@${a.domain} I think yes`, in_reply_to_id: copy.id });
  const notification = await eventually(async () => (await json(a, "/api/v1/notifications?types[]=mention", alice.token)).find((n: any) => n.status.content.includes("I think yes")));
  expect(notification.account.acct).toBe(`bob@${b.domain}`);
  const context = await json(a, `/api/v1/statuses/${original.id}/context`, alice.token);
  expect(texts(context.descendants).join()).toContain("I think yes");
  expect((await json(a, `/api/v1/statuses/${original.id}`, alice.token)).replies_count).toBe(1);
});

test("favourite and reblog count on the origin server, their undos uncount; a delete removes the copies", async () => {
  const original = await post(a, alice, { status: "count me" });
  const copy = await eventually(async () => withText(await home(b, bob), "count me"));
  await json(b, `/api/v1/statuses/${copy.id}/favourite`, bob.token, { method: "POST" });
  await json(b, `/api/v1/statuses/${copy.id}/reblog`, bob.token, { method: "POST" });
  const counted = await eventually(async () => {
    const s = await json(a, `/api/v1/statuses/${original.id}`, alice.token);
    return s.favourites_count === 1 && s.reblogs_count === 1 ? s : undefined;
  });
  expect(counted.favourites_count).toBe(1);
  const types = (await json(a, "/api/v1/notifications", alice.token)).filter((n: any) => n.status?.id === original.id).map((n: any) => n.type).sort();
  expect(types).toEqual(["favourite", "reblog"]);

  await json(b, `/api/v1/statuses/${copy.id}/unfavourite`, bob.token, { method: "POST" });
  await json(b, `/api/v1/statuses/${copy.id}/unreblog`, bob.token, { method: "POST" });
  await eventually(async () => {
    const s = await json(a, `/api/v1/statuses/${original.id}`, alice.token);
    return s.favourites_count === 0 && s.reblogs_count === 0;
  });

  await json(a, `/api/v1/statuses/${original.id}`, alice.token, { method: "DELETE" });
  await eventually(async () => (await b.t.request(`/api/v1/statuses/${copy.id}`, { token: bob.token })).status === 404);
  expect(texts(await home(b, bob)).join()).not.toContain("count me");
});
