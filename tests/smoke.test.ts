import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "./helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test("unknown routes answer a Mastodon-style 404", async () => {
  const res = await t.request("/api/v1/nope");
  expect(res.status).toBe(404);
  expect(await res.json()).toEqual({ error: "Not Found" });
});

test("the OpenAPI document is served", async () => {
  const res = await t.request("/openapi/json");
  expect(res.status).toBe(200);
  const doc = (await res.json()) as { info: { title: string } };
  expect(doc.info.title).toBe("Warren API");
});
