// POST /oauth/token: every grant, client authentication, and RFC 6749 errors.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { changeUser } from "../../src/domain/accounts/manage.ts";
import { checkAuthorizationRequest, CODE_LIFETIME_MS, issueAuthorizationCode } from "../../src/domain/oauth/authorize.ts";
import { exchangeToken } from "../../src/domain/oauth/grants.ts";
import { OAuthError } from "../../src/lib/errors.ts";
import { sha256 } from "../../src/lib/secrets.ts";
import { findAuthorizationCode } from "../../src/store/oauth.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp, createUser, OOB, type ClientApp } from "../helpers/clients.ts";
import { suspendAccount } from "../helpers/moderation.ts";
import { authorize, json, pkcePair } from "../helpers/oauth.ts";

const CB = "https://client.example/cb";

let t: TestApp;
let app: ClientApp;
let other: ClientApp;
let alice: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  t = await startTestApp();
  app = await createClientApp(t, "read write profile", `${CB}\n${OOB}`);
  other = await createClientApp(t, "read write profile", CB);
  alice = await createUser(t, "alice");
});
afterAll(() => t.close());

const token = (form: Record<string, string>, init: { headers?: Record<string, string> } = {}) =>
  t.request("/oauth/token", { method: "POST", form, ...init });

const withClient = (form: Record<string, string>, client = app) => ({ client_id: client.client_id, client_secret: client.client_secret, ...form });

async function expectOAuthError(res: Response, status: number, error: string) {
  expect(res.status).toBe(status);
  const body = await json(res);
  expect(Object.keys(body).sort()).toEqual(["error", "error_description"]);
  expect(body.error).toBe(error);
  expect(body.error_description.length).toBeGreaterThan(10);
}

async function codeFor(params: Record<string, string> = {}) {
  return (await authorize(t, { client_id: app.client_id, redirect_uri: CB, ...params }, alice)).code;
}

const codeGrant = (form: Record<string, string>) => token(withClient({ grant_type: "authorization_code", redirect_uri: CB, ...form }));

describe("authorization_code", () => {
  test("a code is single use; presenting it again also revokes the token it gave", async () => {
    const code = await codeFor({ scope: "read write" });
    const first = await codeGrant({ code });
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toContain("no-store");
    const { access_token, scope } = await json(first);
    expect(scope).toBe("read write");
    expect((await t.request("/api/v1/apps/verify_credentials", { token: access_token })).status).toBe(200);

    await expectOAuthError(await codeGrant({ code }), 400, "invalid_grant");
    expect((await t.request("/api/v1/apps/verify_credentials", { token: access_token })).status).toBe(401);
  });

  test("the scope parameter is ignored: the code's scopes are granted", async () => {
    const res = await codeGrant({ code: await codeFor({ scope: "profile" }), scope: "read write" });
    expect((await json(res)).scope).toBe("profile");
  });

  test("an expired code is refused (issued on the domain clock a lifetime ago)", async () => {
    const request = checkAuthorizationRequest(t.deps.store, { response_type: "code", client_id: app.client_id, redirect_uri: CB, scope: "read" });
    const raw = await issueAuthorizationCode(t.deps, request, alice.id.padStart(18, "0"), Date.now() - CODE_LIFETIME_MS - 1);
    await expectOAuthError(await codeGrant({ code: raw }), 400, "invalid_grant");
    await codeFor(); // issuing a code sweeps expired ones
    expect(findAuthorizationCode(t.deps.store, sha256(raw))).toBeUndefined();
  });

  test("a code is refused ten minutes after it was issued (domain clock)", async () => {
    const code = await codeFor();
    const input = { grant_type: "authorization_code", code, redirect_uri: CB };
    const credentials = { clientId: app.client_id, clientSecret: app.client_secret };
    const late = exchangeToken(t.deps, credentials, input, null, Date.now() + CODE_LIFETIME_MS + 1000);
    await expect(late).rejects.toBeInstanceOf(OAuthError);
    await expect(late).rejects.toMatchObject({ status: 400, message: "invalid_grant" });
    expect((await codeGrant({ code })).status).toBe(200);
  });

  test("unknown, empty and absurd codes", async () => {
    await expectOAuthError(await codeGrant({ code: "nope" }), 400, "invalid_grant");
    await expectOAuthError(await codeGrant({ code: "x".repeat(100_000) }), 400, "invalid_grant");
    await expectOAuthError(await codeGrant({}), 400, "invalid_request");
  });

  test("redirect_uri must match the authorization request's", async () => {
    const code = await codeFor();
    await expectOAuthError(await codeGrant({ code, redirect_uri: OOB }), 400, "invalid_grant");
    await expectOAuthError(await token(withClient({ grant_type: "authorization_code", code })), 400, "invalid_request");
    expect((await codeGrant({ code })).status).toBe(200);
  });

  test("a code only works for the app it was issued to", async () => {
    const code = await codeFor();
    await expectOAuthError(await token(withClient({ grant_type: "authorization_code", code, redirect_uri: CB }, other)), 400, "invalid_grant");
  });

  test("PKCE: the verifier is required and must match", async () => {
    const pkce = pkcePair();
    const code = await codeFor({ code_challenge: pkce.challenge, code_challenge_method: "S256" });
    await expectOAuthError(await codeGrant({ code }), 400, "invalid_request");
    await expectOAuthError(await codeGrant({ code, code_verifier: pkcePair().verifier }), 400, "invalid_grant");
    await expectOAuthError(await codeGrant({ code, code_verifier: pkce.challenge }), 400, "invalid_grant");
    await expectOAuthError(await codeGrant({ code, code_verifier: "bad verifier!" }), 400, "invalid_grant");
    expect((await codeGrant({ code, code_verifier: pkce.verifier })).status).toBe(200);
  });

  test("PKCE downgrade: a code issued without a challenge is not exchanged with a verifier (RFC 9700 §2.1.1)", async () => {
    const code = await codeFor();
    await expectOAuthError(await codeGrant({ code, code_verifier: pkcePair().verifier }), 400, "invalid_grant");
    expect((await codeGrant({ code })).status).toBe(200);
  });

  test("a user disabled after authorizing gets no token", async () => {
    const dave = await createUser(t, "dave");
    const { code } = await authorize(t, { client_id: app.client_id, redirect_uri: CB }, dave);
    const id = dave.id.padStart(18, "0");
    await changeUser(t.deps, id, { disabled: true });
    await expectOAuthError(await codeGrant({ code }), 400, "invalid_grant");
  });
});

