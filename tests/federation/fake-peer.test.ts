// The hand-written fake peer (tests/helpers/fake-peer.ts) against a real instance: its signed Follow is
// accepted, an unsigned one refused; so other tests can rely on it to play a server built on other code.
import { expect, test } from "bun:test";
import { federatedWorld } from "../helpers/federated-world.ts";
import { json } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { eventually } from "../helpers/eventually.ts";

const { a: warren, peer } = federatedWorld();

test("a signed Follow from the fake peer is accepted and answered with an Accept", async () => {
  const bob = await signedInUser(warren.t, "bob");
  const mallory = await peer.actor("mallory");
  const follow = { id: `${mallory.id}#follows/1`, type: "Follow", actor: mallory.id, object: `http://${warren.domain}/users/bob` };
  const res = await peer.send(mallory, `http://${warren.domain}/users/bob/inbox`, follow);
  expect(res.status).toBeLessThan(300);
  const followers = await eventually(async () => {
    const list = await json(warren, `/api/v1/accounts/${bob.id}/followers`, bob.token);
    return list.length ? list : undefined;
  });
  expect(followers[0].acct).toBe(`mallory@${peer.domain}`);
  const accept = await eventually(async () => peer.received.find((r) => r.body?.type === "Accept"));
  expect(accept.path).toBe("/users/mallory/inbox");
  expect(accept.body.object.id ?? accept.body.object).toBe(follow.id);
  // Signed: RFC 9421 first (Fedify's first knock), draft-cavage for peers that answer 401 to it.
  const signature = `${accept.headers.get("signature-input") ?? ""} ${accept.headers.get("signature") ?? ""}`;
  expect(signature).toMatch(new RegExp(`key[iI]d="http://${warren.domain}/users/bob#main-key"`));
});
