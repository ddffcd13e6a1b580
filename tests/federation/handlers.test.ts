// The follow handlers of src/federation/follows.ts at the unit level, with @fedify/testing's mock federation
// standing in for Fedify (its contexts map our actor URIs and record what is sent instead of delivering it)
// against a real store from startTestApp(): Follow to an unlocked, a locked and a blocking account, Accept and
// Reject of our Follows, Undo(Follow). Remote accounts are stored as if fetched (storeActor), so no handler
// reaches the network; what the handlers change is read back through the API.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { InboxContext } from "@fedify/fedify";
import { createFederation, createInboxContext } from "@fedify/testing";
import { Accept, Follow, Person, Reject, Undo } from "@fedify/vocab";
import { onAccept, onFollow, onReject } from "../../src/federation/follows.ts";
import { onUndo } from "../../src/federation/undo.ts";
import { storeActor } from "../../src/federation/remote-accounts.ts";
import { getFollowRequest } from "../../src/store/relationships.ts";
import { BASE, startTestApp, type TestApp } from "../helpers/app.ts";
import { signedInUser } from "../helpers/clients.ts";

let t: TestApp;
const mock = createFederation<void>({ origin: BASE });
/** A mock context for our origin: actor URIs map to identifiers, sent activities are recorded. */
const base = mock.createContext(new URL(BASE), undefined);

/** An inbox context as Fedify gives listeners, built on the mock context. */
function inbox(recipient: string | null = null): InboxContext<void> {
  return createInboxContext<void>({
    url: new URL(BASE),
    data: undefined,
    federation: mock,
    recipient,
    getActorUri: (identifier) => base.getActorUri(identifier),
    getInboxUri: ((identifier?: string) => base.getInboxUri(identifier as string)) as InboxContext<void>["getInboxUri"],
    parseUri: (uri) => base.parseUri(uri),
    sendActivity: ((sender: unknown, recipients: unknown, activity: never, options: never) =>
      base.sendActivity(sender as never, recipients as never, activity, options)) as InboxContext<void>["sendActivity"],
  });
}

type User = Awaited<ReturnType<typeof signedInUser>>;
let owner: User;
let locked: User;
let blocker: User;
let fan: User;

let remoteCount = 0;
/** A remote actor stored as if fetched: its URI and public account id. */
async function remoteActor(): Promise<{ uri: URL; id: string }> {
  const name = `remote${++remoteCount}`;
  const uri = new URL(`https://remote.invalid/users/${name}`);
  const actor = new Person({ id: uri, preferredUsername: name, inbox: new URL(`${uri.href}/inbox`) });
  const account = await storeActor(t.deps, actor, "remote.invalid");
  return { uri, id: account!.id.replace(/^0+/, "") };
}

const actorUri = (user: User) => new URL(`${BASE}/users/${user.username}`);

async function relationshipOf(user: User, id: string): Promise<any> {
  const res = await t.request(`/api/v1/accounts/relationships?id[]=${id}`, { token: user.token });
  return ((await res.json()) as any[])[0];
}

/** Activities sent since `from` (an index into the mock's record). */
const sentSince = (from: number) => base.getSentActivities().slice(from);

beforeAll(async () => {
  t = await startTestApp();
  owner = await signedInUser(t, "owner");
  locked = await signedInUser(t, "locked");
  blocker = await signedInUser(t, "blocker");
  fan = await signedInUser(t, "fan");
  const res = await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: locked.token, json: { locked: true } });
  expect(res.status).toBe(200);
});
afterAll(() => t.close());

describe("incoming Follow", () => {
  test("to an unlocked account: followed at once, and an Accept of that Follow goes to the follower", async () => {
    const remote = await remoteActor();
    const before = base.getSentActivities().length;
    const follow = new Follow({ id: new URL(`${remote.uri.href}#follows/1`), actor: remote.uri, object: actorUri(owner) });
    await onFollow(t.deps, inbox("owner"), follow);
    expect((await relationshipOf(owner, remote.id)).followed_by).toBe(true);
    const sent = sentSince(before);
    expect(sent).toHaveLength(1);
    const accept = sent[0]!.activity;
    expect(accept).toBeInstanceOf(Accept);
    expect(accept.actorId?.href).toBe(actorUri(owner).href);
    expect((await accept.getObject())?.id?.href).toBe(follow.id!.href);
    expect(sent[0]!.sender).toEqual({ identifier: "owner" });
    expect(sent[0]!.recipients.id.href).toBe(remote.uri.href);

    // Repeated: still one follow, answered again (as Mastodon does).
    await onFollow(t.deps, inbox("owner"), follow);
    expect(sentSince(before).map((s) => s.activity.constructor.name)).toEqual(["Accept", "Accept"]);
  });

  test("to a locked account: a follow request with the Follow's id, nothing sent", async () => {
    const remote = await remoteActor();
    const before = base.getSentActivities().length;
    const follow = new Follow({ id: new URL(`${remote.uri.href}#follows/2`), actor: remote.uri, object: actorUri(locked) });
    await onFollow(t.deps, inbox("locked"), follow);
    const relationship = await relationshipOf(locked, remote.id);
    expect(relationship.requested_by).toBe(true);
    expect(relationship.followed_by).toBe(false);
    const requests = (await (await t.request("/api/v1/follow_requests", { token: locked.token })).json()) as { id: string }[];
    expect(requests.map((r) => r.id)).toContain(remote.id);
    expect(getFollowRequest(t.deps.store, remote.id.padStart(18, "0"), locked.id.padStart(18, "0"))?.uri).toBe(follow.id!.href);
    expect(sentSince(before)).toHaveLength(0);
  });

  test("from an account the target blocks: a Reject of that Follow, no follow", async () => {
    const remote = await remoteActor();
    expect((await t.request(`/api/v1/accounts/${remote.id}/block`, { method: "POST", token: blocker.token })).status).toBe(200);
    const before = base.getSentActivities().length;
    const follow = new Follow({ id: new URL(`${remote.uri.href}#follows/3`), actor: remote.uri, object: actorUri(blocker) });
    await onFollow(t.deps, inbox("blocker"), follow);
    expect((await relationshipOf(blocker, remote.id)).followed_by).toBe(false);
    const sent = sentSince(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.activity).toBeInstanceOf(Reject);
    expect((await sent[0]!.activity.getObject())?.id?.href).toBe(follow.id!.href);
  });

  test("of an account that is not ours, or from one of ours, is ignored", async () => {
    const remote = await remoteActor();
    const before = base.getSentActivities().length;
    await onFollow(t.deps, inbox(), new Follow({ id: new URL(`${remote.uri.href}#follows/4`), actor: remote.uri, object: new URL("https://elsewhere.invalid/users/x") }));
    await onFollow(t.deps, inbox(), new Follow({ id: new URL(`${BASE}/users/fan#follows/5`), actor: actorUri(fan), object: actorUri(owner) }));
    expect(sentSince(before)).toHaveLength(0);
    expect((await relationshipOf(owner, fan.id)).followed_by).toBe(false);
  });
});

