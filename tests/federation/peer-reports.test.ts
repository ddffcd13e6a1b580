// Forwarded reports (issue 25 item 3) as the test peer (tests/peer/, not Fedify) receives them: alice reports
// mallory (Mastodon peer) for a reply to gina (GoToSocial peer). With forward=true the Mastodon peer gets a
// Flag from Warren's instance actor (the reporter stays anonymous) naming mallory and the status, with the
// comment; gina's server gets it too only when alice picked its domain in forward_to_domains[]. Unforwarded
// reports send nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { startPeer, type Peer, type PeerActor } from "../peer/server.ts";
import { problemsIn } from "../peer/problems.ts";
import { PUBLIC } from "../peer/checks/common.ts";
import { json, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";

let warren: Instance;
let mastodon: Peer;
let gts: Peer;
let mallory: PeerActor;
let gina: PeerActor;
let alice: Awaited<ReturnType<typeof signedInUser>>;
const instanceActor = () => `http://${warren.domain}/users/instance.actor`;

const note = (id: string, author: PeerActor, extra: Record<string, unknown> = {}) => ({
  "@context": "https://www.w3.org/ns/activitystreams",
  id, type: "Note", attributedTo: author.id, content: "<p>hello</p>", published: new Date().toISOString(),
  to: [PUBLIC], cc: [`${author.id}/followers`], ...extra,
});

async function report(body: Record<string, unknown>): Promise<any> {
  return json(warren, "/api/v1/reports", alice.token, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
}

async function resolve(url: string): Promise<any> {
  const found = await json(warren, `/api/v2/search?q=${encodeURIComponent(url)}&resolve=true&type=statuses`, alice.token);
  return found.statuses[0];
}

beforeAll(async () => {
  warren = await startInstance();
  alice = await signedInUser(warren.t, "alice");
  mastodon = startPeer({ flavour: "mastodon" });
  gts = startPeer({ flavour: "gotosocial" });
  mallory = mastodon.actor("mallory");
  gina = gts.actor("gina");
});
afterAll(async () => {
  mastodon.stop();
  gts.stop();
  await stopInstance(warren);
});

test("a forwarded report reaches the account's server as a Flag from the instance actor", async () => {
  const noteId = `${mallory.id}/statuses/1`;
  mastodon.serve(new URL(noteId).pathname, note(noteId, mallory));
  const status = await resolve(noteId);
  const quiet = await report({ account_id: status.account.id, status_ids: [status.id], comment: "not forwarded" });
  expect(quiet.forwarded).toBe(false);
  const filed = await report({ account_id: status.account.id, status_ids: [status.id], comment: "spam, again", forward: true });
  expect(filed.forwarded).toBe(true);
  const flag = await eventually(() => mastodon.deliveries("Flag")[0], { what: "the Flag" });
  expect(flag.path).toBe("/users/mallory/inbox");
  expect(flag.verification).toMatchObject({ ok: true, owner: instanceActor() });
  expect(flag.activity).toMatchObject({ type: "Flag", actor: instanceActor(), object: [mallory.id, noteId], content: "spam, again" });
  expect(JSON.stringify(flag.activity)).not.toContain("alice");
  expect(problemsIn([flag])).toEqual([]);
  await warren.t.deps.jobs.drain();
  expect(mastodon.deliveries("Flag")).toHaveLength(1);
});

test("the servers of the reply targets get it too when their domain is chosen", async () => {
  const parentId = `${gina.id}/statuses/parent`;
  gts.serve(new URL(parentId).pathname, note(parentId, gina));
  const replyId = `${mallory.id}/statuses/2`;
  mastodon.serve(new URL(replyId).pathname, note(replyId, mallory, { inReplyTo: parentId }));
  const reply = await resolve(replyId);
  expect(reply.in_reply_to_account_id).not.toBeNull();
  await report({ account_id: reply.account.id, status_ids: [reply.id], comment: "first", forward: true });
  await eventually(() => mastodon.deliveries("Flag").find((r) => r.activity?.content === "first"));
  await warren.t.deps.jobs.drain();
  expect(gts.deliveries("Flag")).toHaveLength(0);
  await report({ account_id: reply.account.id, status_ids: [reply.id], comment: "second", forward: true, forward_to_domains: [gts.domain] });
  const flag = await eventually(() => gts.deliveries("Flag")[0], { what: "the Flag at the reply target's server" });
  expect(flag.activity).toMatchObject({ actor: instanceActor(), object: [mallory.id, replyId], content: "second" });
  expect(problemsIn([flag])).toEqual([]);
});
