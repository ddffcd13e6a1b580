// What every request pays before its handler (docs/benchmarks.md, "Issue 29: the cost of every request").
// Elysia compiles each route from its hooks' source (its "Sucrose" inference): one hook that hands its whole
// context to a function makes every route parse the cookies, copy the headers into an object and define a
// `server` getter on each request, and a hook that returns a call's value is awaited on every request. These
// tests keep the shared hooks clear of both. The IP block check, which takes the server from the app rather than
// from each request's context, is checked on a real socket.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { isAsync } from "elysia/compose";
import { networkInterfaces } from "node:os";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { api, staffUser } from "./admin-helpers.ts";

setDefaultTimeout(30_000);

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test("no shared hook makes every route parse cookies, copy the headers or define the server", () => {
  // Routes whose handler reads these get them still (Sucrose also reads each handler): sign-in reads `server`.
  expect((t.app as unknown as { inference: object }).inference).toMatchObject({ cookie: false, headers: false, server: false, url: false, path: false });
});

test("the hooks run before routing are not awaited, but for the one that may hand a request to Fedify", () => {
  const awaited = (t.app.event.request ?? []).filter((hook: unknown) => isAsync(hook as never));
  expect(awaited.length).toBe(1);
});

const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal)?.address;

test.skipIf(!external)("on a real socket, a no_access block covers the peer's address, not what a client forwards", async () => {
  const admin = await staffUser(t, "socketkeeper", "Admin");
  t.app.listen({ port: 0, hostname: "0.0.0.0" });
  try {
    const base = `http://${external}:${t.app.server!.port}`;
    const get = async (headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}/api/v1/instance`, { headers });
      await res.arrayBuffer();
      return res.status;
    };
    expect((await api(t, "POST", "/api/v1/admin/ip_blocks", admin.token, { ip: "203.0.113.7", severity: "no_access" })).status).toBe(200);
    // The peer is not a trusted proxy, so what it forwards is not its address (in process there is no peer).
    expect(await get({ "x-forwarded-for": "203.0.113.7" })).toBe(200);
    expect((await api(t, "POST", "/api/v1/admin/ip_blocks", admin.token, { ip: `${external}/32`, severity: "no_access" })).status).toBe(200);
    expect(await get()).toBe(403);
  } finally {
    await t.app.stop(true);
  }
});
