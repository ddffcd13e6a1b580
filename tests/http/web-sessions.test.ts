// Sessions of the web pages are kept on the server (docs/web.md#sessions): signing out, a password change or
// reset, disabling, suspension and deletion end them, so a copied cookie stops working; /settings/sessions lists
// and ends them; they expire; a cookie of the old signed format reads as signed out. Driven as browsers over HTTP.
import { afterAll, afterEach, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createClientApp, createUser } from "../helpers/clients.ts";
import { openAuthorizePage } from "../helpers/oauth.ts";
import { WebBrowser } from "../helpers/web.ts";
import { api, staffUser } from "./admin-helpers.ts";

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "open" });
});
afterAll(() => t.close());

/** A browser signed in as a new user; `cookie` and `csrf` are what someone who copied them would hold. */
async function signedIn(name: string, ip?: string, userAgent?: string) {
  const user = await createUser(t, name);
  const browser = await new WebBrowser(t, ip, userAgent).signIn(name, user.password);
  const { csrf } = await browser.open("/settings/profile");
  return { user, browser, cookie: browser.session!, csrf };
}

/** A browser holding only the copied session cookie (and its own fresh CSRF nonce). */
function holding(cookie: string): WebBrowser {
  const browser = new WebBrowser(t, "203.0.113.66");
  browser.jar.cookies.set("warren_session", cookie);
  return browser;
}

const displayName = async (username: string) =>
  ((await (await t.request(`/api/v1/accounts/lookup?acct=${username}`)).json()) as { display_name: string }).display_name;

/** The cookie no longer opens settings, and neither its own form token nor a fresh nonce pair gets a POST through. */
async function expectEnded(username: string, cookie: string, csrf: string) {
  const copy = holding(cookie);
  const page = await copy.open("/settings/profile");
  expect(page.res.status).toBe(303);
  expect(page.res.headers.get("location")).toBe("/auth/sign_in");
  const withOldToken = await holding(cookie).post("/settings/profile", csrf, { display_name: "Taken over" });
  expect(withOldToken.res.status).toBe(403);
  const nonce = holding(cookie);
  const fresh = await nonce.open("/auth/sign_in");
  expect(fresh.html).toContain('name="password"');
  const withNonce = await nonce.post("/settings/profile", fresh.csrf, { display_name: "Taken over" });
  expect(withNonce.res.status).toBe(303);
  expect(withNonce.res.headers.get("location")).toBe("/auth/sign_in");
  expect(await displayName(username)).not.toBe("Taken over");
}

describe("ending sessions on the server", () => {
  test("signing out: the copied cookie no longer opens settings nor posts a form", async () => {
    const { browser, cookie, csrf } = await signedIn("leaver");
    expect((await holding(cookie).open("/settings/profile")).res.status).toBe(200);
    const out = await browser.submit("/auth/sign_in", "/auth/sign_out");
    expect(out.res.status).toBe(303);
    await expectEnded("leaver", cookie, csrf);
  });

  test("a password change ends every other session; the one changing it stays", async () => {
    const { user, browser, cookie: mine } = await signedIn("changer");
    const other = await new WebBrowser(t, "192.0.2.20").signIn("changer", user.password);
    const otherCsrf = (await other.open("/settings/profile")).csrf;
    const changed = await browser.submit("/settings/password", "/settings/password", { current_password: user.password, password: "new secret pw", password_confirmation: "new secret pw" });
    expect(changed.res.status).toBe(200);
    await expectEnded("changer", other.session!, otherCsrf);
    expect((await holding(mine).open("/settings/profile")).res.status).toBe(200);
    expect((await browser.submit("/settings/profile", "/settings/profile", { display_name: "Still me" })).res.status).toBe(200);
  });

  test("staff disabling or suspending the user ends its sessions", async () => {
    const admin = await staffUser(t, "sessionadmin", "Admin");
    for (const type of ["disable", "suspend"]) {
      const { user, cookie, csrf } = await signedIn(`${type}d_one`);
      const action = await api(t, "POST", `/api/v1/admin/accounts/${user.id}/action`, admin.token, { type, send_email_notification: false });
      expect(action.status).toBe(200);
      await expectEnded(user.username, cookie, csrf);
      await api(t, "POST", `/api/v1/admin/accounts/${user.id}/${type === "disable" ? "enable" : "unsuspend"}`, admin.token);
      // Lifting it later does not bring the session back.
      expect((await holding(cookie).open("/settings/profile")).res.status).toBe(303);
    }
  });

  test("deleting the account ends every session of it", async () => {
    const { user, browser, cookie, csrf } = await signedIn("deleter");
    const other = await new WebBrowser(t, "192.0.2.21").signIn("deleter", user.password);
    const otherCookie = other.session!;
    const deleted = await browser.submit("/settings/delete", "/settings/delete", { confirm_username: "deleter", current_password: user.password });
    expect(deleted.res.status).toBe(200);
    for (const copied of [cookie, otherCookie]) expect((await holding(copied).open("/settings/profile")).res.status).toBe(303);
    expect((await holding(cookie).post("/settings/profile", csrf, { display_name: "x" })).res.status).toBe(403);
  });
});

