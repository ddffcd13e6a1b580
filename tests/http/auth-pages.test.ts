// The people-facing pages under /auth driven like a browser (cookie jar, CSRF field from the form): sign-up
// through the same rules as the API, confirmation links from the mails (written to the outbox: no SMTP here),
// resends that tell nothing, sign-in sharing its session with /oauth/authorize, sign-out, password reset, the
// API's confirmation resend, admin.sign_up notifications in approval mode, closed sign-ups and rate limits.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp, createUser, passwordToken, signedInUser } from "../helpers/clients.ts";
import { CookieJar, openAuthorizePage } from "../helpers/oauth.ts";
import { addRule } from "../../src/domain/instance/rules.ts";
import { setRegistrationMode } from "../../src/domain/instance/registrations.ts";
import { changeUser } from "../../src/domain/accounts/manage.ts";
import { checkMailToken, TOKEN_LIFETIME_MS } from "../../src/domain/auth/mail-tokens.ts";

const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));

/** Opens a page with the jar's cookies; keeps what it sets. */
async function open(t: TestApp, jar: CookieJar, path: string) {
  const res = await t.request(path, { headers: { cookie: jar.header() } });
  jar.take(res);
  const html = await res.text();
  const csrf = /name="authenticity_token" value="([^"]*)"/.exec(html)?.[1];
  return { res, html, csrf: csrf ? unescape(csrf) : undefined };
}

/** Opens `page`, then submits its form to `action` with `fields`. */
async function submit(t: TestApp, jar: CookieJar, page: string, action: string, fields: Record<string, string>) {
  const { csrf } = await open(t, jar, page);
  const res = await t.request(action, { method: "POST", form: { authenticity_token: csrf ?? "", ...fields }, headers: { cookie: jar.header() } });
  jar.take(res);
  return { res, html: res.status === 303 ? "" : await res.text() };
}

/** The mails in the outbox, newest last. */
function outbox(t: TestApp): { name: string; text: string }[] {
  const dir = join(t.dir, "outbox");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".eml"))
    .map((name) => ({ name, text: readFileSync(join(dir, name), "utf8").replace(/=\r?\n/g, "").replace(/=3D/g, "=") }));
}

function linkIn(mail: { text: string }, path: string): string {
  const match = new RegExp(`http://localhost:3000(${path.replace("?", "\\?")}[A-Za-z0-9_=-]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in ${mail.text}`);
  return match[1]!;
}

const mailsTo = (t: TestApp, address: string, kind: string) => outbox(t).filter((m) => m.name.startsWith(kind) && m.text.includes(`To: ${address}`));

const signUpForm = (name: string, extra: Record<string, string> = {}) => ({
  username: name,
  email: `${name}@example.com`,
  password: "correct horse",
  password_confirmation: "correct horse",
  agreement: "1",
  ...extra,
});

const lookup = (t: TestApp, name: string) => t.request(`/api/v1/accounts/lookup?acct=${name}`);

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ WARREN_REQUIRE_EMAIL_CONFIRMATION: "true", WARREN_REGISTRATIONS: "open" });
  await addRule(t.deps, "Be kind <always>", "No harassment");
});
afterAll(() => t.close());

