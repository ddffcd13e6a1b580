// The authorization code flow driven like a browser: page, CSRF cookie and hidden fields, form, redirect,
// then the client's code exchange with PKCE and API calls with the token.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { changeUser } from "../../src/domain/accounts/manage.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createClientApp, createUser, OOB, type ClientApp } from "../helpers/clients.ts";
import { suspendAccount } from "../helpers/moderation.ts";
import { authorize, CookieJar, json, locationParams, openAuthorizePage, pkcePair, submitAuthorize } from "../helpers/oauth.ts";

const CB = "https://client.example/cb";

let t: TestApp;
let app: ClientApp;
let alice: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  t = await startTestApp();
  app = await createClientApp(t, "read write push profile", `${CB}\n${OOB}\nhttps://client.example/q?tenant=1`);
  alice = await createUser(t, "alice");
});
afterAll(() => t.close());

const base = () => ({ response_type: "code", client_id: app.client_id, redirect_uri: CB });

function exchange(form: Record<string, string>) {
  return t.request("/oauth/token", {
    method: "POST",
    form: { grant_type: "authorization_code", client_id: app.client_id, client_secret: app.client_secret, redirect_uri: CB, ...form },
  });
}

describe("the full authorization code flow", () => {
  test("page → sign in → redirect → PKCE exchange → API calls", async () => {
    const pkce = pkcePair();
    const params = { ...base(), scope: "read write profile", state: "s t/ä&=", code_challenge: pkce.challenge, code_challenge_method: "S256" };
    const page = await openAuthorizePage(t, params);
    expect(page.res.status).toBe(200);
    expect(page.res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.res.headers.get("x-frame-options")).toBe("DENY");
    expect(page.res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.res.headers.get("cache-control")).toBe("no-store");
    expect(page.html).toContain("Authorize test client");
    expect(page.html).toContain("<code>write</code>");
    expect(page.html).toContain('name="password"');
    expect(page.html).not.toMatch(/<script|<link|src=/);
    expect(page.jar.cookies.get("warren_csrf")).toMatch(/^[\w-]{32}$/);
    expect(page.fields).toMatchObject({ client_id: app.client_id, redirect_uri: CB, scope: "read write profile", state: "s t/ä&=", code_challenge: pkce.challenge });
    expect(page.fields.authenticity_token).toMatch(/^[\w-]{43}$/);

    const res = await submitAuthorize(t, page.jar, { ...page.fields, username: "alice", password: alice.password, decision: "approve" });
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location.startsWith(`${CB}?code=`)).toBe(true);
    const result = locationParams(res);
    expect(result.get("state")).toBe("s t/ä&=");
    const code = result.get("code")!;
    expect(code).toMatch(/^[\w-]{43}$/);

    const tokenRes = await exchange({ code, code_verifier: pkce.verifier });
    expect(tokenRes.status).toBe(200);
    const token = await json(tokenRes);
    expect(Object.keys(token).sort()).toEqual(["access_token", "created_at", "scope", "token_type"]);
    expect(token).toMatchObject({ token_type: "Bearer", scope: "read write profile" });
    expect(Math.abs(token.created_at - Date.now() / 1000)).toBeLessThan(60);

    const verify = await t.request("/api/v1/apps/verify_credentials", { token: token.access_token });
    expect(verify.status).toBe(200);
    expect((await json(verify)).name).toBe("test client");
    const userinfo = await t.request("/oauth/userinfo", { token: token.access_token });
    expect(userinfo.status).toBe(200);
    expect(await json(userinfo)).toMatchObject({ preferred_username: "alice", sub: "http://localhost:3000/users/alice" });
  });

  test("signing in with the e-mail address; default scope read; no state means none returned", async () => {
    const { res, code } = await authorize(t, base(), { username: "ALICE@example.com", password: alice.password });
    expect(locationParams(res).has("state")).toBe(false);
    const token = await json(await exchange({ code }));
    expect(token.scope).toBe("read");
  });

  test("a redirect URI with a query keeps it; response_mode=fragment answers in the fragment", async () => {
    const withQuery = await authorize(t, { ...base(), redirect_uri: "https://client.example/q?tenant=1" }, alice);
    expect(withQuery.res.headers.get("location")).toStartWith("https://client.example/q?tenant=1&code=");
    const fragment = await authorize(t, { ...base(), response_mode: "fragment", state: "f" }, alice);
    expect(fragment.res.headers.get("location")).toMatch(/^https:\/\/client\.example\/cb#code=[\w-]+&state=f$/);
  });

  test("out-of-band: the code is shown on a page", async () => {
    const page = await openAuthorizePage(t, { ...base(), redirect_uri: OOB, scope: "read" });
    expect(page.html).toContain("shown on the next page");
    const res = await submitAuthorize(t, page.jar, { ...page.fields, username: "alice", password: alice.password, decision: "approve" });
    expect(res.status).toBe(200);
    expect(res.headers.get("location")).toBeNull();
    const html = await res.text();
    const code = /<code class="code">([\w-]+)<\/code>/.exec(html)![1]!;
    const token = await exchange({ code, redirect_uri: OOB });
    expect(token.status).toBe(200);
  });

  test("deny sends access_denied with the state back; out-of-band deny shows a page", async () => {
    const page = await openAuthorizePage(t, { ...base(), state: "abc" });
    const res = await submitAuthorize(t, page.jar, { ...page.fields, decision: "deny" });
    expect(res.status).toBe(302);
    const params = locationParams(res);
    expect(params.get("error")).toBe("access_denied");
    expect(params.get("state")).toBe("abc");
    expect(params.has("code")).toBe(false);

    const oob = await openAuthorizePage(t, { ...base(), redirect_uri: OOB });
    const denied = await submitAuthorize(t, oob.jar, { ...oob.fields, decision: "deny" });
    expect(denied.status).toBe(200);
    expect(await denied.text()).toContain("Authorization denied");
  });
});