describe("client authentication", () => {
  const grant = { grant_type: "client_credentials" };

  test("wrong, missing or unknown client credentials are 401 invalid_client", async () => {
    await expectOAuthError(await token({ ...grant, client_id: app.client_id, client_secret: "wrong" }), 401, "invalid_client");
    await expectOAuthError(await token({ ...grant, client_id: app.client_id }), 401, "invalid_client");
    await expectOAuthError(await token({ ...grant, client_id: "unknown", client_secret: app.client_secret }), 401, "invalid_client");
    await expectOAuthError(await token({ ...grant, client_id: other.client_id, client_secret: app.client_secret }), 401, "invalid_client");
    await expectOAuthError(await token(grant), 401, "invalid_client");
    await expectOAuthError(await token({ ...grant, client_id: "x".repeat(50_000), client_secret: "y" }), 401, "invalid_client");
  });

  test("HTTP Basic (client_secret_basic)", async () => {
    const basic = (id: string, secret: string) => ({ headers: { authorization: `Basic ${btoa(`${id}:${secret}`)}` } });
    const ok = await token({ ...grant, scope: "read" }, basic(app.client_id, app.client_secret));
    expect(ok.status).toBe(200);
    expect((await json(ok)).scope).toBe("read");
    await expectOAuthError(await token(grant, basic(app.client_id, "wrong")), 401, "invalid_client");
    await expectOAuthError(await token(grant, { headers: { authorization: "Basic !!!" } }), 401, "invalid_client");
    await expectOAuthError(await token(grant, { headers: { authorization: `Basic ${btoa("no-colon")}` } }), 401, "invalid_client");
    // Basic wins over the body: a wrong Basic header is not rescued by right body credentials.
    await expectOAuthError(await token(withClient(grant), basic(app.client_id, "wrong")), 401, "invalid_client");
  });

  test("JSON bodies work like forms", async () => {
    const res = await t.request("/oauth/token", { method: "POST", json: withClient({ grant_type: "client_credentials", scope: "write" }) });
    expect(res.status).toBe(200);
    expect((await json(res)).scope).toBe("write");
  });
});

