// /metrics in a real server process, where the client address comes from the socket: a client on loopback
// is let in, a reverse proxy on loopback relaying a public client is not, a client reaching another
// interface is not (whatever it forwards), and the bearer token WARREN_METRICS_TOKEN is let in from anywhere.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { networkInterfaces } from "node:os";
import { startWarren, type Warren } from "../../bench/lib/servers.ts";

setDefaultTimeout(30_000);

const TOKEN = "e2e-metrics-token-abcdef";
let warren: Warren;
let port: string;

beforeAll(async () => {
  warren = await startWarren({ env: { WARREN_HOST: "0.0.0.0", WARREN_METRICS_TOKEN: TOKEN } });
  port = new URL(warren.url).port;
});
afterAll(() => warren.stop());

async function status(base: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`${base}/metrics`, { headers });
  await res.arrayBuffer();
  return res.status;
}

test("a loopback client gets the metrics; a public client relayed by a proxy on loopback gets 404", async () => {
  const loopback = `http://127.0.0.1:${port}`;
  const res = await fetch(`${loopback}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  const text = await res.text();
  expect(text).toContain("# TYPE warren_http_requests_total counter");
  // The server's own start-up request (the harness waited for /api/v2/instance) was counted by route.
  expect(text).toMatch(/warren_http_requests_total\{route="\/api\/v2\/instance",status="200"\} [1-9]/);
  expect(await status(loopback, { "x-forwarded-for": "203.0.113.7" })).toBe(404);
  expect(await status(loopback, { "x-forwarded-for": "203.0.113.7", authorization: `Bearer ${TOKEN}` })).toBe(200);
  expect(await status(loopback, { authorization: "Bearer not-the-token-at-all" })).toBe(404);
});

const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal)?.address;

test.skipIf(!external)("a client on another interface gets 404 unless it has the token, whatever it forwards", async () => {
  const base = `http://${external}:${port}`;
  expect(await status(base)).toBe(404);
  expect(await status(base, { "x-forwarded-for": "127.0.0.1" })).toBe(404);
  expect(await status(base, { authorization: `Bearer ${TOKEN}` })).toBe(200);
  expect(await status(base, { authorization: `Bearer ${TOKEN}-` })).toBe(404);
});