describe("the remembered session", () => {
  test("a second authorization asks for consent only; force_login asks for credentials again", async () => {
    const jar = new CookieJar();
    await authorize(t, base(), alice, jar);
    expect(jar.cookies.get("warren_session")).toBeDefined();

    const again = await openAuthorizePage(t, base(), jar);
    expect(again.html).toContain("Signed in as <strong>@alice</strong>");
    expect(again.html).not.toContain('name="password"');
    const res = await submitAuthorize(t, jar, { ...again.fields, decision: "approve" });
    expect(res.status).toBe(302);
    expect(locationParams(res).get("code")).toBeTruthy();

    const forced = await openAuthorizePage(t, { ...base(), force_login: "true" }, jar);
    expect(forced.html).toContain('name="password"');
    expect(forced.fields.force_login).toBe("true");
    const refused = await submitAuthorize(t, jar, { ...forced.fields, decision: "approve" });
    expect(refused.status).toBe(401);
  });

  test("a tampered or foreign session cookie is ignored", async () => {
    const jar = new CookieJar();
    await authorize(t, base(), alice, jar);
    const [id, expires, mac] = jar.cookies.get("warren_session")!.split(".");
    jar.cookies.set("warren_session", `${id}.${Number(expires) + 1000}.${mac}`);
    const page = await openAuthorizePage(t, base(), jar);
    expect(page.html).toContain('name="password"');
    const res = await submitAuthorize(t, jar, { ...page.fields, decision: "approve" });
    expect(res.status).toBe(401);
  });
});

describe("requests that cannot be trusted show an error page", () => {
  const expectPage = async (params: Record<string, string>, text: string) => {
    const page = await openAuthorizePage(t, params);
    expect(page.res.status).toBe(400);
    expect(page.res.headers.get("location")).toBeNull();
    expect(page.res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.html).toContain(text);
  };

  test("unknown, missing or absurd client_id", async () => {
    await expectPage({ ...base(), client_id: "nope" }, "not registered");
    await expectPage({ response_type: "code", redirect_uri: CB }, "not registered");
    await expectPage({ ...base(), client_id: "x".repeat(5_000) }, "not registered");
  });

  test("a redirect URI that was not registered is never redirected to", async () => {
    await expectPage({ ...base(), redirect_uri: "https://evil.example/cb" }, "redirect URI included is not valid");
    await expectPage({ ...base(), redirect_uri: `${CB}/` }, "redirect URI included is not valid");
    await expectPage({ response_type: "code", client_id: app.client_id }, "redirect_uri is missing");
  });

  test("errors for the out-of-band URI are shown, not redirected", async () => {
    await expectPage({ ...base(), redirect_uri: OOB, scope: "admin:read" }, "invalid_scope");
  });
});

describe("request errors go back to the registered redirect URI", () => {
  const expectRedirectError = async (params: Record<string, string>, error: string) => {
    const page = await openAuthorizePage(t, { state: "st", ...params });
    expect(page.res.status).toBe(302);
    expect(page.res.headers.get("location")).toStartWith(`${CB}?`);
    const result = locationParams(page.res);
    expect(result.get("error")).toBe(error);
    expect(result.get("error_description")).toBeTruthy();
    if (params.state === undefined) expect(result.get("state")).toBe("st");
    return result;
  };

  test("response_type must be code", async () => {
    await expectRedirectError({ ...base(), response_type: "token" }, "unsupported_response_type");
    await expectRedirectError({ client_id: app.client_id, redirect_uri: CB }, "invalid_request");
  });

  test("scopes must be known and within the app's", async () => {
    await expectRedirectError({ ...base(), scope: "read bogus" }, "invalid_scope");
    await expectRedirectError({ ...base(), scope: "admin:read" }, "invalid_scope");
    await expectRedirectError({ ...base(), scope: "follow" }, "invalid_scope");
  });

  test("PKCE: S256 only, well-formed challenges only", async () => {
    const { challenge } = pkcePair();
    await expectRedirectError({ ...base(), code_challenge: challenge, code_challenge_method: "plain" }, "invalid_request");
    await expectRedirectError({ ...base(), code_challenge: challenge }, "invalid_request");
    await expectRedirectError({ ...base(), code_challenge: "short", code_challenge_method: "S256" }, "invalid_request");
    await expectRedirectError({ ...base(), code_challenge_method: "plain" }, "invalid_request");
  });

  test("unsupported response_mode and an over-long state", async () => {
    await expectRedirectError({ ...base(), response_mode: "form_post" }, "invalid_request");
    const result = await expectRedirectError({ ...base(), state: "s".repeat(3000) }, "invalid_request");
    expect(result.has("state")).toBe(false);
  });

  test("the POST is checked the same way", async () => {
    const page = await openAuthorizePage(t, { ...base(), state: "st" });
    const res = await submitAuthorize(t, page.jar, { ...page.fields, scope: "admin:write", username: "alice", password: alice.password, decision: "approve" });
    expect(res.status).toBe(302);
    expect(locationParams(res).get("error")).toBe("invalid_scope");
    const evil = await submitAuthorize(t, page.jar, { ...page.fields, redirect_uri: "https://evil.example/", decision: "approve" });
    expect(evil.status).toBe(400);
    expect(evil.headers.get("location")).toBeNull();
  });
});

