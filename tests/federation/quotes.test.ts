// Quote posts across servers (FEP-044f, as Mastodon 4.5): the wire shapes and hostile cases with the fake peer
// (mallory on `peer`, eve on `other`, a third server), and two real Warren instances (A: alice; B: bob, who
// follows alice) for a quote of a remote status accepted on both sides, counted on the origin, and revoked.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { signedInUser } from "../helpers/clients.ts";
import { startFakePeer, type FakeActor, type FakePeer } from "../helpers/fake-peer.ts";
import { statusByUri } from "../../src/domain/statuses/remote.ts";
import { publicId } from "../../src/lib/ids.ts";
import { json, relationship, resolveAccount, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(60_000);

type User = Awaited<ReturnType<typeof signedInUser>>;
let a: Instance;
let b: Instance;
let peer: FakePeer;
let other: FakePeer;
let mallory: FakeActor;
let eve: FakeActor;
let alice: User;
let carol: User; // on A, follows mallory
let bob: User; // on B, follows alice

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
const FEP = "https://w3id.org/fep/044f#";
// The terms a Mastodon 4.5 document uses for quotes and interaction policies.
const CONTEXT = [
  "https://www.w3.org/ns/activitystreams",
  "https://gotosocial.org/ns",
  {
    QuoteRequest: `${FEP}QuoteRequest`,
    QuoteAuthorization: `${FEP}QuoteAuthorization`,
    quote: { "@id": `${FEP}quote`, "@type": "@id" },
    quoteAuthorization: { "@id": `${FEP}quoteAuthorization`, "@type": "@id" },
  },
];
const AP = { accept: "application/activity+json" };

let serial = 0;
const actorUri = (username: string) => `http://${a.domain}/users/${username}`;
const inbox = () => `http://${a.domain}/inbox`;
const post = (i: Instance, user: User, body: Record<string, unknown>) =>
  json(i, "/api/v1/statuses", user.token, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const status = (i: Instance, user: User, id: string) => json(i, `/api/v1/statuses/${id}`, user.token);
const getAp = async (url: string) => {
  const res = await a.t.app.handle(new Request(url, { headers: AP }));
  return { status: res.status, body: (res.status === 200 ? await res.json() : null) as any };
};
const asList = (value: unknown) => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/** A public Note by `actor` on its server (served there too). */
function note(server: FakePeer, actor: FakeActor, extra: Record<string, unknown> = {}): Record<string, any> {
  const path = `/users/${actor.username}/statuses/${++serial}`;
  const n = { "@context": CONTEXT, id: `${server.base}${path}`, type: "Note", attributedTo: actor.id, content: `<p>note ${serial}</p>`, published: new Date().toISOString(), to: [PUBLIC], cc: [`${actor.id}/followers`], ...extra };
  server.serve(path, n);
  return n;
}

async function send(server: FakePeer, actor: FakeActor, type: string, object: unknown, extra: Record<string, unknown> = {}) {
  const res = await server.send(actor, inbox(), { "@context": CONTEXT, id: `${actor.id}#${type.toLowerCase()}/${++serial}`, type, actor: actor.id, object, ...extra });
  expect(res.status).toBe(202);
}

const received = (server: FakePeer, check: (body: any) => boolean) => eventually(async () => server.received.find((r) => check(r.body))?.body);

/** The remote status `uri` as `user` on A sees it, once stored. */
const storedOnA = (user: User, uri: string) =>
  eventually(async () => {
    const stored = statusByUri(a.t.deps, uri);
    return stored && status(a, user, publicId(stored.id));
  });

beforeAll(async () => {
  [a, b, peer, other] = await Promise.all([startInstance(), startInstance(), startFakePeer(), startFakePeer()]);
  [alice, carol] = await Promise.all([signedInUser(a.t, "alice"), signedInUser(a.t, "carol")]);
  bob = await signedInUser(b.t, "bob");
  [mallory, eve] = await Promise.all([peer.actor("mallory"), other.actor("eve")]);
  // carol follows mallory (the peer accepts by hand), so mallory's Notes are kept on A.
  const found = await json(a, `/api/v2/search?q=${encodeURIComponent(`@mallory@${peer.domain}`)}&resolve=true&type=accounts`, carol.token);
  const malloryId = found.accounts[0].id;
  await json(a, `/api/v1/accounts/${malloryId}/follow`, carol.token, { method: "POST" });
  const follow = await received(peer, (body) => body?.type === "Follow" && body.actor === actorUri("carol"));
  await peer.send(mallory, `${actorUri("carol")}/inbox`, { id: `${mallory.id}#accept/${++serial}`, type: "Accept", actor: mallory.id, object: follow });
  await eventually(async () => (await relationship(a, carol.token, malloryId)).following);
});
afterAll(async () => {
  peer.stop();
  other.stop();
  await Promise.all([stopInstance(a), stopInstance(b)]);
});

test("a local Note carries interactionPolicy.canQuote by its policy, and a quote its quote fields and authorization", async () => {
  const open = await post(a, alice, { status: "quote me", quote_approval_policy: "public" });
  const followers = await post(a, alice, { status: "followers may", quote_approval_policy: "followers" });
  const nobody = await post(a, alice, { status: "nobody may", quote_approval_policy: "nobody" });
  const canQuote = async (s: any) => asList(((await getAp(s.uri)).body as any).interactionPolicy.canQuote.automaticApproval);
  expect((await canQuote(open)).map((u: string) => u.replace(/^as:/, "https://www.w3.org/ns/activitystreams#"))).toEqual([PUBLIC]);
  expect(await canQuote(followers)).toEqual([`${actorUri("alice")}/followers`, actorUri("alice")]);
  expect(await canQuote(nobody)).toEqual([actorUri("alice")]);

  const quoting = await post(a, carol, { status: "look", quoted_status_id: open.id });
  expect(quoting.quote.state).toBe("accepted");
  const served: any = (await getAp(quoting.uri)).body;
  expect(served).toMatchObject({ quote: open.uri, quoteUri: open.uri, _misskey_quote: open.uri });
  expect(served.quoteAuthorization).toBe(`${actorUri("alice")}/quote_authorizations/${quoting.id}`);
  const authorization = await getAp(served.quoteAuthorization);
  expect(authorization.status).toBe(200);
  expect(authorization.body).toMatchObject({
    type: "QuoteAuthorization",
    id: served.quoteAuthorization,
    attributedTo: actorUri("alice"),
    interactingObject: quoting.uri,
    interactionTarget: open.uri,
  });
  // mallory follows carol: alice revoking carol's quote deletes the authorization at mallory's server too.
  const follow = { id: `${mallory.id}#follow/${++serial}`, type: "Follow", actor: mallory.id, object: actorUri("carol") };
  await peer.send(mallory, `${actorUri("carol")}/inbox`, follow);
  await eventually(async () => (await json(a, `/api/v1/accounts/${carol.id}/followers`, carol.token)).length > 0 || undefined);
  await json(a, `/api/v1/statuses/${open.id}/quotes/${quoting.id}/revoke`, alice.token, { method: "POST" });
  const deleted = await received(peer, (body) => body?.type === "Delete" && body.object === served.quoteAuthorization);
  expect(deleted.actor).toBe(actorUri("alice"));
  expect((await getAp(served.quoteAuthorization)).status).toBe(404);
  // (Unfollowed again: later tests see what reaches mallory as the quoted author only.)
  await peer.send(mallory, `${actorUri("carol")}/inbox`, { id: `${follow.id}/undo`, type: "Undo", actor: mallory.id, object: follow });
  await eventually(async () => (await json(a, `/api/v1/accounts/${carol.id}/followers`, carol.token)).length === 0 || undefined);
  // Under another account's path, or for a status that quotes nothing: 404.
  expect((await getAp(`${actorUri("carol")}/quote_authorizations/${quoting.id}`)).status).toBe(404);
  expect((await getAp(`${actorUri("alice")}/quote_authorizations/${open.id}`)).status).toBe(404);
});

test("a QuoteRequest for a public local status is accepted: Accept with the served authorization, counted and notified", async () => {
  const quoted = await post(a, alice, { status: "a quotable thought", quote_approval_policy: "public" });
  const n = note(peer, mallory, { quote: quoted.uri, _misskey_quote: quoted.uri, cc: [`${mallory.id}/followers`, actorUri("alice")] });
  const requestId = `${n.id}#quote_request`;
  await send(peer, mallory, "QuoteRequest", quoted.uri, { id: requestId, instrument: n });
  const accept = await received(peer, (body) => body?.type === "Accept" && (body.object?.id ?? body.object) === requestId);
  expect(accept.actor).toBe(actorUri("alice"));
  expect(accept.object).toMatchObject({ type: "QuoteRequest", actor: mallory.id, object: quoted.uri });
  const authorization = (await getAp(accept.result)).body;
  expect(authorization).toMatchObject({ type: "QuoteAuthorization", attributedTo: actorUri("alice"), interactingObject: n.id, interactionTarget: quoted.uri });

  const notification = await eventually(async () => (await json(a, "/api/v1/notifications?types[]=quote", alice.token)).find((x: any) => x.status?.uri === n.id));
  expect(notification.account.acct).toBe(`mallory@${peer.domain}`);
  expect(notification.status.quote.state).toBe("accepted");
  expect(notification.status.quote.quoted_status.id).toBe(quoted.id);
  expect((await status(a, alice, quoted.id)).quotes_count).toBe(1);
  // The Create of the same Note after the request (as Mastodon sends both) changes nothing; a new request for
  // it is accepted again, and still counts once.
  await send(peer, mallory, "Create", n, { to: n.to, cc: n.cc });
  await send(peer, mallory, "QuoteRequest", quoted.uri, { id: `${requestId}/again`, instrument: n });
  const again = await received(peer, (body) => body?.type === "Accept" && (body.object?.id ?? body.object) === `${requestId}/again`);
  expect(again.result).toBe(accept.result);
  await a.t.deps.jobs.drain();
  expect((await status(a, alice, quoted.id)).quotes_count).toBe(1);
});

test("a quote of a private local status, or of one whose policy says nobody, is rejected and never authorized", async () => {
  const secret = await post(a, alice, { status: "followers only", visibility: "private" });
  const n = note(peer, mallory, { quote: secret.uri, to: [`${mallory.id}/followers`], cc: [actorUri("alice")] });
  const requestId = `${n.id}#quote_request`;
  await send(peer, mallory, "QuoteRequest", secret.uri, { id: requestId, instrument: n });
  const reject = await received(peer, (body) => body?.type === "Reject" && (body.object?.id ?? body.object) === requestId);
  expect(reject.actor).toBe(actorUri("alice"));
  expect(reject.result).toBeUndefined();
  const stored = await storedOnA(alice, n.id);
  expect(stored.quote).toEqual({ state: "rejected", quoted_status: null });
  expect((await getAp(`${actorUri("alice")}/quote_authorizations/${stored.id}`)).status).toBe(404);
  expect((await status(a, alice, secret.id)).quotes_count ?? 0).toBe(0);

  // A Create alone (no request) quoting a status nobody may quote: kept (it concerns alice), rejected.
  const closed = await post(a, alice, { status: "not for quoting", quote_approval_policy: "nobody" });
  const m = note(peer, mallory, { quote: closed.uri });
  await send(peer, mallory, "Create", m, { to: m.to, cc: m.cc });
  expect((await storedOnA(carol, m.id)).quote.state).toBe("rejected");
  expect((await status(a, alice, closed.id)).quotes_count ?? 0).toBe(0);

  // A public status whose policy lets anyone, but its author blocks the quoter: rejected.
  const open = await post(a, alice, { status: "open to all but mallory", quote_approval_policy: "public" });
  const malloryOnA = await json(a, `/api/v2/search?q=${encodeURIComponent(`@mallory@${peer.domain}`)}&resolve=true&type=accounts`, alice.token);
  await json(a, `/api/v1/accounts/${malloryOnA.accounts[0].id}/block`, alice.token, { method: "POST" });
  const blocked = note(peer, mallory, { quote: open.uri });
  await send(peer, mallory, "QuoteRequest", open.uri, { id: `${blocked.id}#quote_request`, instrument: blocked });
  await received(peer, (body) => body?.type === "Reject" && (body.object?.id ?? body.object) === `${blocked.id}#quote_request`);
  expect((await status(a, alice, open.id)).quotes_count ?? 0).toBe(0);
  await json(a, `/api/v1/accounts/${malloryOnA.accounts[0].id}/unblock`, alice.token, { method: "POST" });
});

test("a remote quote of a remote status: pending under a forged or mismatched authorization, accepted under eve's own", async () => {
  const quoted = note(other, eve, { content: "<p>eve's words</p>" });
  const authorize = (server: FakePeer, path: string, quoting: string, attributedTo = eve.id) => {
    const id = `${server.base}${path}`;
    server.serve(path, { "@context": CONTEXT, id, type: "QuoteAuthorization", attributedTo, interactingObject: quoting, interactionTarget: quoted.id });
    return id;
  };
  // Signed by mallory's server, claiming to be eve's: not from the quoted author's server.
  const forged = note(peer, mallory);
  forged.quote = quoted.id;
  forged.quoteAuthorization = authorize(peer, `/forged/${serial}`, forged.id);
  await send(peer, mallory, "Create", forged, { to: forged.to, cc: forged.cc });
  const shownForged = await storedOnA(carol, forged.id);
  expect(shownForged.quote).toEqual({ state: "pending", quoted_status: null });
  // On eve's server, but for another Note: pending.
  const mismatched = note(peer, mallory);
  mismatched.quote = quoted.id;
  mismatched.quoteAuthorization = authorize(other, `/users/eve/quote_authorizations/${serial}`, forged.id);
  await send(peer, mallory, "Create", mismatched, { to: mismatched.to, cc: mismatched.cc });
  expect((await storedOnA(carol, mismatched.id)).quote.state).toBe("pending");
  // eve's own authorization for this Note: accepted, and eve's status (fetched) shows in it.
  const genuine = note(peer, mallory);
  genuine.quote = quoted.id;
  genuine.quoteAuthorization = authorize(other, `/users/eve/quote_authorizations/${serial}`, genuine.id);
  await send(peer, mallory, "Create", genuine, { to: genuine.to, cc: genuine.cc });
  const shown = await storedOnA(carol, genuine.id);
  expect(shown.quote.state).toBe("accepted");
  expect(shown.quote.quoted_status.uri).toBe(quoted.id);
  expect(shown.quote.quoted_status.quotes_count).toBe(1);
  // The forged one's author sends an Update carrying eve's authorization for it (as Mastodon does once
  // accepted): now accepted; the mismatched one stays pending.
  const updated = { ...forged, quoteAuthorization: authorize(other, `/users/eve/quote_authorizations/${++serial}`, forged.id), updated: new Date().toISOString() };
  await send(peer, mallory, "Update", updated, { to: forged.to, cc: forged.cc });
  await eventually(async () => (await storedOnA(carol, forged.id)).quote.state === "accepted" || undefined);
  expect((await storedOnA(carol, mismatched.id)).quote.state).toBe("pending");
  expect((await storedOnA(carol, genuine.id)).quote.quoted_status.quotes_count).toBe(2);
});

test("a local quote of a remote status: QuoteRequest to its author, a third server's Accept ignored, Reject, Accept, Delete", async () => {
  const policy = { interactionPolicy: { canQuote: { automaticApproval: PUBLIC } } };
  const quotable = note(peer, mallory, policy);
  const closed = note(peer, mallory);
  for (const n of [quotable, closed]) await send(peer, mallory, "Create", n, { to: n.to, cc: n.cc });
  const [target, shut] = [await storedOnA(carol, quotable.id), await storedOnA(carol, closed.id)];
  expect(target.quote_approval).toMatchObject({ automatic: ["public"], current_user: "automatic" });
  // No policy received: nobody may quote it (Mastodon's 404).
  const refused = await a.t.request("/api/v1/statuses", { method: "POST", token: carol.token, json: { status: "no", quoted_status_id: shut.id } });
  expect(refused.status).toBe(404);

  const first = await post(a, carol, { status: "first try", quoted_status_id: target.id });
  expect(first.quote).toEqual({ state: "pending", quoted_status: null });
  const request = await received(peer, (body) => body?.type === "QuoteRequest" && body.instrument?.id === first.uri);
  expect(request).toMatchObject({ id: `${first.uri}#quote_request`, actor: actorUri("carol"), object: quotable.id });
  expect(request.instrument).toMatchObject({ type: "Note", quote: quotable.id, quoteUri: quotable.id, _misskey_quote: quotable.id });
  expect(request.instrument.quoteAuthorization).toBeUndefined();
  // The Create reaches the quoted author too.
  await received(peer, (body) => body?.type === "Create" && body.object?.id === first.uri);

  // An Accept from a third server (eve is not the quoted author) changes nothing; mallory's Reject rejects.
  await send(other, eve, "Accept", request.id, { result: `${other.base}/qa/1` });
  await send(peer, mallory, "Reject", request.id);
  await eventually(async () => (await status(a, carol, first.id)).quote.state === "rejected" || undefined);

  const second = await post(a, carol, { status: "second try", quoted_status_id: target.id });
  const secondRequest = await received(peer, (body) => body?.type === "QuoteRequest" && body.instrument?.id === second.uri);
  // A result on another server than the accepting actor's is not taken.
  await send(peer, mallory, "Accept", secondRequest, { result: `${other.base}/qa/2` });
  // A result on mallory's server that is not an authorization of this quote (here: of the first one) is not taken.
  const wrongPath = `/users/mallory/quote_authorizations/${++serial}`;
  peer.serve(wrongPath, { "@context": CONTEXT, id: `${peer.base}${wrongPath}`, type: "QuoteAuthorization", attributedTo: mallory.id, interactingObject: first.uri, interactionTarget: quotable.id });
  await send(peer, mallory, "Accept", secondRequest, { result: `${peer.base}${wrongPath}` });
  const path = `/users/mallory/quote_authorizations/${++serial}`;
  const authorization = `${peer.base}${path}`;
  peer.serve(path, { "@context": CONTEXT, id: authorization, type: "QuoteAuthorization", attributedTo: mallory.id, interactingObject: second.uri, interactionTarget: quotable.id });
  await send(peer, mallory, "Accept", secondRequest, { result: authorization });
  const accepted = await eventually(async () => {
    const s = await status(a, carol, second.id);
    return s.quote.state === "accepted" ? s : undefined;
  });
  expect(accepted.quote.quoted_status.uri).toBe(quotable.id);
  expect((await getAp(second.uri)).body.quoteAuthorization).toBe(authorization);
  // Its Note goes out again with the authorization, for other servers to verify.
  const update = await received(peer, (body) => body?.type === "Update" && body.object?.id === second.uri);
  expect(update.object).toMatchObject({ quote: quotable.id, quoteAuthorization: authorization });
  // Counted in the write that accepted it, so read once: no kept record may answer the count from before
  // (tests/http/quotes-settled-in-worker.test.ts has the case that read 0 here under load).
  expect((await status(a, carol, target.id)).quotes_count).toBe(1);

  // Deleting the authorization: by eve nothing; by mallory the quote is revoked.
  await send(other, eve, "Delete", authorization);
  await send(peer, mallory, "Delete", authorization);
  await eventually(async () => (await status(a, carol, second.id)).quote.state === "revoked" || undefined);
  expect((await status(a, carol, target.id)).quotes_count).toBe(0);
});

test("two instances: bob quotes alice's public status, accepted on both sides and counted on A; alice's revoke crosses over", async () => {
  const aliceOnB = await resolveAccount(b, bob.token, "alice", a);
  await json(b, `/api/v1/accounts/${aliceOnB.id}/follow`, bob.token, { method: "POST" });
  await eventually(async () => (await json(b, `/api/v1/accounts/relationships?id[]=${aliceOnB.id}`, bob.token))[0].following);
  const original = await post(a, alice, { status: "worth quoting across servers", quote_approval_policy: "public" });
  const copy = await eventually(async () => (await json(b, "/api/v1/timelines/home", bob.token)).find((s: any) => s.uri === original.uri));
  expect(copy.quote_approval.automatic).toEqual(["public"]);

  const quoting = await post(b, bob, { status: "bob quotes alice", quoted_status_id: copy.id });
  expect(quoting.quote.state).toBe("pending");
  const onB = await eventually(async () => {
    const s = await status(b, bob, quoting.id);
    return s.quote.state === "accepted" ? s : undefined;
  });
  expect(onB.quote.quoted_status.uri).toBe(original.uri);
  const notification = await eventually(async () => (await json(a, "/api/v1/notifications?types[]=quote", alice.token)).find((x: any) => x.status?.uri === quoting.uri));
  expect(notification.status.quote.state).toBe("accepted");
  expect(notification.status.quote.quoted_status.id).toBe(original.id);
  expect((await status(a, alice, original.id)).quotes_count).toBe(1);
  const quotes = await json(a, `/api/v1/statuses/${original.id}/quotes`, alice.token);
  expect(quotes.map((s: any) => s.uri)).toEqual([quoting.uri]);

  const revoked = await json(a, `/api/v1/statuses/${original.id}/quotes/${notification.status.id}/revoke`, alice.token, { method: "POST" });
  expect(revoked.quote.state).toBe("revoked");
  expect((await status(a, alice, original.id)).quotes_count).toBe(0);
  await eventually(async () => (await status(b, bob, quoting.id)).quote.state === "revoked" || undefined);
  expect((await getAp(`${actorUri("alice")}/quote_authorizations/${notification.status.id}`)).status).toBe(404);

  // A second quote, accepted, then deleted by bob: its Delete reaches alice (nobody on A follows bob) and uncounts.
  const again = await post(b, bob, { status: "bob quotes again", quoted_status_id: copy.id });
  await eventually(async () => (await status(a, alice, original.id)).quotes_count === 1 || undefined);
  await json(b, `/api/v1/statuses/${again.id}`, bob.token, { method: "DELETE" });
  await eventually(async () => (await status(a, alice, original.id)).quotes_count === 0 || undefined);
});
