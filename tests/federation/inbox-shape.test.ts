// Inbox bodies have the API's shape limits (lib/json-shape.ts: 16 levels of nesting, 10,000 values), checked on
// the raw text before any JSON parsing, JSON-LD or signature work: an activity nested 3,000 levels deep, or with
// `to` nested 20,000 or 100,000 arrays deep, overflowed the stack in JSON-LD expansion (a 500 each, signed or
// not). Now each is 400 `{"error": …}` at once, on the shared inbox and a user's; a signed activity of an
// ordinary shape still goes through. A real instance and a hand-written peer on loopback, job workers on.
import { eventually } from "../helpers/eventually.ts";
import { beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { federatedWorld } from "../helpers/federated-world.ts";
import type { FakeActor } from "../helpers/fake-peer.ts";
import { signedInUser } from "../helpers/clients.ts";

setDefaultTimeout(60_000);

const { a, peer } = federatedWorld();
let mallory: FakeActor;

beforeAll(async () => {
  await signedInUser(a.t, "alice");
  mallory = await peer.actor("mallory");
});

const nested = (open: string, close: string, depth: number, inner = "") => open.repeat(depth) + inner + close.repeat(depth);

function activity(fields: string): string {
  return `{"@context":"https://www.w3.org/ns/activitystreams","id":"${peer.base}/activities/${crypto.randomUUID()}","type":"Create","actor":"${mallory.id}",${fields}}`;
}

const hostile = (): [string, string, string][] => [
  ["an object nested 3,000 levels deep", activity(`"object":${nested('{"a":', "}", 3_000, "1")}`), "The activity is nested too deeply"],
  ["`to` nested 20,000 arrays deep", activity(`"to":${nested("[", "]", 20_000)}`), "The activity is nested too deeply"],
  ["`to` nested 100,000 arrays deep", activity(`"to":${nested("[", "]", 100_000)}`), "The activity is nested too deeply"],
  ["17 levels", activity(`"object":${nested("[", "]", 16)}`), "The activity is nested too deeply"],
  ["10,001 values in `to`", activity(`"to":[${Array.from({ length: 10_001 }, () => '"x"').join(",")}]`), "The activity has too many values"],
];

async function post(path: string, body: string, signed: boolean): Promise<Response> {
  const url = `http://${a.domain}${path}`;
  if (!signed) return fetch(url, { method: "POST", body, headers: { "content-type": "application/activity+json" } });
  // The peer signs a placeholder; the hostile text replaces it under the same headers (Digest then mismatches,
  // which Fedify would find only after JSON-LD: the shape check must come first either way).
  const request = await peer.signed(mallory, url, { type: "Create" });
  return fetch(url, { method: "POST", body, headers: request.headers });
}

for (const path of ["/inbox", "/users/alice/inbox"]) {
  for (const signed of [false, true]) {
    test(`${path}, ${signed ? "signed" : "unsigned"}: deep or huge activities are 400 before any JSON-LD`, async () => {
      for (const [what, body, error] of hostile()) {
        const started = performance.now();
        const res = await post(path, body, signed);
        expect({ what, status: res.status, body: await res.json() }).toEqual({ what, status: 400, body: { error } });
        expect(performance.now() - started).toBeLessThan(1_000);
      }
    });
  }
}

test("JSON that is not an object is no activity: 400 before JSON-LD (a bare string was a 500)", async () => {
  for (const body of ['"x"', "[]", "1", "null", '"https://remote.example/context"']) {
    for (const path of ["/inbox", "/users/alice/inbox"]) {
      const res = await post(path, body, false);
      expect({ body, status: res.status, answer: await res.json() }).toEqual({ body, status: 400, answer: { error: "The activity is not a JSON object" } });
    }
  }
});

test("brackets inside strings do not count, and a malformed body is still Fedify's to refuse", async () => {
  const quoted = activity(`"content":${JSON.stringify("[".repeat(5_000) + "{".repeat(5_000))}`);
  expect((await post("/inbox", quoted, false)).status).toBe(401);
  expect((await post("/inbox", '{"type":"Create",', false)).status).toBeLessThan(500);
});

test("a signed Follow of an ordinary shape still arrives", async () => {
  const res = await peer.send(mallory, `http://${a.domain}/users/alice/inbox`, {
    id: `${peer.base}/follows/1`,
    type: "Follow",
    actor: mallory.id,
    object: `http://${a.domain}/users/alice`,
  });
  expect(res.status).toBeLessThan(300);
  await eventually(async () => peer.received.some((r) => r.body?.type === "Accept"));
});