describe("sign-up page", () => {
  test("shows an accessible form with the rules, a CSRF field and cookie, and strict headers", async () => {
    const jar = new CookieJar();
    const { res, html, csrf } = await open(t, jar, "/auth/sign_up");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.getSetCookie()[0]).toMatch(/^warren_csrf=[\w-]{32}; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(csrf).toBeDefined();
    expect(html).toContain('<html lang="en">');
    for (const name of ["username", "email", "password", "password_confirmation"]) expect(html).toContain(`<label for="${name}">`);
    expect(html).toContain("Be kind &lt;always&gt;");
    expect(html).toContain('name="agreement"');
    expect(html).not.toContain('name="reason"');
    expect(html).toContain("We will e-mail you a link to confirm it.");
  });

  test("refuses a form without the CSRF pair", async () => {
    const res = await t.request("/auth/sign_up", { method: "POST", form: signUpForm("nocsrf") });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Invalid form");
    expect((await lookup(t, "nocsrf")).status).toBe(404);
  });

  test("shows the API's validation problems on the form again (422)", async () => {
    const jar = new CookieJar();
    const mismatch = await submit(t, jar, "/auth/sign_up", "/auth/sign_up", signUpForm("mismatch", { password_confirmation: "other horse" }));
    expect(mismatch.res.status).toBe(422);
    expect(mismatch.html).toContain("Confirm password doesn&#39;t match Password");
    const reserved = await submit(t, jar, "/auth/sign_up", "/auth/sign_up", signUpForm("admin", { agreement: "", password: "short", password_confirmation: "short" }));
    expect(reserved.res.status).toBe(422);
    expect(reserved.html).toContain("Username is reserved");
    expect(reserved.html).toContain("Password is too short (minimum is 8 characters)");
    expect(reserved.html).toContain("You must accept the server rules.");
    expect(reserved.html).toContain('value="admin"');
    expect(reserved.html).not.toContain('value="short"');
  });

  test("a sign-up stays unconfirmed until the mailed link is opened; the link works once", async () => {
    const jar = new CookieJar();
    const { res, html } = await submit(t, jar, "/auth/sign_up", "/auth/sign_up", signUpForm("webbie"));
    expect(res.status).toBe(200);
    expect(html).toContain("We sent you an e-mail");
    expect(jar.cookies.has("warren_session")).toBe(false);
    expect((await lookup(t, "webbie")).status).toBe(404);

    const refused = await submit(t, new CookieJar(), "/auth/sign_in", "/auth/sign_in", { username: "webbie", password: "correct horse" });
    expect(refused.res.status).toBe(403);
    expect(refused.html).toContain("Your login is missing a confirmed e-mail address.");

    await t.deps.jobs.drain();
    const [mail] = mailsTo(t, "webbie@example.com", "confirmation-");
    expect(mail).toBeDefined();
    const link = linkIn(mail!, "/auth/confirmation?confirmation_token=");
    const confirmed = await t.request(link);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain("your address is confirmed");
    expect((await lookup(t, "webbie")).status).toBe(200);

    const again = await t.request(link);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain("already been used");
  });

  test("unknown and malformed confirmation tokens are 404; an expired one is refused", async () => {
    expect((await t.request("/auth/confirmation?confirmation_token=nope")).status).toBe(404);
    expect((await t.request(`/auth/confirmation?confirmation_token=${"a".repeat(43)}`)).status).toBe(404);
    expect((await t.request("/auth/confirmation")).status).toBe(404);

    await submit(t, new CookieJar(), "/auth/sign_up", "/auth/sign_up", signUpForm("latecomer"));
    await t.deps.jobs.drain();
    const token = new URLSearchParams(linkIn(mailsTo(t, "latecomer@example.com", "confirmation-")[0]!, "/auth/confirmation?confirmation_token=").split("?")[1]).get("confirmation_token")!;
    const later = Date.now() + TOKEN_LIFETIME_MS.confirmation + 1000;
    expect(checkMailToken(t.deps.store, "confirmation", token, (u) => u.email, later)).toEqual({ ok: false, reason: "expired" });
    expect(checkMailToken(t.deps.store, "confirmation", token, (u) => u.email).ok).toBe(true);
  });

  test("resending answers the same for unknown and known addresses, and mails only the unconfirmed user", async () => {
    await submit(t, new CookieJar(), "/auth/sign_up", "/auth/sign_up", signUpForm("forgetful"));
    await t.deps.jobs.drain();
    const before = mailsTo(t, "forgetful@example.com", "confirmation-").length;
    const jar = new CookieJar();
    const known = await submit(t, jar, "/auth/confirmation/new", "/auth/confirmation/new", { email: "Forgetful@Example.com" });
    const unknown = await submit(t, jar, "/auth/confirmation/new", "/auth/confirmation/new", { email: "nobody@example.com" });
    const confirmedUser = await submit(t, jar, "/auth/confirmation/new", "/auth/confirmation/new", { email: "webbie@example.com" });
    expect([known.res.status, unknown.res.status, confirmedUser.res.status]).toEqual([200, 200, 200]);
    expect(unknown.html).toBe(known.html);
    expect(confirmedUser.html).toBe(known.html);
    await t.deps.jobs.drain();
    expect(mailsTo(t, "forgetful@example.com", "confirmation-").length).toBe(before + 1);
    expect(mailsTo(t, "webbie@example.com", "confirmation-").length).toBe(1);
  });
});