describe("Accept and Reject of our Follows", () => {
  /** A pending request from `fan` to a new remote account, and the id of the Follow it sent. */
  async function pendingRequest() {
    const remote = await remoteActor();
    const res = await t.request(`/api/v1/accounts/${remote.id}/follow`, { method: "POST", token: fan.token });
    expect(((await res.json()) as { requested: boolean }).requested).toBe(true);
    const request = getFollowRequest(t.deps.store, fan.id.padStart(18, "0"), remote.id.padStart(18, "0"))!;
    return { remote, followId: new URL(`${actorUri(fan).href}#follows/${request.id}`) };
  }

  test("an Accept (with the Follow embedded) turns the request into a follow", async () => {
    const { remote, followId } = await pendingRequest();
    await onAccept(t.deps, inbox("fan"), new Accept({
      id: new URL(`${remote.uri.href}#accepts/1`),
      actor: remote.uri,
      object: new Follow({ id: followId, actor: actorUri(fan), object: remote.uri }),
    }));
    const relationship = await relationshipOf(fan, remote.id);
    expect(relationship.following).toBe(true);
    expect(relationship.requested).toBe(false);
  });

  test("an Accept by someone other than the followee changes nothing", async () => {
    const { remote, followId } = await pendingRequest();
    const other = await remoteActor();
    await onAccept(t.deps, inbox("fan"), new Accept({ id: new URL(`${other.uri.href}#accepts/1`), actor: other.uri, object: followId }));
    expect(await relationshipOf(fan, remote.id)).toMatchObject({ following: false, requested: true });
    expect((await relationshipOf(fan, other.id)).following).toBe(false);
  });

  test("a Reject (of the Follow's id) drops the pending request", async () => {
    const { remote, followId } = await pendingRequest();
    await onReject(t.deps, inbox("fan"), new Reject({ id: new URL(`${remote.uri.href}#rejects/1`), actor: remote.uri, object: followId }));
    expect(await relationshipOf(fan, remote.id)).toMatchObject({ following: false, requested: false });
  });

  test("a Reject of an accepted follow removes it", async () => {
    const { remote, followId } = await pendingRequest();
    await onAccept(t.deps, inbox("fan"), new Accept({ id: new URL(`${remote.uri.href}#accepts/2`), actor: remote.uri, object: followId }));
    expect((await relationshipOf(fan, remote.id)).following).toBe(true);
    await onReject(t.deps, inbox("fan"), new Reject({ id: new URL(`${remote.uri.href}#rejects/2`), actor: remote.uri, object: followId }));
    expect((await relationshipOf(fan, remote.id)).following).toBe(false);
  });
});

describe("Undo(Follow)", () => {
  test("unfollows; an Undo of someone else's Follow is ignored", async () => {
    const remote = await remoteActor();
    const follow = new Follow({ id: new URL(`${remote.uri.href}#follows/9`), actor: remote.uri, object: actorUri(owner) });
    await onFollow(t.deps, inbox("owner"), follow);
    expect((await relationshipOf(owner, remote.id)).followed_by).toBe(true);

    const impostor = await remoteActor();
    await onUndo(t.deps, inbox("owner"), new Undo({ id: new URL(`${impostor.uri.href}#undo/1`), actor: impostor.uri, object: follow }));
    expect((await relationshipOf(owner, remote.id)).followed_by).toBe(true);

    await onUndo(t.deps, inbox("owner"), new Undo({ id: new URL(`${remote.uri.href}#follows/9/undo`), actor: remote.uri, object: follow }));
    expect((await relationshipOf(owner, remote.id)).followed_by).toBe(false);
  });
});
