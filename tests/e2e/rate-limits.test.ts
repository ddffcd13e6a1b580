// Rate limits in a real server process: the client address comes from the socket (Bun's server.requestIP),
// and a loopback peer's X-Forwarded-For names the client, as a reverse proxy on the same machine sends it.
// A peer on another interface is not a trusted proxy: its X-Forwarded-For is ignored.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { networkInterfaces } from "node:os";
import { startWarren, type Warren } from "../../bench/lib/servers.ts";

setDefaultTimeout(30_000);

let warren: Warren;
let port: string;

beforeAll(async () => {
  warren = await startWarren({ env: { WARREN_RATE_LIMITS: "on", WARREN_HOST: "0.0.0.0" } });
  port = new URL(warren.url).port;
});
afterAll(() => warren.stop());

async function remaining(base: string, forwardedFor?: string): Promise<number> {
  const res = await fetch(`${base}/api/v1/instance`, { headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return Number(res.headers.get("x-ratelimit-remaining"));
}

test("a loopback peer counts as its socket address, and its X-Forwarded-For names the client", async () => {
  const loopback = `http://127.0.0.1:${port}`;
  const direct = await remaining(loopback);
  expect(direct).toBeLessThan(300);
  // The socket's address is 127.0.0.1: naming it as the client hits the same bucket.
  expect(await remaining(loopback, "127.0.0.1")).toBe(direct - 1);
  expect(await remaining(loopback, "203.0.113.7")).toBe(299);
  expect(await remaining(loopback, "203.0.113.7")).toBe(298);
});

const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal)?.address;

test.skipIf(!external)("a peer that is not a trusted proxy is counted by its own address, whatever it forwards", async () => {
  const base = `http://${external}:${port}`;
  expect(await remaining(base, "203.0.113.8")).toBe(299);
  expect(await remaining(base, "203.0.113.8")).toBe(298);
  expect(await remaining(base)).toBe(297);
  expect(await remaining(`http://127.0.0.1:${port}`, "203.0.113.8")).toBe(299);
});

test.skipIf(!external)("WARREN_TRUSTED_PROXIES makes such a peer a proxy whose X-Forwarded-For is read", async () => {
  const proxied = await startWarren({ env: { WARREN_RATE_LIMITS: "on", WARREN_HOST: "0.0.0.0", WARREN_TRUSTED_PROXIES: `${external}/32` } });
  try {
    const base = `http://${external}:${new URL(proxied.url).port}`;
    expect(await remaining(base, "203.0.113.9")).toBe(299);
    expect(await remaining(base, "203.0.113.10")).toBe(299);
    expect(await remaining(base, `203.0.113.10, ${external}`)).toBe(298);
  } finally {
    await proxied.stop();
  }
});
