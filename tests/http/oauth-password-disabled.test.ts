// WARREN_PASSWORD_GRANT=false: the password grant is refused and not advertised; the code flow still works.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createClientApp, createUser, OOB } from "../helpers/clients.ts";
import { authorize, json } from "../helpers/oauth.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ WARREN_PASSWORD_GRANT: "false" });
});
afterAll(() => t.close());

test("the password grant is unsupported_grant_type", async () => {
  const app = await createClientApp(t);
  const user = await createUser(t, "alice");
  const res = await t.request("/oauth/token", {
    method: "POST",
    form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: "alice", password: user.password },
  });
  expect(res.status).toBe(400);
  expect(await json(res)).toEqual({
    error: "unsupported_grant_type",
    error_description: "The authorization grant type is not supported by the authorization server.",
  });
});

test("the discovery document does not list it", async () => {
  const body = await json(await t.request("/.well-known/oauth-authorization-server"));
  expect(body.grant_types_supported).toEqual(["authorization_code", "client_credentials"]);
});

test("the authorization code flow is unaffected", async () => {
  const app = await createClientApp(t, "read", `https://client.example/cb\n${OOB}`);
  const user = await createUser(t, "bob");
  const { code } = await authorize(t, { client_id: app.client_id, redirect_uri: "https://client.example/cb" }, user);
  const res = await t.request("/oauth/token", {
    method: "POST",
    form: { grant_type: "authorization_code", code, redirect_uri: "https://client.example/cb", client_id: app.client_id, client_secret: app.client_secret },
  });
  expect(res.status).toBe(200);
});
