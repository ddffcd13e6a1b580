// The settings forms that check the current password (/settings/email, /settings/password, /settings/delete,
// /settings/migration) count against the sign-in limits (docs/security.md#rate-limits): 25 per 5 minutes per
// address and 25 per hour per account, one count shared with /auth/sign_in, the authorization page and the
// password grant.
// The clock stands still at the start of an hour, so no window ends while the file runs.
import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { createClientApp, createUser, OOB, type ClientApp } from "../helpers/clients.ts";
import { WebBrowser } from "../helpers/web.ts";

let t: TestApp;
let client: ClientApp;
const PINNED = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1000;

beforeAll(async () => {
  setSystemTime(new Date(PINNED));
  t = await startTestApp({ WARREN_RATE_LIMITS: "on" });
  client = await createClientApp(t);
});
afterAll(() => {
  setSystemTime();
  return t.close();
});

const WRONG: Record<string, Record<string, string>> = {
  "/settings/email": { email: "new@example.com", current_password: "guess" },
  "/settings/password": { current_password: "guess", password: "new password", password_confirmation: "new password" },
  "/settings/delete": { confirm_username: "", current_password: "guess" },
  "/settings/migration": { "account_migration[acct]": "someone@example.com", "account_migration[current_password]": "guess" },
};
const FORMS = Object.keys(WRONG);

/** A browser signed in as a new user from `ip` (the sign-in counts once for the address and the account). */
async function signedIn(name: string, ip: string) {
  const user = await createUser(t, name);
  const browser = await new WebBrowser(t, ip).signIn(name, user.password);
  return { user, browser, csrf: (await browser.open("/settings/profile")).csrf };
}

/** The same browser session seen from another address (X-Forwarded-For). */
function from(browser: WebBrowser, ip: string): WebBrowser {
  const moved = new WebBrowser(t, ip);
  for (const [name, value] of browser.jar.cookies) moved.jar.cookies.set(name, value);
  return moved;
}

function expectTooMany(res: Response, limit: number) {
  expect(res.status).toBe(429);
  expect(res.headers.get("content-type")).toContain("text/html");
  expect(res.headers.get("x-ratelimit-limit")).toBe(String(limit));
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
}

describe("per account, shared with sign-in", () => {
  for (const form of FORMS) {
    test(`${form}: after the sign-in and 24 wrong passwords from any addresses, the next is 429, and so is signing in`, async () => {
      const name = `guessed${form.split("/")[2]}`;
      const { user, browser, csrf } = await signedIn(name, "198.51.100.1");
      const values = { ...WRONG[form]!, confirm_username: name };
      for (let i = 0; i < 24; i++) {
        const res = await from(browser, `198.51.100.${10 + i}`).post(form, csrf, values);
        expect(res.res.status).toBe(422);
      }
      const refused = await from(browser, "198.51.100.50").post(form, csrf, values);
      expectTooMany(refused.res, 25);
      expect(refused.res.headers.get("x-ratelimit-reset")!.endsWith(":00:00.000000Z")).toBe(true);
      // The account's count is the sign-in's: the right password no longer signs in, on any page.
      const signIn = await new WebBrowser(t, "198.51.100.51").submit("/auth/sign_in", "/auth/sign_in", { username: name, password: user.password });
      expectTooMany(signIn.res, 25);
      const grant = await t.request("/oauth/token", {
        method: "POST",
        form: { grant_type: "password", client_id: client.client_id, client_secret: client.client_secret, username: name, password: user.password },
        headers: { "x-forwarded-for": "198.51.100.52" },
      });
      expect(grant.status).toBe(429);
    });
  }

  test("wrong passwords on the authorization page use up the allowance the settings forms share", async () => {
    const { user, browser, csrf } = await signedIn("authguessed", "198.51.100.60");
    const query = { response_type: "code", client_id: client.client_id, redirect_uri: OOB, scope: "read" };
    for (let i = 0; i < 24; i++) {
      const page = from(browser, `198.51.100.${70 + i}`);
      const { csrf: token } = await page.open(`/oauth/authorize?${new URLSearchParams(query)}`);
      expect((await page.post("/oauth/authorize", token, { ...query, username: "authguessed", password: "guess", decision: "approve" })).res.status).toBe(401);
    }
    const settings = await from(browser, "198.51.100.99").post("/settings/password", csrf, { ...WRONG["/settings/password"]!, current_password: user.password });
    expectTooMany(settings.res, 25);
  });
});

describe("per address, shared with sign-in", () => {
  test("25 checks from one address, whichever forms and accounts: the 26th is 429 on every form and at sign-in", async () => {
    const ip = "203.0.113.5";
    const users = await Promise.all(FORMS.map((form, i) => signedIn(`addressed${i}`, `203.0.113.${20 + i}`)));
    let sent = 0;
    for (let i = 0; i < 22; i++, sent++) {
      const { browser, csrf } = users[i % 3]!;
      expect((await from(browser, ip).post(FORMS[i % 3]!, csrf, { ...WRONG[FORMS[i % 3]!]!, confirm_username: `addressed${i % 3}` })).res.status).toBe(422);
    }
    for (; sent < 25; sent++) {
      expect((await new WebBrowser(t, ip).submit("/auth/sign_in", "/auth/sign_in", { username: `nobody${sent}`, password: "guess" })).res.status).toBe(401);
    }
    for (const [i, form] of FORMS.entries()) {
      expectTooMany((await from(users[i]!.browser, ip).post(form, users[i]!.csrf, WRONG[form]!)).res, 25);
    }
    expectTooMany((await new WebBrowser(t, ip).submit("/auth/sign_in", "/auth/sign_in", { username: "addressed0", password: users[0]!.user.password })).res, 25);
    // From elsewhere the accounts still have allowance left.
    expect((await from(users[0]!.browser, "203.0.113.6").post("/settings/email", users[0]!.csrf, WRONG["/settings/email"]!)).res.status).toBe(422);
  });

  test("forms that check no password are not counted", async () => {
    const { browser, csrf } = await signedIn("notcounted", "203.0.113.40");
    const moved = from(browser, "203.0.113.41");
    for (let i = 0; i < 30; i++) expect((await moved.post("/settings/profile", csrf, { display_name: `n${i}` })).res.status).toBe(200);
  });
});
