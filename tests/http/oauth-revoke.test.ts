// POST /oauth/revoke, GET|POST /oauth/userinfo and the discovery document.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { json } from "../helpers/oauth.ts";
import { appToken, createClientApp, signedInUser, type ClientApp } from "../helpers/clients.ts";

let t: TestApp;
let app: ClientApp;
let other: ClientApp;
beforeAll(async () => {
  t = await startTestApp();
  app = await createClientApp(t);
  other = await createClientApp(t);
});
afterAll(() => t.close());

const revoke = (form: Record<string, string>, headers: Record<string, string> = {}) => t.request("/oauth/revoke", { method: "POST", form, headers });
const verify = (token: string) => t.request("/api/v1/apps/verify_credentials", { token });

describe("POST /oauth/revoke", () => {
  test("revokes the client's own token; afterwards it is refused; revoking again is fine", async () => {
    const { access_token } = await appToken(t, app);
    expect((await verify(access_token)).status).toBe(200);
    const res = await revoke({ client_id: app.client_id, client_secret: app.client_secret, token: access_token });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({});
    const after = await verify(access_token);
    expect(after.status).toBe(401);
    expect(await json(after)).toEqual({ error: "The access token is invalid" });
    expect((await revoke({ client_id: app.client_id, client_secret: app.client_secret, token: access_token })).status).toBe(200);
  });

  test("a revoked user token is refused by user endpoints too", async () => {
    const user = await signedInUser(t, "revokee");
    expect((await t.request("/oauth/userinfo", { token: user.token })).status).toBe(200);
    const res = await revoke({ client_id: user.app.client_id, client_secret: user.app.client_secret, token: user.token });
    expect(res.status).toBe(200);
    expect((await t.request("/oauth/userinfo", { token: user.token })).status).toBe(401);
  });

  test("unknown tokens are answered 200 {}", async () => {
    for (const token of ["nope", "x".repeat(10_000)]) {
      const res = await revoke({ client_id: app.client_id, client_secret: app.client_secret, token });
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({});
    }
  });

  test("another client's token: 403 unauthorized_client, and the token keeps working", async () => {
    const { access_token } = await appToken(t, other);
    const res = await revoke({ client_id: app.client_id, client_secret: app.client_secret, token: access_token });
    expect(res.status).toBe(403);
    expect(await json(res)).toMatchObject({ error: "unauthorized_client" });
    expect((await verify(access_token)).status).toBe(200);
  });

  test("a client that does not authenticate: 403 unauthorized_client as Doorkeeper answers, and the token keeps working", async () => {
    const { access_token } = await appToken(t, app);
    const forms: Record<string, string>[] = [
      { client_id: app.client_id, client_secret: "wrong" },
      { client_id: "nope", client_secret: app.client_secret },
      { client_id: "undefined", client_secret: "undefined" }, // Phanpy's logout, which kept no app credentials
      {},
    ];
    for (const form of forms) {
      const res = await revoke({ ...form, token: access_token });
      expect(res.status).toBe(403);
      expect(await json(res)).toEqual({ error: "unauthorized_client", error_description: "You are not authorized to revoke this token" });
    }
    expect((await verify(access_token)).status).toBe(200);
    const basic = await revoke({ token: access_token }, { authorization: `Basic ${btoa(`${app.client_id}:${app.client_secret}`)}` });
    expect(basic.status).toBe(200);
    expect((await verify(access_token)).status).toBe(401);
  });

  test("a missing token is 200 {} (Doorkeeper finds no token to revoke); garbage is never a 500", async () => {
    const res = await revoke({ client_id: app.client_id, client_secret: app.client_secret });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({});
    const arrays = await t.request("/oauth/revoke", { method: "POST", json: { client_id: app.client_id, client_secret: app.client_secret, token: ["a"] } });
    expect(arrays.status).toBe(200);
    const badJson = await t.request("/oauth/revoke", { method: "POST", body: "{", headers: { "content-type": "application/json" } });
    expect(badJson.status).toBe(400);
  });
});

describe("/oauth/userinfo", () => {
  test("GET and POST describe the token's user", async () => {
    const user = await signedInUser(t, "ursula", "profile");
    for (const method of ["GET", "POST"]) {
      const res = await t.request("/oauth/userinfo", { method, token: user.token });
      expect(res.status).toBe(200);
      expect(await json(res)).toEqual({
        iss: "http://localhost:3000/",
        sub: "http://localhost:3000/users/ursula",
        name: "ursula",
        preferred_username: "ursula",
        profile: "http://localhost:3000/@ursula",
        picture: "http://localhost:3000/avatars/original/missing.png",
      });
    }
  });

  test("read and read:accounts grant it too", async () => {
    for (const scope of ["read", "read:accounts"]) {
      const user = await signedInUser(t, `ui_${scope.replace(":", "_")}`, scope);
      expect((await t.request("/oauth/userinfo", { token: user.token })).status).toBe(200);
    }
  });

  test("scopes are enforced: push-only or write-only tokens are 403", async () => {
    for (const scope of ["push", "write", "read:statuses"]) {
      const user = await signedInUser(t, `ux_${scope.replace(":", "_")}`, scope);
      const res = await t.request("/oauth/userinfo", { token: user.token });
      expect(res.status).toBe(403);
      expect(await json(res)).toEqual({ error: "This action is outside the authorized scopes" });
    }
  });

  test("no or a bad token is 401", async () => {
    for (const init of [{}, { token: "bad" }]) {
      const res = await t.request("/oauth/userinfo", init);
      expect(res.status).toBe(401);
      expect(await json(res)).toEqual({ error: "The access token is invalid" });
    }
  });
});

describe("GET /.well-known/oauth-authorization-server", () => {
  test("carries Mastodon's keys and this instance's endpoints", async () => {
    const res = await t.request("/.well-known/oauth-authorization-server");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toStartWith("public, max-age=300");
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual([
      "app_registration_endpoint", "authorization_endpoint", "code_challenge_methods_supported", "grant_types_supported", "issuer",
      "response_modes_supported", "response_types_supported", "revocation_endpoint", "scopes_supported", "service_documentation",
      "token_endpoint", "token_endpoint_auth_methods_supported", "userinfo_endpoint",
    ]);
    expect(body).toMatchObject({
      issuer: "http://localhost:3000/",
      authorization_endpoint: "http://localhost:3000/oauth/authorize",
      token_endpoint: "http://localhost:3000/oauth/token",
      revocation_endpoint: "http://localhost:3000/oauth/revoke",
      userinfo_endpoint: "http://localhost:3000/oauth/userinfo",
      app_registration_endpoint: "http://localhost:3000/api/v1/apps",
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "client_credentials", "password"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      code_challenge_methods_supported: ["S256"],
    });
    expect(body.scopes_supported).toContain("read:accounts");
    expect(body.scopes_supported).toContain("profile");
    // The collections API is served (tests/http/collections.test.ts): its scopes and api_versions.mastodon 10 are offered.
    expect(body.scopes_supported).toContain("read:collections");
    expect(body.scopes_supported).toContain("write:collections");
    expect((await json(await t.request("/api/v2/instance"))).api_versions).toEqual({ mastodon: 10 });
  });
});