describe("/settings/sessions", () => {
  test("lists each browser (from its User-Agent), its address and last use; ending one signs that browser out", async () => {
    const { user, browser } = await signedIn("lister", "192.0.2.30");
    const phone = await new WebBrowser(t, "192.0.2.31", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1").signIn("lister", user.password);
    const page = await browser.open("/settings/sessions");
    expect(page.res.status).toBe(200);
    expect(page.html).toContain("Firefox on Linux <strong>(this browser)</strong>");
    expect(page.html).toContain("Safari on iOS");
    expect(page.html).toContain("from 192.0.2.30");
    expect(page.html).toContain("from 192.0.2.31");
    expect(page.html).not.toContain(phone.session!);
    const ids = [...page.html.matchAll(/name="session_id" value="(\d+)"/g)].map((m) => m[1]!);
    expect(ids).toHaveLength(2);

    // Another user's session cannot be named from here.
    const stranger = await signedIn("stranger");
    const strangerId = /name="session_id" value="(\d+)"/.exec((await stranger.browser.open("/settings/sessions")).html)![1]!;
    const foreign = await browser.post("/settings/sessions/revoke", page.csrf, { session_id: strangerId });
    expect(foreign.html).toContain("That session had already ended.");
    expect((await holding(stranger.cookie).open("/settings/profile")).res.status).toBe(200);

    const phoneId = ids.find((id) => !page.html.includes(`value="${id}"><button type="submit">Sign out`))!;
    const ended = await browser.post("/settings/sessions/revoke", page.csrf, { session_id: phoneId });
    expect(ended.res.status).toBe(200);
    expect(ended.html).toContain("The session has ended.");
    expect(ended.html).not.toContain("Safari on iOS");
    expect((await phone.open("/settings/profile")).res.status).toBe(303);

    const ownId = ids.find((id) => id !== phoneId)!;
    const self = await browser.post("/settings/sessions/revoke", page.csrf, { session_id: ownId });
    expect(self.html).toContain("You have been signed out.");
    expect(browser.session).toBeUndefined();
    expect((await browser.open("/settings/profile")).res.status).toBe(303);
  });

  test("a user keeps at most ten sessions: the eleventh sign-in ends the oldest", async () => {
    const user = await createUser(t, "collector");
    const browsers: WebBrowser[] = [];
    for (let i = 0; i < 11; i++) browsers.push(await new WebBrowser(t, `192.0.2.${100 + i}`).signIn("collector", user.password));
    expect((await browsers[0]!.open("/settings/profile")).res.status).toBe(303);
    const list = await browsers[10]!.open("/settings/sessions");
    expect([...list.html.matchAll(/name="session_id"/g)]).toHaveLength(10);
  });
});

describe("expiry", () => {
  afterEach(() => setSystemTime());
  const DAY = 86_400_000;

  test("two weeks unused ends a session; using it keeps it, up to a year after signing in", async () => {
    const start = Date.now();
    const { user, browser } = await signedIn("idler");
    setSystemTime(new Date(start + 13 * DAY));
    expect((await browser.open("/settings/profile")).res.status).toBe(200);
    setSystemTime(new Date(start + 26 * DAY));
    expect((await browser.open("/settings/profile")).res.status).toBe(200);
    setSystemTime(new Date(start + 41 * DAY));
    expect((await browser.open("/settings/profile")).res.status).toBe(303);

    setSystemTime(new Date(start));
    const faithful = await new WebBrowser(t).signIn("idler", user.password);
    for (let day = 10; day < 365; day += 10) {
      setSystemTime(new Date(start + day * DAY));
      expect((await faithful.open("/settings/profile")).res.status).toBe(200);
    }
    setSystemTime(new Date(start + 366 * DAY));
    expect((await faithful.open("/settings/profile")).res.status).toBe(303);
  });
});

describe("cookies that name no session", () => {
  test("the old signed format, junk and unknown ids read as signed out and are cleared, never a 500", async () => {
    const { user } = await signedIn("oldtimer");
    const client = await createClientApp(t);
    const accountId = user.id.padStart(18, "0");
    const values = [`${accountId}.${Date.now() + 86_400_000}.${"A".repeat(43)}`, "B".repeat(43), "%00%ff", "x".repeat(4000), ""];
    for (const value of values) {
      const browser = holding(value);
      const settings = await browser.open("/settings/profile");
      expect(settings.res.status).toBe(303);
      if (value) expect(settings.res.headers.getSetCookie()).toContain("warren_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
      const signIn = await holding(value).open("/auth/sign_in");
      expect(signIn.res.status).toBe(200);
      expect(signIn.html).toContain('name="password"');
      const authorize = await openAuthorizePage(t, { response_type: "code", client_id: client.client_id, redirect_uri: "urn:ietf:wg:oauth:2.0:oob" }, holding(value).jar);
      expect(authorize.res.status).toBe(200);
      expect(authorize.html).toContain('name="password"');
    }
    // Signing in over an old cookie works and replaces it.
    const browser = holding(values[0]!);
    expect((await browser.signIn("oldtimer", user.password)).session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await browser.open("/settings/profile")).res.status).toBe(200);
  });
});
