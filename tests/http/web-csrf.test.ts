// CSRF tokens of the web forms are bound to the session (docs/web.md#csrf): someone who can plant cookies in
// the victim's browser (a sibling subdomain can) and posts their own `warren_csrf` nonce with its token, or a
// token from their own session, gets nothing through on any form of a signed-in victim.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createClientApp, createUser, OOB, type ClientApp } from "../helpers/clients.ts";
import { hiddenFields } from "../helpers/oauth.ts";
import { WebBrowser } from "../helpers/web.ts";

let t: TestApp;
let client: ClientApp;
let victim: WebBrowser;
let victimPassword: string;

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "open" });
  client = await createClientApp(t);
  victimPassword = (await createUser(t, "victim")).password;
  victim = await new WebBrowser(t).signIn("victim", victimPassword);
});
afterAll(() => t.close());

const AUTHORIZE = { response_type: "code", client_id: "", redirect_uri: OOB, scope: "read" };

/** Every form a signed-in browser can post, with fields that would change something. */
const FORMS: [action: string, fields: Record<string, string>][] = [
  ["/settings/profile", { display_name: "Pwned" }],
  ["/settings/preferences", { privacy: "private" }],
  ["/settings/email", { email: "attacker@example.com", current_password: "x" }],
  ["/settings/password", { current_password: "x", password: "attacker pw", password_confirmation: "attacker pw" }],
  ["/settings/applications/revoke", { app_id: "1" }],
  ["/settings/sessions/revoke", { session_id: "1" }],
  ["/settings/import", { type: "following", mode: "overwrite" }],
  ["/settings/delete", { confirm_username: "victim", current_password: "x" }],
  ["/auth/sign_out", {}],
  ["/oauth/authorize", { ...AUTHORIZE, decision: "approve" }],
];

/** The victim's session cookie with the attacker's CSRF cookie and token. */
async function forged(action: string, fields: Record<string, string>, attacker: WebBrowser, token: string) {
  const body = action === "/oauth/authorize" ? { ...fields, client_id: client.client_id } : fields;
  const cookie = `warren_session=${victim.session}; warren_csrf=${attacker.jar.cookies.get("warren_csrf")}`;
  return t.request(action, { method: "POST", form: { authenticity_token: token, ...body }, headers: { cookie } });
}

async function expectRefusedEverywhere(attacker: WebBrowser, token: string) {
  for (const [action, fields] of FORMS) {
    const res = await forged(action, fields, attacker, token);
    expect({ action, status: res.status }).toEqual({ action, status: 403 });
    expect(await res.text()).toContain("Invalid form");
    expect(res.headers.get("location")).toBeNull();
  }
  // Nothing changed: still signed in, the profile as it was.
  expect((await victim.open("/settings/profile")).html).not.toContain('value="Pwned"');
}

describe("a CSRF token from another browser", () => {
  test("the attacker's pre-sign-in nonce and its token are refused on every form of a signed-in victim", async () => {
    const attacker = new WebBrowser(t, "203.0.113.9");
    const { csrf } = await attacker.open("/auth/sign_in");
    expect(attacker.jar.cookies.get("warren_csrf")).toBeTruthy();
    await expectRefusedEverywhere(attacker, csrf);
  });

  test("a token from the attacker's own session is refused too", async () => {
    const attacker = new WebBrowser(t, "203.0.113.10");
    await attacker.signIn("mallory", (await createUser(t, "mallory")).password);
    const { csrf } = await attacker.open("/settings/profile");
    const consent = await attacker.open(`/oauth/authorize?${new URLSearchParams({ ...AUTHORIZE, client_id: client.client_id })}`);
    expect(hiddenFields(consent.html).authenticity_token).toBe(csrf);
    await expectRefusedEverywhere(attacker, csrf);
  });

  test("the victim's own page token works; a nonce token stops working once its browser signs in", async () => {
    const saved = await victim.submit("/settings/profile", "/settings/profile", { display_name: "Victim" });
    expect(saved.res.status).toBe(200);
    const consent = await victim.open(`/oauth/authorize?${new URLSearchParams({ ...AUTHORIZE, client_id: client.client_id })}`);
    const approved = await victim.post("/oauth/authorize", consent.csrf, { ...AUTHORIZE, client_id: client.client_id, decision: "approve" });
    expect(approved.res.status).toBe(200);
    expect(approved.html).toContain("Authorization code");

    const browser = new WebBrowser(t, "192.0.2.77");
    const before = await browser.open("/auth/sign_in");
    await browser.post("/auth/sign_in", before.csrf, { username: "victim", password: victimPassword });
    expect(browser.session).toBeTruthy();
    expect((await browser.post("/settings/profile", before.csrf, { display_name: "Stale" })).res.status).toBe(403);
  });
});
