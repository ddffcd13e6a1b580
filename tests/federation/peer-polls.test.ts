// Polls across servers (issue 26, item 2): a real Warren (job workers on, poll results sent at once) and the
// test peer (tests/peer/, not Fedify) playing Mastodon. mallory's Questions become statuses with a poll in the
// API; alice's vote goes out as Mastodon's vote Note; Updates of the Question refresh the counts; the end tells
// alice. mallory's votes on alice's polls count, and the new counts go out as an Update of the Question.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startPeer, type Peer, type PeerActor, type PeerRequest } from "../peer/server.ts";
import { problemsIn } from "../peer/problems.ts";
import { activity, emojiTag, question } from "../peer/objects.ts";
import { json, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { eventually } from "../helpers/eventually.ts";

let warren: Instance;
let mastodon: Peer;
let mallory: PeerActor;
let alice: Awaited<ReturnType<typeof signedInUser>>;
const inbox = () => `http://${warren.domain}/inbox`;
const aliceUri = () => `http://${warren.domain}/users/alice`;
const jsonBody = (body: unknown) => ({ method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });

async function post(body: Record<string, unknown>): Promise<void> {
  expect((await mastodon.send(mallory, inbox(), body)).status).toBe(202);
}

/** The API's Status of `uri` once alice's home timeline shows it. */
const inHome = (uri: string) => eventually(async () => (await json(warren, "/api/v1/timelines/home", alice.token)).find((s: any) => s.uri === uri));

beforeAll(async () => {
  warren = await startInstance({ WARREN_POLL_UPDATE_DELAY_MS: "0" });
  alice = await signedInUser(warren.t, "alice");
  mastodon = startPeer({ flavour: "mastodon" });
  mallory = mastodon.actor("mallory");
  const q = encodeURIComponent(`@mallory@${mastodon.domain}`);
  const [account] = (await json(warren, `/api/v2/search?q=${q}&resolve=true&type=accounts`, alice.token)).accounts;
  await json(warren, `/api/v1/accounts/${account.id}/follow`, alice.token, { method: "POST" });
  await eventually(async () => (await json(warren, `/api/v1/accounts/relationships?id[]=${account.id}`, alice.token))[0].following);
});
afterAll(async () => {
  mastodon.stop();
  await stopInstance(warren);
});

test("a Question is a status with a poll; alice's vote goes out as Mastodon's vote Note; an Update refreshes the counts", async () => {
  const object = question(mastodon, mallory, [["tea :blobcat:", 3], ["coffee", 1]], { content: "<p>which?</p>", tag: [emojiTag(mastodon, "blobcat")] });
  await post(activity(mastodon, mallory, "Create", object));
  const status = await inHome(object.id);
  expect(status.poll).toMatchObject({ multiple: false, expired: false, votes_count: 4, voters_count: 4, voted: false, own_votes: [] });
  expect(status.poll.options).toEqual([{ title: "tea :blobcat:", votes_count: 3 }, { title: "coffee", votes_count: 1 }]);
  expect(Date.parse(status.poll.expires_at)).toBe(Date.parse(object.endTime));
  expect(status.emojis.map((e: any) => e.shortcode)).toEqual(["blobcat"]);

  const voted = await json(warren, `/api/v1/polls/${status.poll.id}/votes`, alice.token, jsonBody({ choices: ["1"] }));
  expect(voted).toMatchObject({ voted: true, own_votes: [1] });
  const delivery: PeerRequest = await eventually(async () => mastodon.deliveries("Create").find((r) => r.activity?.object?.inReplyTo === object.id));
  expect(delivery.path).toBe("/users/mallory/inbox");
  expect(delivery.verification).toMatchObject({ ok: true, owner: aliceUri() });
  expect(delivery.activity!.object).toMatchObject({ type: "Note", name: "coffee", attributedTo: aliceUri(), to: mallory.id });
  expect(problemsIn([delivery])).toEqual([]);

  // Mastodon's poll update: the Question with new counts and no `updated` (not an edit).
  const counted = question(mastodon, mallory, [["tea :blobcat:", 3], ["coffee", 2]], { id: object.id, content: object.content, endTime: object.endTime, tag: object.tag });
  await post(activity(mastodon, mallory, "Update", counted));
  const refreshed = await eventually(async () => {
    const poll = await json(warren, `/api/v1/polls/${status.poll.id}`, alice.token);
    return poll.votes_count === 5 ? poll : null;
  });
  expect(refreshed).toMatchObject({ voters_count: 5, voted: true, own_votes: [1] });
  expect((await json(warren, `/api/v1/statuses/${status.id}`, alice.token)).edited_at).toBeNull();
});

test("a multiple-choice Question (anyOf) and the end of a poll alice voted on: a poll notification", async () => {
  const object = question(mastodon, mallory, [["a", 1], ["b", 0], ["c", 2]], { multiple: true, votersCount: 2, endTime: new Date(Date.now() + 3000).toISOString() });
  await post(activity(mastodon, mallory, "Create", object));
  const status = await inHome(object.id);
  expect(status.poll).toMatchObject({ multiple: true, votes_count: 3, voters_count: 2 });
  await json(warren, `/api/v1/polls/${status.poll.id}/votes`, alice.token, jsonBody({ choices: ["0", "2"] }));
  const votes = await eventually(async () => {
    const found = mastodon.deliveries("Create").filter((r) => r.activity?.object?.inReplyTo === object.id);
    return found.length === 2 ? found : null;
  });
  expect(votes.map((r) => r.activity!.object.name).sort()).toEqual(["a", "c"]);
  const notification = await eventually(
    async () => (await json(warren, "/api/v1/notifications?types[]=poll", alice.token)).find((n: any) => n.status.id === status.id),
    { timeoutMs: 20_000, what: "the poll notification" },
  );
  expect(notification.status.poll.expired).toBe(true);
});

test("mallory's votes on alice's poll count (once for one choice), are no statuses, and the results go out as an Update", async () => {
  const local = await json(warren, "/api/v1/statuses", alice.token, jsonBody({ status: "lunch?", poll: { options: ["pizza", "salad"], expires_in: 3600 } }));
  const vote = (name: string) =>
    activity(mastodon, mallory, "Create", { id: `${mallory.id}#votes/${Date.now()}${name}`, type: "Note", name, attributedTo: mallory.id, inReplyTo: local.uri, to: aliceUri() }, { to: aliceUri() });
  await post(vote("pizza"));
  await eventually(async () => (await json(warren, `/api/v1/polls/${local.poll.id}`, alice.token)).votes_count === 1);
  // A second vote on a single-choice poll, and a vote for no option, are not counted.
  await post(vote("salad"));
  await post(vote("soup"));
  await warren.t.deps.jobs.drain();
  const poll = await json(warren, `/api/v1/polls/${local.poll.id}`, alice.token);
  expect(poll).toMatchObject({ votes_count: 1, voters_count: 1 });
  expect(poll.options).toEqual([{ title: "pizza", votes_count: 1 }, { title: "salad", votes_count: 0 }]);
  expect((await json(warren, `/api/v1/statuses/${local.id}/context`, alice.token)).descendants).toEqual([]);
  expect((await json(warren, `/api/v1/statuses/${local.id}`, alice.token)).replies_count).toBe(0);

  const update = await eventually(async () => mastodon.deliveries("Update").find((r) => r.activity?.object?.id === local.uri));
  expect(update.verification).toMatchObject({ ok: true, owner: aliceUri() });
  expect(update.activity!.object).toMatchObject({ type: "Question", votersCount: 1 });
  expect(update.activity!.object.oneOf.map((o: any) => [o.name, o.replies.totalItems])).toEqual([["pizza", 1], ["salad", 0]]);
  expect(problemsIn([update])).toEqual([]);
});

test("the end of alice's poll sends its final results to the servers of those who voted", async () => {
  const local = await json(warren, "/api/v1/statuses", alice.token, jsonBody({ status: "last call", poll: { options: ["yes", "no"], expires_in: 600 } }));
  await post(activity(mastodon, mallory, "Create", { id: `${mallory.id}#votes/${Date.now()}end`, type: "Note", name: "no", attributedTo: mallory.id, inReplyTo: local.uri, to: aliceUri() }, { to: aliceUri() }));
  await eventually(async () => mastodon.deliveries("Update").find((r) => r.activity?.object?.id === local.uri));
  const before = mastodon.deliveries("Update").filter((r) => r.activity?.object?.id === local.uri).length;
  // The expiry timer as it runs at the poll's end (its payload names the end it was set for).
  const { getPoll } = await import("../../src/store/polls.ts");
  const { POLL_EXPIRY } = await import("../../src/domain/job-names.ts");
  const expiresAt = getPoll(warren.t.deps.store, local.id)!.expiresAt;
  await warren.t.deps.store.write(() => warren.t.deps.jobs.enqueue(POLL_EXPIRY, { statusId: local.id, expiresAt }));
  const final = await eventually(async () => {
    const updates = mastodon.deliveries("Update").filter((r) => r.activity?.object?.id === local.uri);
    return updates.length > before ? updates.at(-1) : null;
  });
  expect(final!.activity!.object.oneOf.map((o: any) => [o.name, o.replies.totalItems])).toEqual([["yes", 0], ["no", 1]]);
  expect(final!.verification).toMatchObject({ ok: true, owner: aliceUri() });
});

test("a vote on a poll its voter may not see, or attributed to someone else, is not counted", async () => {
  const hidden = await json(warren, "/api/v1/statuses", alice.token, jsonBody({ status: "followers only", visibility: "private", poll: { options: ["x", "y"], expires_in: 600 } }));
  const open = await json(warren, "/api/v1/statuses", alice.token, jsonBody({ status: "open", poll: { options: ["x", "y"], expires_in: 600 } }));
  const vote = (status: any, attributedTo: string) =>
    activity(mastodon, mallory, "Create", { id: `${mallory.id}#votes/${Date.now()}${status.id}`, type: "Note", name: "x", attributedTo, inReplyTo: status.uri, to: aliceUri() }, { to: aliceUri() });
  await post(vote(hidden, mallory.id));
  await post(vote(open, `${mastodon.base}/users/someone-else`));
  await warren.t.deps.jobs.drain();
  expect((await json(warren, `/api/v1/polls/${hidden.poll.id}`, alice.token)).votes_count).toBe(0);
  expect((await json(warren, `/api/v1/polls/${open.poll.id}`, alice.token)).votes_count).toBe(0);
});
