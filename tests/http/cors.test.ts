// Browser clients need CORS on the API, on OAuth's token endpoint and on discovery documents.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test("a preflight for the API is answered with the allowed methods and headers", async () => {
  const res = await t.request("/api/v1/statuses", {
    method: "OPTIONS",
    headers: { origin: "https://elk.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
  });
  expect(res.status).toBe(204);
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  expect(res.headers.get("access-control-allow-methods")).toContain("POST");
  expect(res.headers.get("access-control-allow-headers")).toBe("authorization,content-type");
});

test("API answers, success or error, carry the CORS headers and expose Link", async () => {
  const ok = await t.request("/api/v2/instance", { headers: { origin: "https://elk.example" } });
  expect(ok.headers.get("access-control-allow-origin")).toBe("*");
  expect(ok.headers.get("access-control-expose-headers")).toContain("Link");
  const error = await t.request("/api/v1/accounts/verify_credentials", { headers: { origin: "https://elk.example" } });
  expect(error.status).toBe(401);
  expect(error.headers.get("access-control-allow-origin")).toBe("*");
  const token = await t.request("/oauth/token", { method: "POST", form: { grant_type: "nope" }, headers: { origin: "https://elk.example" } });
  expect(token.headers.get("access-control-allow-origin")).toBe("*");
});

test("requests without an Origin (not from a browser) get no CORS headers", async () => {
  const res = await t.request("/api/v2/instance");
  expect(res.headers.get("access-control-allow-origin")).toBeNull();
});

test("the HTML authorize page is not opened to other origins", async () => {
  const res = await t.request("/oauth/authorize?client_id=x&redirect_uri=y&response_type=code");
  expect(res.headers.get("access-control-allow-origin")).toBeNull();
});
