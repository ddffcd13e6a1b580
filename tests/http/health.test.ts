// GET /health: OK while the database answers, 503 once it does not.
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { startTestApp } from "../helpers/app.ts";

test("OK as plain text, never cached; 503 when the store is closed", async () => {
  const t = await startTestApp();
  const ok = await t.request("/health");
  expect(ok.status).toBe(200);
  expect(ok.headers.get("content-type")).toStartWith("text/plain");
  expect(ok.headers.get("cache-control")).toBe("no-store");
  expect(await ok.text()).toBe("OK");
  expect((await t.request("/health", { method: "HEAD" })).status).toBe(200);

  await t.deps.jobs.stop();
  await t.deps.store.close();
  const down = await t.request("/health");
  expect(down.status).toBe(503);
  expect(await down.text()).toBe("Service Unavailable");
  rmSync(t.dir, { recursive: true, force: true });
});