describe("sign-in, the shared session and sign-out", () => {
  test("wrong passwords are 401, disabled logins 403 with the OAuth page's message", async () => {
    await createUser(t, "gatekeeper", { password: "gatekeeper pw" });
    const wrong = await submit(t, new CookieJar(), "/auth/sign_in", "/auth/sign_in", { username: "gatekeeper", password: "nope nope" });
    expect(wrong.res.status).toBe(401);
    expect(wrong.html).toContain("Invalid username, e-mail address or password.");
    const { account } = await createUser(t, "sleeper", { password: "sleeper pw" }).then(async (u) => changeUser(t.deps, u.id.padStart(18, "0"), { disabled: true }));
    expect(account.username).toBe("sleeper");
    const disabled = await submit(t, new CookieJar(), "/auth/sign_in", "/auth/sign_in", { username: "sleeper", password: "sleeper pw" });
    expect(disabled.res.status).toBe(403);
    expect(disabled.html).toContain("Your login is currently disabled.");
  });

  test("signing in sets a site-wide session that /oauth/authorize reuses; signing out ends it", async () => {
    await createUser(t, "sessioner", { password: "sessioner pw" });
    const jar = new CookieJar();
    const signIn = await submit(t, jar, "/auth/sign_in", "/auth/sign_in", { username: "sessioner@example.com", password: "sessioner pw" });
    expect(signIn.res.status).toBe(303);
    const cookie = signIn.res.headers.getSetCookie().find((c) => c.startsWith("warren_session="))!;
    expect(cookie).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=31536000$/);
    expect(cookie).toMatch(/^warren_session=[A-Za-z0-9_-]{43};/);

    const home = await open(t, jar, "/auth/sign_in");
    expect(home.html).toContain("signed in as <strong>@sessioner</strong>");

    const client = await createClientApp(t);
    const consent = await openAuthorizePage(t, { response_type: "code", client_id: client.client_id, redirect_uri: "urn:ietf:wg:oauth:2.0:oob" }, jar);
    expect(consent.html).toContain("Signed in as <strong>@sessioner</strong>");
    expect(consent.html).not.toContain('name="password"');

    const out = await t.request("/auth/sign_out", { method: "POST", form: { authenticity_token: home.csrf! }, headers: { cookie: jar.header() } });
    expect(out.status).toBe(303);
    const cleared = out.headers.getSetCookie();
    expect(cleared).toContain("warren_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
    expect(cleared).toContain("warren_session=; Path=/oauth/authorize; HttpOnly; SameSite=Lax; Max-Age=0");
    jar.take(out);
    expect((await open(t, jar, "/auth/sign_in")).html).toContain('name="password"');
  });

  test("sign-out needs the CSRF pair", async () => {
    const res = await t.request("/auth/sign_out", { method: "POST", form: {} });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});

describe("profile settings", () => {
  test("need a session; change the profile through update_credentials' rules; need the CSRF pair", async () => {
    const user = await signedInUser(t, "settler");
    const anonymous = await t.request("/settings/profile");
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toBe("/auth/sign_in");

    const jar = new CookieJar();
    await submit(t, jar, "/auth/sign_in", "/auth/sign_in", { username: "settler", password: user.password });
    const page = await open(t, jar, "/settings/profile");
    expect(page.res.status).toBe(200);
    expect(page.html).toContain('<label for="display_name">Display name</label>');
    expect(page.html).toContain('<label for="note">Bio</label>');
    expect(page.html).toContain('name="discoverable" value="1" checked');

    const post = (fields: Record<string, string>, csrf = page.csrf!) =>
      t.request("/settings/profile", { method: "POST", form: { authenticity_token: csrf, ...fields }, headers: { cookie: jar.header() } });
    const saved = await post({ display_name: "Ada <b>", note: "Hello\nthere", locked: "1", bot: "1" });
    expect(saved.status).toBe(200);
    const html = await saved.text();
    expect(html).toContain("Your profile has been saved.");
    expect(html).toContain('value="Ada &lt;b&gt;"');
    const me = (await (await t.request("/api/v1/accounts/verify_credentials", { token: user.token })).json()) as Record<string, unknown>;
    expect(me).toMatchObject({ display_name: "Ada <b>", note: "<p>Hello<br />there</p>", locked: true, bot: true, discoverable: false });

    const tooLong = await post({ display_name: "x".repeat(31), note: "", locked: "1" });
    expect(tooLong.status).toBe(422);
    expect(await tooLong.text()).toContain("Display name is too long (maximum is 30 characters)");
    expect(((await (await t.request("/api/v1/accounts/verify_credentials", { token: user.token })).json()) as { display_name: string }).display_name).toBe("Ada <b>");

    expect((await post({ display_name: "Hacked" }, "forged")).status).toBe(403);
    const unticked = await post({ display_name: "Ada", note: "", discoverable: "1" });
    expect(unticked.status).toBe(200);
    const after = (await (await t.request("/api/v1/accounts/verify_credentials", { token: user.token })).json()) as Record<string, unknown>;
    expect(after).toMatchObject({ display_name: "Ada", locked: false, bot: false, discoverable: true });
  });
});

describe("password reset", () => {
  test("answers the same for any address; the link sets a new password once, ending sessions and access tokens", async () => {
    const user = await signedInUser(t, "resetter");
    const jar = new CookieJar();
    await submit(t, jar, "/auth/sign_in", "/auth/sign_in", { username: "resetter", password: user.password });
    expect(jar.cookies.get("warren_session")).toBeTruthy();
    const session = jar.cookies.get("warren_session")!;

    const known = await submit(t, new CookieJar(), "/auth/password/new", "/auth/password/new", { email: "resetter@example.com" });
    const unknown = await submit(t, new CookieJar(), "/auth/password/new", "/auth/password/new", { email: "ghost@example.com" });
    expect(known.res.status).toBe(200);
    expect(unknown.html).toBe(known.html);
    await t.deps.jobs.drain();
    expect(outbox(t).filter((m) => m.name.startsWith("password-reset-"))).toHaveLength(1);
    const link = linkIn(mailsTo(t, "resetter@example.com", "password-reset-")[0]!, "/auth/password/edit?reset_password_token=");
    const token = new URLSearchParams(link.split("?")[1]).get("reset_password_token")!;

    const form = await open(t, jar, link);
    expect(form.res.status).toBe(200);
    expect(form.html).toContain('<label for="password">New password</label>');
    const post = (fields: Record<string, string>) =>
      t.request("/auth/password/edit", { method: "POST", form: { authenticity_token: form.csrf!, reset_password_token: token, ...fields }, headers: { cookie: jar.header() } });

    const mismatch = await post({ password: "brand new pw", password_confirmation: "other" });
    expect(mismatch.status).toBe(422);
    expect(await mismatch.text()).toContain("doesn&#39;t match Password");
    expect((await post({ password: "short", password_confirmation: "short" })).status).toBe(422);

    const done = await post({ password: "brand new pw", password_confirmation: "brand new pw" });
    expect(done.status).toBe(200);
    expect(done.headers.getSetCookie()).toContain("warren_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");

    expect((await t.request("/api/v1/accounts/verify_credentials", { token: user.token })).status).toBe(401);
    const stale = await t.request("/auth/sign_in", { headers: { cookie: `warren_session=${session}` } });
    expect(await stale.text()).toContain('name="password"');
    expect((await submit(t, new CookieJar(), "/auth/sign_in", "/auth/sign_in", { username: "resetter", password: user.password })).res.status).toBe(401);
    expect(await passwordToken(t, user.app, "resetter", "brand new pw")).toHaveProperty("access_token");

    // The form's CSRF token was bound to the session the reset ended; a fresh browser finds the link used.
    expect((await post({ password: "another pw 2", password_confirmation: "another pw 2" })).status).toBe(403);
    const again = await open(t, new CookieJar(), link);
    expect(again.res.status).toBe(410);
    expect((await t.request(link)).status).toBe(410);
    expect((await t.request("/auth/password/edit?reset_password_token=unknown")).status).toBe(404);
  });
});

describe("POST /api/v1/emails/confirmations and API sign-ups", () => {
  test("an API sign-up is mailed a link; its app resends, to a new address when given; 403 once confirmed or for another app", async () => {
    const app = await createClientApp(t);
    const appBearer = (await appToken(t, app, "read write")).access_token;
    const res = await t.request("/api/v1/accounts", {
      method: "POST",
      token: appBearer,
      form: { username: "apiuser", email: "apiuser@example.com", password: "correct horse", agreement: "true" },
    });
    expect(res.status).toBe(200);
    const userToken = ((await res.json()) as { access_token: string }).access_token;
    await t.deps.jobs.drain();
    const first = linkIn(mailsTo(t, "apiuser@example.com", "confirmation-")[0]!, "/auth/confirmation?confirmation_token=");

    const resend = await t.request("/api/v1/emails/confirmations", { method: "POST", token: userToken, json: {} });
    expect(resend.status).toBe(200);
    expect(await resend.json()).toEqual({});
    await t.deps.jobs.drain();
    expect(mailsTo(t, "apiuser@example.com", "confirmation-")).toHaveLength(2);
    const taken = await t.request("/api/v1/emails/confirmations", { method: "POST", token: userToken, json: { email: "webbie@example.com" } });
    expect(taken.status).toBe(422);
    const moved = await t.request("/api/v1/emails/confirmations", { method: "POST", token: userToken, json: { email: "moved@example.com" } });
    expect(moved.status).toBe(200);
    await t.deps.jobs.drain();
    const [movedMail] = mailsTo(t, "moved@example.com", "confirmation-");
    expect(movedMail).toBeDefined();

    expect((await t.request(first)).status).toBe(410);
    const confirmed = async () => (await (await t.request("/api/v1/emails/check_confirmation", { token: userToken })).json()) as boolean;
    expect(await confirmed()).toBe(false);
    expect((await t.request(linkIn(movedMail!, "/auth/confirmation?confirmation_token="))).status).toBe(200);
    expect(await confirmed()).toBe(true);
    const after = await t.request("/api/v1/emails/confirmations", { method: "POST", token: userToken, json: {} });
    expect(after.status).toBe(403);
    expect(await after.json()).toEqual({ error: "This method is only available while the e-mail is awaiting confirmation" });

    const other = await signedInUser(t, "otherapp");
    const foreign = await t.request("/api/v1/emails/confirmations", { method: "POST", token: other.token, json: {} });
    expect(foreign.status).toBe(403);
    expect((await t.request("/api/v1/emails/confirmations", { method: "POST", json: {} })).status).toBe(401);
  });
});

describe("approval and closed modes", () => {
  test("approval: the form asks for a reason; once confirmed, user managers get an admin.sign_up notification", async () => {
    const moderator = await signedInUser(t, "modder", undefined, { role: "Moderator" });
    const plain = await signedInUser(t, "plainuser");
    await setRegistrationMode(t.deps, "approval");
    try {
      const jar = new CookieJar();
      expect((await open(t, jar, "/auth/sign_up")).html).toContain('<label for="reason">');
      const { res, html } = await submit(t, jar, "/auth/sign_up", "/auth/sign_up", signUpForm("hopeful", { reason: "I like <rabbits>" }));
      expect(res.status).toBe(200);
      expect(html).toContain("reviewed by the staff");
      await t.deps.jobs.drain();
      const notifications = async (token: string) =>
        ((await (await t.request("/api/v1/notifications?types[]=admin.sign_up", { token })).json()) as { type: string; account: { username: string } }[]);
      expect(await notifications(moderator.token)).toEqual([]);

      const link = linkIn(mailsTo(t, "hopeful@example.com", "confirmation-")[0]!, "/auth/confirmation?confirmation_token=");
      const confirmed = await t.request(link);
      expect(await confirmed.text()).toContain("The staff will now review your sign-up.");
      await t.deps.jobs.drain();
      const seen = await notifications(moderator.token);
      expect(seen.map((n) => [n.type, n.account.username])).toEqual([["admin.sign_up", "hopeful"]]);
      expect(await notifications(plain.token)).toEqual([]);

      const pending = await submit(t, new CookieJar(), "/auth/sign_in", "/auth/sign_in", { username: "hopeful", password: "correct horse" });
      expect(pending.res.status).toBe(403);
      expect(pending.html).toContain("Your login is currently pending approval.");
    } finally {
      await setRegistrationMode(t.deps, "open");
    }
  });

  test("closed: the page shows a notice and the form is refused", async () => {
    await setRegistrationMode(t.deps, "closed");
    try {
      const jar = new CookieJar();
      const page = await open(t, jar, "/auth/sign_up");
      expect(page.res.status).toBe(200);
      expect(page.html).toContain("Sign-ups are closed on this server.");
      expect(page.html).not.toContain('name="username"');
      const res = await t.request("/auth/sign_up", { method: "POST", form: signUpForm("latecomer2"), headers: { cookie: jar.header() } });
      expect(res.status).toBe(403);
      expect((await lookup(t, "latecomer2")).status).toBe(404);
    } finally {
      await setRegistrationMode(t.deps, "open");
    }
  });
});

describe("without e-mail confirmation", () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await startTestApp({ WARREN_REGISTRATIONS: "open" });
  });
  afterAll(() => plain.close());

  test("a sign-up is ready at once and signed in; no mail is sent", async () => {
    const jar = new CookieJar();
    const { res, html } = await submit(plain, jar, "/auth/sign_up", "/auth/sign_up", signUpForm("instant"));
    expect(res.status).toBe(200);
    expect(html).toContain("you are signed in");
    expect(jar.cookies.get("warren_session")).toBeTruthy();
    expect((await open(plain, jar, "/auth/sign_in")).html).toContain("@instant");
    expect((await open(plain, jar, "/auth/sign_up")).html).not.toContain("We will e-mail you a link");
    await plain.deps.jobs.drain();
    expect(outbox(plain)).toEqual([]);
  });

  test("Mastodon.py's app sign-up then resend: a no-op 200 (nothing awaits confirmation); a new address is refused", async () => {
    const app = await createClientApp(plain);
    const appBearer = (await appToken(plain, app, "read write follow push")).access_token;
    const form = { username: "coolguy12345", password: "swordfish", email: "email@localhost12345", agreement: "1", locale: "en" };
    const signUp = await plain.request("/api/v1/accounts", { method: "POST", token: appBearer, form });
    expect(signUp.status).toBe(200);
    const userToken = ((await signUp.json()) as { access_token: string }).access_token;
    const resend = await plain.request("/api/v1/emails/confirmations", { method: "POST", token: userToken, form: {} });
    expect(resend.status).toBe(200);
    const moved = await plain.request("/api/v1/emails/confirmations", { method: "POST", token: userToken, json: { email: "x@example.com" } });
    expect(moved.status).toBe(403);
    await plain.deps.jobs.drain();
    expect(outbox(plain)).toEqual([]);
  });
});

describe("rate limits", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ WARREN_RATE_LIMITS: "on", WARREN_REGISTRATIONS: "open" });
  });
  afterAll(() => limited.close());

  test("five reset requests per address in 30 minutes, then a 429 page", async () => {
    const jar = new CookieJar();
    const { csrf } = await open(limited, jar, "/auth/password/new");
    const ask = (email: string) =>
      limited.request("/auth/password/new", { method: "POST", form: { authenticity_token: csrf!, email }, headers: { cookie: jar.header() } });
    for (let i = 0; i < 5; i++) expect((await ask("Target@example.com")).status).toBe(200);
    const refused = await ask("target@example.com");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await refused.text()).toContain("Too many requests");
    expect((await ask("someone.else@example.com")).status).toBe(200);
  });

  test("the sign-in form counts against the sign-in limits", async () => {
    const jar = new CookieJar();
    const { csrf } = await open(limited, jar, "/auth/sign_in");
    let last = 0;
    for (let i = 0; i < 26; i++) {
      const res = await limited.request("/auth/sign_in", { method: "POST", form: { authenticity_token: csrf!, username: "victim", password: "guess" }, headers: { cookie: jar.header() } });
      last = res.status;
    }
    expect(last).toBe(429);
  });
});
