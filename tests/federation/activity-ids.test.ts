// An activity whose id is on another server than its actor is refused before Fedify remembers the id, so a
// peer cannot pre-empt another server's (or our own, predictable) activity ids.
import { expect, test } from "bun:test";
import { federatedWorld } from "../helpers/federated-world.ts";
import { json } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { eventually } from "../helpers/eventually.ts";

const { a: warren, peer } = federatedWorld();

test("a signed Follow under another server's id is 400 and changes nothing; the same id from its own server then works", async () => {
  const bob = await signedInUser(warren.t, "bob");
  const mallory = await peer.actor("mallory");
  const inbox = `http://${warren.domain}/users/bob/inbox`;
  const object = `http://${warren.domain}/users/bob`;
  // An id this instance would use for one of its own Follows.
  const stolen = `http://${warren.domain}/users/alice#follows/123`;
  for (const id of [stolen, `https://elsewhere.example/activities/1`, "not a url", 42]) {
    const res = await peer.send(mallory, inbox, { id, type: "Follow", actor: mallory.id, object } as Record<string, unknown>);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain("id");
  }
  await warren.t.deps.jobs.drain();
  expect(await json(warren, `/api/v1/accounts/${bob.id}/followers`, bob.token)).toEqual([]);

  const own = await peer.send(mallory, inbox, { id: `${mallory.id}#follows/1`, type: "Follow", actor: { id: mallory.id }, object });
  expect(own.status).toBeLessThan(300);
  await eventually(async () => (await json(warren, `/api/v1/accounts/${bob.id}/followers`, bob.token)).length === 1);
});