describe("client_credentials", () => {
  test("app tokens: default scope read, subset of the app's scopes", async () => {
    const res = await token(withClient({ grant_type: "client_credentials" }));
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.scope).toBe("read");
    expect((await t.request("/api/v1/apps/verify_credentials", { token: body.access_token })).status).toBe(200);
    expect((await token(withClient({ grant_type: "client_credentials", scope: "read:accounts write:statuses" }))).status).toBe(200);
    await expectOAuthError(await token(withClient({ grant_type: "client_credentials", scope: "push" })), 400, "invalid_scope");
    await expectOAuthError(await token(withClient({ grant_type: "client_credentials", scope: "read bogus" })), 400, "invalid_scope");
    await expectOAuthError(await token(withClient({ grant_type: "client_credentials", scope: "r".repeat(5000) })), 400, "invalid_scope");
  });

  test("an app token is not a user: /oauth/userinfo answers 422", async () => {
    const { access_token } = await appToken(t, app, "read profile");
    const res = await t.request("/oauth/userinfo", { token: access_token });
    expect(res.status).toBe(422);
    expect(await json(res)).toEqual({ error: "This method requires an authenticated user" });
  });
});

describe("password", () => {
  const password = (form: Record<string, string>) => token(withClient({ grant_type: "password", ...form }));

  test("by username and by e-mail address", async () => {
    const byName = await password({ username: "alice", password: alice.password, scope: "read profile" });
    expect(byName.status).toBe(200);
    const body = await json(byName);
    expect(body.scope).toBe("read profile");
    const me = await t.request("/oauth/userinfo", { token: body.access_token });
    expect((await json(me)).preferred_username).toBe("alice");
    const byEmail = await password({ username: alice.email, password: alice.password });
    expect(byEmail.status).toBe(200);
    expect((await json(byEmail)).scope).toBe("read");
  });

  test("wrong credentials are invalid_grant", async () => {
    await expectOAuthError(await password({ username: "alice", password: "wrong-password" }), 400, "invalid_grant");
    await expectOAuthError(await password({ username: "nobody", password: alice.password }), 400, "invalid_grant");
    await expectOAuthError(await password({ username: "nobody@example.com", password: alice.password }), 400, "invalid_grant");
    await expectOAuthError(await password({ username: "x".repeat(10_000), password: "y".repeat(10_000) }), 400, "invalid_grant");
    await expectOAuthError(await password({ password: alice.password }), 400, "invalid_request");
    await expectOAuthError(await password({ username: "alice" }), 400, "invalid_request");
  });

  test("scopes are checked", async () => {
    await expectOAuthError(await password({ username: "alice", password: alice.password, scope: "push" }), 400, "invalid_scope");
    await expectOAuthError(await password({ username: "alice", password: alice.password, scope: "nope" }), 400, "invalid_scope");
  });

  test("disabled users and suspended accounts are invalid_grant", async () => {
    const erin = await createUser(t, "erin");
    const frank = await createUser(t, "frank");
    await changeUser(t.deps, erin.id.padStart(18, "0"), { disabled: true });
    await suspendAccount(t, frank.id);
    await expectOAuthError(await password({ username: "erin", password: erin.password }), 400, "invalid_grant");
    await expectOAuthError(await password({ username: frank.email, password: frank.password }), 400, "invalid_grant");
  });
});

describe("grant types and garbage", () => {
  test("unknown or missing grant_type", async () => {
    await expectOAuthError(await token(withClient({ grant_type: "refresh_token" })), 400, "unsupported_grant_type");
    await expectOAuthError(await token(withClient({ grant_type: "implicit" })), 400, "unsupported_grant_type");
    await expectOAuthError(await token({ grant_type: "refresh_token" }), 400, "unsupported_grant_type");
    await expectOAuthError(await token(withClient({})), 400, "invalid_request");
  });

  test("non-string and malformed parameters get OAuth errors or a 400, never a 500", async () => {
    const arrays = await t.request("/oauth/token", {
      method: "POST",
      body: `grant_type[]=client_credentials&client_id=${app.client_id}&client_secret=${app.client_secret}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    await expectOAuthError(arrays, 400, "invalid_request");
    const objects = await t.request("/oauth/token", { method: "POST", json: { grant_type: "client_credentials", client_id: { a: 1 }, client_secret: true } });
    await expectOAuthError(objects, 401, "invalid_client");
    const badJson = await t.request("/oauth/token", { method: "POST", body: "{", headers: { "content-type": "application/json" } });
    expect(badJson.status).toBe(400);
    const nothing = await t.request("/oauth/token", { method: "POST" });
    await expectOAuthError(nothing, 400, "invalid_request");
  });
});

describe("caching", () => {
  test("token answers and their errors are never stored (RFC 6749 §5.1)", async () => {
    const answers = [
      await token(withClient({ grant_type: "client_credentials" })),
      await token(withClient({ grant_type: "client_credentials", scope: "admin:read" })),
      await token({ grant_type: "client_credentials", client_id: "nobody", client_secret: "nothing" }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 400, 401]);
    for (const res of answers) {
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("pragma")).toBe("no-cache");
    }
  });
});
