// Account migration between a real Warren (job workers on) and the test peer (tests/peer/, not Fedify): a
// Move signed by Mastodon's rules from an account followed here, to a Warren account that lists it as an
// alias; the abuse Mastodon guards against (no alias, an object that is not the sender, a second move inside
// the cool-down); and a Warren account moving to an account on each server, whose Move and Update arrive
// verified and shaped as that server's parsers need.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startPeer, type Peer } from "../peer/server.ts";
import { problemsIn } from "../peer/problems.ts";
import { json, relationship, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { WebBrowser } from "../helpers/web.ts";
import { eventually } from "../helpers/eventually.ts";

type User = Awaited<ReturnType<typeof signedInUser>>;
let warren: Instance;
let fan: User;
let arrival: User;
const peers: Peer[] = [];
const uriOf = (username: string) => `http://${warren.domain}/users/${username}`;

beforeAll(async () => {
  warren = await startInstance();
  [fan, arrival] = await Promise.all([signedInUser(warren.t, "fan"), signedInUser(warren.t, "arrival")]);
  peers.push(startPeer({ flavour: "mastodon" }), startPeer({ flavour: "gotosocial", secure: true }), startPeer({ flavour: "misskey" }));
});
afterAll(async () => {
  for (const peer of peers) peer.stop();
  await stopInstance(warren);
});

/** fan follows `username` on `peer` (the peer accepts); its account as Warren shows it. */
async function followOnPeer(peer: Peer, username: string): Promise<any> {
  const q = encodeURIComponent(`@${username}@${peer.domain}`);
  const [account] = (await json(warren, `/api/v2/search?q=${q}&resolve=true&type=accounts`, fan.token)).accounts;
  await json(warren, `/api/v1/accounts/${account.id}/follow`, fan.token, { method: "POST" });
  await eventually(async () => (await relationship(warren, fan.token, account.id)).following);
  return account;
}

test("a Move from the Mastodon peer to a Warren account that aliased it: fan follows the new account, with a move notification", async () => {
  const peer = peers[0]!;
  const old = peer.actor("oldself");
  const oldAccount = await followOnPeer(peer, "oldself");
  const web = await new WebBrowser(warren.t).signIn("arrival", arrival.password);
  expect((await web.submit("/settings/aliases", "/settings/aliases", { "account_alias[acct]": `oldself@${peer.domain}` })).res.status).toBe(200);

  expect((await peer.move(old, uriOf("arrival"), `http://${warren.domain}/inbox`)).status).toBe(202);
  await eventually(async () => (await relationship(warren, fan.token, arrival.id)).following);
  await eventually(async () => !(await relationship(warren, fan.token, oldAccount.id)).following);
  expect((await json(warren, `/api/v1/accounts/${oldAccount.id}`, fan.token)).moved.id).toBe(arrival.id);
  const [note] = await json(warren, "/api/v1/notifications?types[]=move", fan.token);
  expect(note).toMatchObject({ type: "move", account: { id: oldAccount.id }, target: { id: arrival.id } });
  // The old server hears the unfollow, naming the Follow by its id.
  const undo = await eventually(async () => peer.deliveries("Undo").find((r) => r.activity?.object?.object === old.id));
  expect(problemsIn([undo])).toEqual([]);
});

test("abuse: a Move to an account that does not list the origin, or of another actor, or again inside the cool-down, changes nothing", async () => {
  const peer = peers[0]!;
  const liar = peer.actor("liar");
  const victim = peer.actor("victim");
  const liarAccount = await followOnPeer(peer, "liar");
  const inbox = `http://${warren.domain}/inbox`;
  // No alias on the target (a peer account, and a Warren one).
  expect((await peer.move(liar, victim.id, inbox)).status).toBe(202);
  expect((await peer.move(liar, uriOf("fan"), inbox)).status).toBe(202);
  // An object that is not the sender: the sender moving someone else's followers.
  const other = peer.actor("other");
  const otherAccount = await followOnPeer(peer, "other");
  peer.alias(victim, [other.id]);
  expect((await peer.move(liar, victim.id, inbox, { object: other.id })).status).toBe(202);
  await warren.t.deps.jobs.drain();
  for (const account of [liarAccount, otherAccount]) {
    expect((await json(warren, `/api/v1/accounts/${account.id}`, fan.token)).moved).toBeUndefined();
    expect((await relationship(warren, fan.token, account.id)).following).toBe(true);
  }

  // A real move, then a second one to another aliased target inside the cool-down: the first stands.
  peer.alias(victim, [other.id]);
  expect((await peer.move(other, victim.id, inbox)).status).toBe(202);
  await eventually(async () => (await json(warren, `/api/v1/accounts/${otherAccount.id}`, fan.token)).moved);
  const second = peer.actor("second");
  peer.alias(second, [other.id]);
  expect((await peer.move(other, second.id, inbox)).status).toBe(202);
  await warren.t.deps.jobs.drain();
  const moved = (await json(warren, `/api/v1/accounts/${otherAccount.id}`, fan.token)).moved;
  expect(moved.acct).toBe(`victim@${peer.domain}`);
});

test("a Warren account moving to an account on each server: Move and Update(movedTo) arrive verified and understood", async () => {
  for (const peer of peers) {
    const leaver = await signedInUser(warren.t, `leaver_${peer.flavour}`);
    const watcher = peer.actor("watcher");
    const follow = { id: peer.newActivityId(watcher, "follow"), type: "Follow", actor: watcher.id, object: uriOf(leaver.username) };
    expect((await peer.send(watcher, `${uriOf(leaver.username)}/inbox`, follow)).status).toBe(202);
    await eventually(async () => peer.deliveries("Accept").find((r) => r.activity?.object?.id === follow.id));
    const target = peer.actor(`new_${peer.flavour}`);
    peer.alias(target, [uriOf(leaver.username)]);

    const web = await new WebBrowser(warren.t).signIn(leaver.username, leaver.password);
    const moved = await web.submit("/settings/migration", "/settings/migration", {
      "account_migration[acct]": `new_${peer.flavour}@${peer.domain}`,
      "account_migration[current_password]": leaver.password,
    });
    expect(moved.res.status).toBe(200);
    const move = await eventually(async () => peer.deliveries("Move").find((r) => r.activity?.actor === uriOf(leaver.username)));
    expect(move.activity).toMatchObject({ type: "Move", actor: uriOf(leaver.username), object: uriOf(leaver.username), target: target.id });
    expect(move.verification).toMatchObject({ ok: true, owner: uriOf(leaver.username) });
    const update = await eventually(async () => peer.deliveries("Update").find((r) => r.activity?.object?.movedTo === target.id));
    expect(problemsIn([move, update])).toEqual([]);
  }
});
