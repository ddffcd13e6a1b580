// Threads completed in the background, against the non-Fedify test peer (Mastodon's shapes): a reply whose
// ancestors are unknown gets its thread fetched by jobs and linked; the context of a remote status asks for
// its `replies` collection and adds the replies it did not have, not more than once in a while.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startPeer, type Peer, type PeerActor } from "../peer/server.ts";
import { PUBLIC } from "../peer/checks/common.ts";
import { json, relationship, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { eventually } from "../helpers/eventually.ts";

let warren: Instance;
let peer: Peer;
let mallory: PeerActor;
let eve: PeerActor;
let alice: Awaited<ReturnType<typeof signedInUser>>;

/** A Note by `author` served by the peer at `/users/<name>/statuses/<n>`; its id. */
function note(author: PeerActor, n: number, inReplyTo: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const id = `${author.id}/statuses/${n}`;
  const document = {
    "@context": "https://www.w3.org/ns/activitystreams",
    id, type: "Note", attributedTo: author.id, content: `<p>post ${n}</p>`, published: new Date().toISOString(),
    to: [PUBLIC], cc: [`${author.id}/followers`], inReplyTo, url: id, ...extra,
  };
  peer.serve(new URL(id).pathname, document);
  return document;
}

const search = async (uri: string) =>
  (await json(warren, `/api/v2/search?q=${encodeURIComponent(uri)}&resolve=true&type=statuses`, alice.token)).statuses[0];
const contextOf = (id: string) => json(warren, `/api/v1/statuses/${id}/context`, alice.token);

beforeAll(async () => {
  warren = await startInstance();
  alice = await signedInUser(warren.t, "alice");
  peer = startPeer({ flavour: "mastodon" });
  mallory = peer.actor("mallory");
  eve = peer.actor("eve");
  const found = await json(warren, `/api/v2/search?q=${encodeURIComponent(`@mallory@${peer.domain}`)}&resolve=true&type=accounts`, alice.token);
  await json(warren, `/api/v1/accounts/${found.accounts[0].id}/follow`, alice.token, { method: "POST" });
  await eventually(async () => (await relationship(warren, alice.token, found.accounts[0].id)).following);
});
afterAll(async () => {
  peer.stop();
  await stopInstance(warren);
});

test("a reply whose ancestors are unknown has its thread fetched in the background and linked", async () => {
  const root = note(eve, 1, null);
  const middle = note(eve, 2, root.id as string);
  const upper = note(eve, 3, middle.id as string);
  const reply = note(mallory, 4, upper.id as string);
  const create = { id: `${reply.id}/activity`, type: "Create", actor: mallory.id, to: reply.to, cc: reply.cc, object: reply };
  expect((await peer.send(mallory, `http://${warren.domain}/inbox`, create)).status).toBe(202);
  // A reply to someone alice does not follow stays out of her home: the inbox job is awaited instead.
  await warren.t.deps.jobs.drain();
  const stored = await search(reply.id as string);
  const thread = await eventually(async () => {
    const context = await contextOf(stored.id);
    return context.ancestors.length === 3 && context;
  });
  expect(thread.ancestors.map((s: any) => s.uri)).toEqual([root.id, middle.id, upper.id]);
  const top = await search(root.id as string);
  expect(top.replies_count).toBe(1);
  // Each ancestor was fetched once, through a signed GET.
  for (const id of [root.id, middle.id, upper.id]) {
    const gets = peer.requests.filter((r) => r.method === "GET" && r.path === new URL(id as string).pathname);
    expect(gets.length).toBe(1);
    expect(gets[0]!.verification.ok).toBe(true);
  }
});

test("the context of a remote status asks for its replies collection, and adds the replies it lacked", async () => {
  const first = note(eve, 20, null);
  const known = note(mallory, 21, first.id as string);
  const unknown = note(eve, 22, first.id as string);
  const repliesId = `${first.id}/replies`;
  note(eve, 20, null, {
    replies: { id: repliesId, type: "Collection", first: { type: "CollectionPage", id: `${repliesId}?page=true`, partOf: repliesId, items: [known.id, unknown.id] } },
  });
  const status = await search(first.id as string);
  await search(known.id as string);
  expect((await contextOf(status.id)).descendants.map((s: any) => s.uri)).toEqual([known.id]);
  const withBoth = await eventually(async () => {
    const context = await contextOf(status.id);
    return context.descendants.length === 2 && context;
  });
  expect(withBoth.descendants.map((s: any) => s.uri).sort()).toEqual([known.id, unknown.id].sort());
  // Asked once: a second read within the interval fetches nothing more.
  const fetches = () => peer.requests.filter((r) => r.path === new URL(first.id as string).pathname).length;
  const before = fetches();
  await contextOf(status.id);
  await warren.t.deps.jobs.drain();
  expect(fetches()).toBe(before);
});
