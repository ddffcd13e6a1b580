// Profiles across servers: the fake peer's Update of itself (cleaned before it is stored; an Update of
// another actor ignored) and Delete of itself (its follow gone, the account suspended and blanked, a later
// Follow from it refused); a local profile change reaching the other Warren instance as an Update; resolve=true
// search by actor URL. Job workers on.
import { expect, test } from "bun:test";
import { federatedWorld } from "../helpers/federated-world.ts";
import { json, resolveAccount, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { eventually } from "../helpers/eventually.ts";

const { a, b, peer } = federatedWorld({ instances: 2 });

const CONTEXT = ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"];

/** An actor document to embed in an activity, changed (its @context is the activity's). */
function embedded(document: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  const { "@context": _context, ...rest } = document;
  return { ...rest, ...changes };
}

const searchAccounts = async (i: Instance, token: string, q: string, resolve = true) =>
  (await json(i, `/api/v2/search?q=${encodeURIComponent(q)}&resolve=${resolve}&type=accounts`, token)).accounts;

test("an Update of the actor itself refreshes the stored account, cleaned; an Update of another actor is ignored", async () => {
  const alice = await signedInUser(a.t, "alice");
  const paula = await peer.actor("paula", { name: "Paula", summary: "<p>first</p>" });
  const other = await peer.actor("other", { name: "Other" });
  const [paulaOnA] = await searchAccounts(a, alice.token, `@paula@${peer.domain}`);
  const [otherOnA] = await searchAccounts(a, alice.token, `@other@${peer.domain}`);
  expect(paulaOnA.display_name).toBe("Paula");

  // The peer still serves the old document: what changes can only come from the Update.
  const updated = embedded(paula.document, {
    name: "Paula Updated",
    summary: `<p>new bio</p><script>alert("x")</script>`,
    attachment: [{ type: "PropertyValue", name: "Site", value: `<a href="https://example.com" onclick="steal()">example</a>` }],
  });
  const res = await peer.send(paula, `http://${a.domain}/inbox`, {
    "@context": [...CONTEXT, { schema: "http://schema.org#", PropertyValue: "schema:PropertyValue", value: "schema:value" }],
    id: `${paula.id}#updates/1`,
    type: "Update",
    actor: paula.id,
    object: updated,
  });
  expect(res.status).toBe(202);
  const account = await eventually(async () => {
    const found = await json(a, `/api/v1/accounts/${paulaOnA.id}`, alice.token);
    return found.display_name === "Paula Updated" ? found : undefined;
  });
  expect(account.note).toContain("new bio");
  expect(account.note).not.toContain("<script");
  expect(account.note).not.toContain("alert");
  expect(account.fields).toHaveLength(1);
  expect(account.fields[0].value).toContain("https://example.com");
  expect(account.fields[0].value).not.toContain("onclick");

  // Paula (signing) claims to update Other: ignored.
  const forged = embedded(other.document, { name: "Hacked" });
  const res2 = await peer.send(paula, `http://${a.domain}/inbox`, { id: `${paula.id}#updates/2`, type: "Update", actor: paula.id, object: forged });
  expect(res2.status).toBe(202);
  await a.t.deps.jobs.drain();
  expect((await json(a, `/api/v1/accounts/${otherOnA.id}`, alice.token)).display_name).toBe("Other");
  expect((await json(a, `/api/v1/accounts/${paulaOnA.id}`, alice.token)).display_name).toBe("Paula Updated");
});

test("a Delete of the actor itself removes its follow and the account, and refuses its later Follow", async () => {
  const bea = await signedInUser(a.t, "bea");
  const gone = await peer.actor("gone");
  const follow = { id: `${gone.id}#follows/1`, type: "Follow", actor: gone.id, object: `http://${a.domain}/users/bea` };
  expect((await peer.send(gone, `http://${a.domain}/users/bea/inbox`, follow)).status).toBe(202);
  const [follower] = await eventually(async () => {
    const list = await json(a, `/api/v1/accounts/${bea.id}/followers`, bea.token);
    return list.length ? list : undefined;
  });
  expect(follower.acct).toBe(`gone@${peer.domain}`);

  // A Delete of bea by someone else than bea is nothing to act on.
  const notOwn = { id: `${gone.id}#delete/0`, type: "Delete", actor: gone.id, object: `http://${a.domain}/users/bea` };
  expect((await peer.send(gone, `http://${a.domain}/inbox`, notOwn)).status).toBe(202);
  await a.t.deps.jobs.drain();
  expect((await a.t.request(`/api/v1/accounts/${bea.id}`)).status).toBe(200);
  expect((await json(a, `/api/v1/accounts/${bea.id}/followers`, bea.token)).length).toBe(1);

  const del = { id: `${gone.id}#delete`, type: "Delete", actor: gone.id, object: gone.id, to: ["https://www.w3.org/ns/activitystreams#Public"] };
  expect((await peer.send(gone, `http://${a.domain}/inbox`, del)).status).toBe(202);
  const deleted = await eventually(async () => {
    const account = await json(a, `/api/v1/accounts/${follower.id}`, bea.token);
    return account.suspended ? account : undefined;
  });
  expect(deleted.display_name).toBe("");
  await eventually(async () => (await json(a, `/api/v1/accounts/${bea.id}`, bea.token)).followers_count === 0);
  expect(await json(a, `/api/v1/accounts/${bea.id}/followers`, bea.token)).toEqual([]);
  expect(await searchAccounts(a, bea.token, `@gone@${peer.domain}`)).toEqual([]);

  // The deleted actor (still served by the peer) follows again: refused, still gone.
  const before = peer.received.length;
  const again = { id: `${gone.id}#follows/2`, type: "Follow", actor: gone.id, object: `http://${a.domain}/users/bea` };
  expect((await peer.send(gone, `http://${a.domain}/users/bea/inbox`, again)).status).toBe(202);
  await a.t.deps.jobs.drain();
  expect(await json(a, `/api/v1/accounts/${bea.id}/followers`, bea.token)).toEqual([]);
  expect(peer.received.slice(before).filter((r) => r.body?.type === "Accept")).toEqual([]);
  expect((await json(a, `/api/v1/accounts/${follower.id}`, bea.token)).suspended).toBe(true);
});

test("a local profile change reaches the remote followers as an Update", async () => {
  const carl = await signedInUser(a.t, "carl");
  const dan = await signedInUser(b.t, "dan");
  const carlOnB = await resolveAccount(b, dan.token, "carl", a);
  await json(b, `/api/v1/accounts/${carlOnB.id}/follow`, dan.token, { method: "POST" });
  await eventually(async () => (await json(b, `/api/v1/accounts/relationships?id[]=${carlOnB.id}`, dan.token))[0].following);

  const changed = await a.t.request("/api/v1/accounts/update_credentials", {
    method: "PATCH",
    token: carl.token,
    json: { display_name: "Carl Renamed", note: "Hello from A", locked: true },
  });
  expect(changed.status).toBe(200);
  const seen = await eventually(async () => {
    const account = await json(b, `/api/v1/accounts/${carlOnB.id}`, dan.token);
    return account.display_name === "Carl Renamed" ? account : undefined;
  });
  expect(seen.note).toContain("Hello from A");
  expect(seen.locked).toBe(true);
  expect(seen.acct).toBe(`carl@${a.domain}`);
});

test("resolve=true finds another server's account by its actor URL, stored from then on", async () => {
  const erin = await signedInUser(a.t, "erin");
  await signedInUser(b.t, "frank");
  const url = `http://${b.domain}/users/frank`;
  expect(await searchAccounts(a, erin.token, url, false)).toEqual([]);
  const [frank] = await searchAccounts(a, erin.token, url);
  expect(frank.acct).toBe(`frank@${b.domain}`);
  expect(frank.username).toBe("frank");
  const lookup = await json(a, `/api/v1/accounts/lookup?acct=frank@${b.domain}`, erin.token);
  expect(lookup.id).toBe(frank.id);
  // Nothing is served there: nothing found, no error.
  expect(await searchAccounts(a, erin.token, `http://${b.domain}/users/nobody`)).toEqual([]);
});
