// An instance domain block applied to the accounts already known from that domain (Mastodon's
// BlockDomainService), through the admin API with workers on: suspend ends their follows and requests both
// ways and suspends them; silence silences them; lifting the block restores what it did, not what staff did.
import { beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { federatedWorld } from "../helpers/federated-world.ts";
import { json } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { staffUser } from "../http/admin-helpers.ts";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(60_000);

const { a: warren, peer } = federatedWorld();
let admin: Awaited<ReturnType<typeof staffUser>>;
let bob: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  admin = await staffUser(warren.t, "boss", "Admin");
  bob = await signedInUser(warren.t, "bob");
});

const adminAccount = (id: string) => json(warren, `/api/v1/admin/accounts/${id}`, admin.token);
const send = (method: string, path: string, body?: unknown) =>
  warren.t.request(path, { method, token: admin.token, ...(body ? { json: body } : {}) });

async function remoteFollowerOfBob(username: string): Promise<string> {
  const actor = await peer.actor(username);
  await peer.send(actor, `http://${warren.domain}/users/bob/inbox`, {
    id: `${actor.id}#follows/${username}`,
    type: "Follow",
    actor: actor.id,
    object: `http://${warren.domain}/users/bob`,
  });
  const follower = await eventually(async () => (await json(warren, `/api/v1/accounts/${bob.id}/followers`, bob.token)).find((a: any) => a.username === username));
  return follower.id;
}

test("suspend: follows and requests end, accounts suspended; lifting restores them but not what staff did", async () => {
  const mallory = await remoteFollowerOfBob("mallory");
  const trent = await remoteFollowerOfBob("trent");
  // bob asks to follow mallory (a request until her server answers, which it never does here).
  expect((await json(warren, `/api/v1/accounts/${mallory}/follow`, bob.token, { method: "POST" })).requested).toBe(true);
  // Staff suspend trent on their own, before any block.
  expect((await send("POST", `/api/v1/admin/accounts/${trent}/action`, { type: "suspend", send_email_notification: false })).status).toBe(200);

  const created = await send("POST", "/api/v1/admin/domain_blocks", { domain: "127.0.0.1", severity: "suspend" });
  expect(created.status).toBe(200);
  const block = (await created.json()) as { id: string };
  await eventually(async () => (await adminAccount(mallory)).suspended);
  await warren.t.deps.jobs.drain();
  expect(await json(warren, `/api/v1/accounts/${bob.id}/followers`, bob.token)).toEqual([]);
  expect((await json(warren, `/api/v1/accounts/${bob.id}`, bob.token)).followers_count).toBe(0);

  expect((await send("DELETE", `/api/v1/admin/domain_blocks/${block.id}`)).status).toBe(200);
  await eventually(async () => !(await adminAccount(mallory)).suspended);
  await warren.t.deps.jobs.drain();
  expect((await adminAccount(trent)).suspended).toBe(true);
  expect(await json(warren, `/api/v1/accounts/${bob.id}/followers`, bob.token)).toEqual([]);
  // The follows and bob's request did not come back with the account.
  const relationship = (await json(warren, `/api/v1/accounts/relationships?id[]=${mallory}`, bob.token))[0];
  expect(relationship).toMatchObject({ following: false, requested: false, followed_by: false });
});

test("silence: accounts silenced while the block stands, and no longer once it is eased to noop", async () => {
  const oscar = await remoteFollowerOfBob("oscar");
  const created = await send("POST", "/api/v1/admin/domain_blocks", { domain: "127.0.0.1", severity: "silence" });
  const block = (await created.json()) as { id: string };
  await eventually(async () => (await adminAccount(oscar)).silenced);
  expect((await adminAccount(oscar)).suspended).toBe(false);
  // Silenced, not cut off: the follow stays.
  expect((await json(warren, `/api/v1/accounts/${bob.id}/followers`, bob.token)).map((a: any) => a.id)).toContain(oscar);
  expect((await send("PUT", `/api/v1/admin/domain_blocks/${block.id}`, { severity: "noop" })).status).toBe(200);
  await eventually(async () => !(await adminAccount(oscar)).silenced);
});