describe("the form", () => {
  test("is refused with 403 without the CSRF cookie and token pair", async () => {
    const page = await openAuthorizePage(t, base());
    const form: Record<string, string> = { ...page.fields, username: "alice", password: alice.password, decision: "approve" };
    const cases: [CookieJar, Record<string, string>][] = [
      [new CookieJar(), form],
      [page.jar, { ...form, authenticity_token: "" }],
      [page.jar, { ...form, authenticity_token: `${page.fields.authenticity_token}x` }],
    ];
    const other = await openAuthorizePage(t, base());
    cases.push([other.jar, form]);
    for (const [jar, body] of cases) {
      const res = await submitAuthorize(t, jar, body);
      expect(res.status).toBe(403);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toContain("Invalid form");
    }
    const { authenticity_token: _, ...withoutToken } = form;
    expect((await submitAuthorize(t, page.jar, withoutToken)).status).toBe(403);
  });

  test("bad credentials re-render the form with an error (401)", async () => {
    const page = await openAuthorizePage(t, { ...base(), state: "keep" });
    for (const [username, password] of [["alice", "wrong password"], ["nobody", "whatever-password"], ["", ""], ["x".repeat(10_000), "y".repeat(10_000)]]) {
      const res = await submitAuthorize(t, page.jar, { ...page.fields, username: username!, password: password!, decision: "approve" });
      expect(res.status).toBe(401);
      expect(res.headers.get("location")).toBeNull();
      const html = await res.text();
      expect(html).toContain("Invalid username, e-mail address or password.");
      expect(html).toContain('name="authenticity_token"');
      expect(html).toContain('name="state" value="keep"');
    }
    const retry = await submitAuthorize(t, page.jar, { ...page.fields, username: "alice", password: alice.password, decision: "approve" });
    expect(retry.status).toBe(302);
  });

  test("disabled users and suspended accounts cannot authorize", async () => {
    const bob = await createUser(t, "bob");
    const carol = await createUser(t, "carol");
    await changeUser(t.deps, bob.id.padStart(18, "0"), { disabled: true });
    await suspendAccount(t, carol.id);
    for (const user of [bob, carol]) {
      const page = await openAuthorizePage(t, base());
      const res = await submitAuthorize(t, page.jar, { ...page.fields, username: user.username, password: user.password, decision: "approve" });
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("Your login is currently disabled.");
    }
  });

  test("a decision is required", async () => {
    const page = await openAuthorizePage(t, base());
    const res = await submitAuthorize(t, page.jar, { ...page.fields, username: "alice", password: alice.password });
    expect(res.status).toBe(400);
  });

  test("names and values are HTML-escaped", async () => {
    const evil = await t.request("/api/v1/apps", {
      method: "POST",
      json: { client_name: `<script>alert("x")</script>`, redirect_uris: `https://client.example/"><img>`, scopes: "read" },
    });
    const evilApp = await json(evil);
    const page = await openAuthorizePage(t, { response_type: "code", client_id: evilApp.client_id, redirect_uri: evilApp.redirect_uri, state: `"><b>` });
    expect(page.res.status).toBe(200);
    expect(page.html).not.toContain("<script>");
    expect(page.html).not.toContain("<img>");
    expect(page.html).not.toContain("<b>");
    expect(page.html).toContain("&#60;script&#62;");
    expect(page.fields.state).toBe(`"><b>`);
  });

  test("garbage parameters never cause a 500", async () => {
    const odd = await t.request(`/oauth/authorize?client_id[]=a&redirect_uri[x]=b&scope=${"r".repeat(5000)}`);
    expect(odd.status).toBe(400);
    const page = await openAuthorizePage(t, base());
    const res = await t.request("/oauth/authorize", {
      method: "POST",
      json: { ...page.fields, decision: ["approve"], username: { a: 1 }, password: 5 },
      headers: { cookie: page.jar.header() },
    });
    expect(res.status).toBe(400);
    const malformed = await t.request("/oauth/authorize", { method: "POST", body: "%%%", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(malformed.status).toBe(403);
  });
});
