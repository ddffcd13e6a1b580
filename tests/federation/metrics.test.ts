// Federation in /metrics, job workers on: an incoming Follow is counted by type, the Accept it brings is
// counted as a successful delivery (both in worker threads, summed into the main thread's /metrics), and
// the inbox POST itself by its ActivityPub route pattern; failed and refused deliveries by their result. A
// hand-written peer and a real instance on loopback. Counters are process-wide: tests compare before and after.
import { eventually } from "../helpers/eventually.ts";
import { beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { federatedWorld } from "../helpers/federated-world.ts";
import { Follow } from "@fedify/vocab";
import { BASE, startTestApp, type TestApp } from "../helpers/app.ts";
import { createUser, signedInUser } from "../helpers/clients.ts";
import { federationFor } from "../../src/federation/index.ts";

setDefaultTimeout(60_000);

const { a: warren, peer } = federatedWorld();

beforeAll(async () => {
  await signedInUser(warren.t, "alice");
});

async function scrape(): Promise<string> {
  const res = await warren.t.request("/metrics");
  expect(res.status).toBe(200);
  return res.text();
}

function value(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

test("a Follow in and its Accept out move the inbox and delivery counters", async () => {
  const inbox = 'warren_federation_inbox_total{type="Follow"}';
  const delivered = 'warren_federation_deliveries_total{result="success"}';
  const route = 'warren_http_requests_total{route="/users/:username/inbox",status="202"}';
  const before = await scrape();
  const mallory = await peer.actor("mallory");
  const object = `http://${warren.domain}/users/alice`;
  const res = await peer.send(mallory, `${object}/inbox`, { id: `${mallory.id}#follows/1`, type: "Follow", actor: mallory.id, object });
  expect(res.status).toBe(202);
  await eventually(async () => peer.received.find((r) => r.body?.type === "Accept"));
  // Worker threads send their counts every second (src/lib/metrics/threads.ts).
  const after = await eventually(async () => {
    const text = await scrape();
    return value(text, inbox) > value(before, inbox) && value(text, delivered) > value(before, delivered) && text;
  });
  expect(value(after, inbox) - value(before, inbox)).toBe(1);
  expect(value(after, route) - value(before, route)).toBe(1);
});

/** Sends a Follow from `app`'s alice to an actor whose inbox is `inbox`, through Fedify's queue. */
async function sendFollow(app: TestApp, base: string, inbox: string): Promise<void> {
  const ctx = federationFor(app.deps).federation.createContext(new URL(base), undefined);
  const actor = new URL(inbox.replace(/\/inbox$/, ""));
  const follow = new Follow({ id: new URL(`${base}/follows/${crypto.randomUUID()}`), actor: ctx.getActorUri("alice"), object: actor });
  await ctx.sendActivity({ identifier: "alice" }, { id: actor, inboxId: new URL(inbox) }, follow);
}

test("a 5xx answer counts as server_error; an inbox on a private address, when those are not allowed, as refused", async () => {
  const failing = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(null, { status: 503 }) });
  const strict = await startTestApp({ WARREN_JOB_WORKERS: "2" });
  try {
    await createUser(strict, "alice");
    const serverError = 'warren_federation_deliveries_total{result="server_error"}';
    const refused = 'warren_federation_deliveries_total{result="refused"}';
    const before = await scrape();
    await sendFollow(warren.t, `http://${warren.domain}`, `http://127.0.0.1:${failing.port}/users/bob/inbox`);
    await sendFollow(strict, BASE, `http://127.0.0.1:${failing.port}/users/carl/inbox`);
    await eventually(async () => {
      const text = await scrape();
      return value(text, serverError) > value(before, serverError) && value(text, refused) > value(before, refused);
    });
  } finally {
    failing.stop(true);
    await strict.close();
  }
});
