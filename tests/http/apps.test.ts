import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sha256 } from "../../src/lib/secrets.ts";
import { findAppByClientId } from "../../src/store/oauth.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { json } from "../helpers/oauth.ts";
import { appToken, createClientApp, OOB, signedInUser } from "../helpers/clients.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

// Keys of Mastodon 4.6's responses (reference/mastodon-4.6-keys.json).
const CREDENTIAL_APPLICATION_KEYS = ["client_id", "client_secret", "client_secret_expires_at", "id", "name", "redirect_uri", "redirect_uris", "scopes", "vapid_key", "website"];
const APPLICATION_KEYS = ["id", "name", "redirect_uri", "redirect_uris", "scopes", "vapid_key", "website"];

const register = (body: unknown) => t.request("/api/v1/apps", { method: "POST", json: body });

async function expect422(body: unknown, error: string) {
  const res = await register(body);
  expect(res.status).toBe(422);
  expect(await json(res)).toEqual({ error });
}

describe("POST /api/v1/apps", () => {
  test("registers an app and answers a CredentialApplication", async () => {
    const res = await register({
      client_name: "My Client",
      redirect_uris: "https://client.example/cb\nmyapp://oauth",
      scopes: "read write:statuses push",
      website: "https://client.example",
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(CREDENTIAL_APPLICATION_KEYS);
    expect(body).toMatchObject({
      name: "My Client",
      website: "https://client.example",
      scopes: ["read", "write:statuses", "push"],
      redirect_uris: ["https://client.example/cb", "myapp://oauth"],
      redirect_uri: "https://client.example/cb\nmyapp://oauth",
      vapid_key: expect.stringMatching(/^B[\w-]{86}$/),
      client_secret_expires_at: 0,
    });
    expect(body.id).toMatch(/^[1-9]\d*$/);
    expect(body.client_id).toMatch(/^[\w-]{43}$/);
    expect(body.client_secret).toMatch(/^[\w-]{43}$/);
  });

  test("stores only a digest of the client secret", async () => {
    const app = await createClientApp(t);
    const record = findAppByClientId(t.deps.store, app.client_id)!;
    expect(record.clientSecretHash).toBe(sha256(app.client_secret));
    expect(JSON.stringify(record)).not.toContain(app.client_secret);
  });

  test("defaults: scope read, website null; space separated URIs, oob and custom schemes", async () => {
    const res = await register({ client_name: "Defaults", redirect_uris: `${OOB} com.example.app:/oauth` });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ scopes: ["read"], website: null, redirect_uris: [OOB, "com.example.app:/oauth"] });
  });

  test("redirect_uris as a JSON array and as form redirect_uris[]", async () => {
    const asJson = await register({ client_name: "Array", redirect_uris: ["https://a.example/cb", "https://b.example/cb"] });
    expect((await json(asJson)).redirect_uri).toBe("https://a.example/cb\nhttps://b.example/cb");
    const form = await t.request("/api/v1/apps", {
      method: "POST",
      body: "client_name=Form&redirect_uris[]=https%3A%2F%2Fa.example%2Fcb&redirect_uris[]=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob&scopes=read+write",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(200);
    expect(await json(form)).toMatchObject({ redirect_uris: ["https://a.example/cb", OOB], scopes: ["read", "write"] });
  });

  test("client_name is required and at most 60 characters", async () => {
    await expect422({ redirect_uris: OOB }, "Validation failed: Name can't be blank");
    await expect422({ client_name: "   ", redirect_uris: OOB }, "Validation failed: Name can't be blank");
    await expect422({ client_name: "x".repeat(61), redirect_uris: OOB }, "Validation failed: Name is too long (maximum is 60 characters)");
    expect((await register({ client_name: "x".repeat(60), redirect_uris: OOB })).status).toBe(200);
  });

  test("redirect URIs must be absolute, without fragment, of an allowed scheme, 2000 characters in all", async () => {
    await expect422({ client_name: "a" }, "Validation failed: Redirect URI can't be blank");
    await expect422({ client_name: "a", redirect_uris: "/relative/cb" }, "Validation failed: Redirect URI must be an absolute URI.");
    await expect422({ client_name: "a", redirect_uris: "https://a.example/cb#frag" }, "Validation failed: Redirect URI cannot contain a fragment.");
    for (const uri of ["javascript:alert(1)", "data:text/html,hi", "VBScript:msgbox"]) {
      await expect422({ client_name: "a", redirect_uris: uri }, "Validation failed: Redirect URI is forbidden by the server.");
    }
    const long = `https://a.example/${"x".repeat(2000)}`;
    await expect422({ client_name: "a", redirect_uris: long }, "Validation failed: Redirect URI is too long (maximum is 2000 characters)");
  });

  test("unknown scopes are refused", async () => {
    await expect422({ client_name: "a", redirect_uris: OOB, scopes: "read bogus" }, "Validation failed: Scopes doesn't match configured on the server.");
  });

  test("website must be an http(s) URL of at most 2000 characters", async () => {
    await expect422({ client_name: "a", redirect_uris: OOB, website: "not a url" }, "Validation failed: Website is invalid");
    await expect422({ client_name: "a", redirect_uris: OOB, website: "javascript:alert(1)" }, "Validation failed: Website is invalid");
    await expect422({ client_name: "a", redirect_uris: OOB, website: `https://a.example/${"x".repeat(2000)}` }, "Validation failed: Website is too long (maximum is 2000 characters)");
  });

  test("every problem is named at once", async () => {
    await expect422({ scopes: "nope" }, "Validation failed: Name can't be blank, Redirect URI can't be blank, Scopes doesn't match configured on the server.");
  });

  test("garbage gets a 4xx, never a 500", async () => {
    const wrongType = await register({ client_name: { a: 1 }, redirect_uris: OOB });
    expect(wrongType.status).toBe(422);
    expect((await json(wrongType)).error).toStartWith("Validation failed: client_name");
    const huge = await register({ client_name: "x".repeat(100_000), redirect_uris: "y".repeat(100_000), scopes: "z".repeat(100_000) });
    expect(huge.status).toBe(422);
    const badJson = await t.request("/api/v1/apps", { method: "POST", body: "{nope", headers: { "content-type": "application/json" } });
    expect(badJson.status).toBe(400);
    const empty = await t.request("/api/v1/apps", { method: "POST" });
    expect(empty.status).toBe(422);
  });
});

describe("GET /api/v1/apps/verify_credentials", () => {
  test("an app token sees its Application, without client credentials", async () => {
    const app = await createClientApp(t, "read write");
    const { access_token } = await appToken(t, app, "write");
    const res = await t.request("/api/v1/apps/verify_credentials", { token: access_token });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(APPLICATION_KEYS);
    expect(body).toEqual({
      id: app.id,
      name: "test client",
      website: "https://client.example",
      scopes: ["read", "write"],
      redirect_uris: [OOB],
      redirect_uri: OOB,
      vapid_key: expect.stringMatching(/^B[\w-]{86}$/),
    });
  });

  test("a user token with any scope works, even push or profile only", async () => {
    for (const scope of ["push", "profile", "read:accounts", "write:media"]) {
      const user = await signedInUser(t, `vc_${scope.replace(/:/g, "_")}`, scope);
      const res = await t.request("/api/v1/apps/verify_credentials", { token: user.token });
      expect(res.status).toBe(200);
      expect((await json(res)).name).toBe("test client");
    }
  });

  test("missing or invalid token is 401", async () => {
    for (const init of [{}, { token: "nope" }, { headers: { authorization: "Basic abc" } }]) {
      const res = await t.request("/api/v1/apps/verify_credentials", init);
      expect(res.status).toBe(401);
      expect(await json(res)).toEqual({ error: "The access token is invalid" });
    }
  });
});
