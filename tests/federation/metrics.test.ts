// Federation in /metrics, job workers on: an incoming Follow is counted by type, the Accept it brings is
// counted as a successful delivery (both in worker threads, summed into the main thread's /metrics), and
// the inbox POST itself by its ActivityPub route pattern. A hand-written peer and a real instance on loopback.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { startInstance, stopInstance, until, type Instance } from "../helpers/federation.ts";
import { startFakePeer, type FakePeer } from "../helpers/fake-peer.ts";
import { signedInUser } from "../helpers/clients.ts";

setDefaultTimeout(60_000);

let warren: Instance;
let peer: FakePeer;

beforeAll(async () => {
  [warren, peer] = await Promise.all([startInstance(), startFakePeer()]);
  await signedInUser(warren.t, "alice");
});
afterAll(async () => {
  peer.stop();
  await stopInstance(warren);
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
  await until(async () => peer.received.find((r) => r.body?.type === "Accept"));
  // Worker threads send their counts every second (src/lib/metrics/threads.ts).
  const after = await until(async () => {
    const text = await scrape();
    return value(text, inbox) > value(before, inbox) && value(text, delivered) > value(before, delivered) && text;
  });
  expect(value(after, inbox) - value(before, inbox)).toBe(1);
  expect(value(after, route) - value(before, route)).toBe(1);
});
