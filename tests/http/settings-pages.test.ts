// The /settings/* pages besides the profile (docs/web.md), driven like a browser: a cookie jar, the CSRF field
// of each page's form. Preferences through update_credentials' rules, e-mail change confirmed by its link,
// password change ending other sessions and tokens, authorised apps revoked, exports, imports, deletion.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { signedInUser } from "../helpers/clients.ts";
import { CookieJar } from "../helpers/oauth.ts";

const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "open" });
});
afterAll(() => t.close());

async function open(jar: CookieJar, path: string) {
  const res = await t.request(path, { headers: { cookie: jar.header() } });
  jar.take(res);
  const html = await res.text();
  const csrf = /name="authenticity_token" value="([^"]*)"/.exec(html)?.[1];
  return { res, html, csrf: csrf ? unescape(csrf) : "" };
}

/** Opens `page` for its CSRF token, then posts `fields` to `action`. */
async function submit(jar: CookieJar, page: string, action: string, fields: Record<string, string>) {
  const { csrf } = await open(jar, page);
  const res = await t.request(action, { method: "POST", form: { authenticity_token: csrf, ...fields }, headers: { cookie: jar.header() } });
  jar.take(res);
  return { res, html: res.status === 303 ? "" : await res.text() };
}

/** A user with an API token, signed in with a browser (the jar). */
async function signedIn(name: string) {
  const user = await signedInUser(t, name);
  const jar = new CookieJar();
  const res = await submit(jar, "/auth/sign_in", "/auth/sign_in", { username: name, password: user.password });
  expect(res.res.status).toBe(303);
  return { user, jar };
}

const me = async (token: string) => (await t.request("/api/v1/accounts/verify_credentials", { token })).json() as Promise<Record<string, any>>;

function outbox(): { name: string; text: string }[] {
  const dir = join(t.dir, "outbox");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".eml"))
    .map((name) => ({ name, text: readFileSync(join(dir, name), "utf8").replace(/=\r?\n/g, "").replace(/=3D/g, "=") }));
}

describe("every settings page", () => {
  const pages = ["/settings/preferences", "/settings/email", "/settings/password", "/settings/applications"];

  test("sends a browser without a session to sign in, and refuses a POST without the CSRF pair", async () => {
    const { jar } = await signedIn("gated");
    for (const page of pages) {
      const anonymous = await t.request(page);
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.get("location")).toBe("/auth/sign_in");
      const opened = await open(jar, page);
      expect(opened.res.status).toBe(200);
      expect(opened.res.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(opened.html).toContain(`<a href="${page}" aria-current="page">`);
    }
    for (const action of ["/settings/preferences", "/settings/email", "/settings/password", "/settings/applications/revoke"]) {
      const forged = await t.request(action, { method: "POST", form: { authenticity_token: "forged" }, headers: { cookie: jar.header() } });
      expect(forged.status).toBe(403);
      expect(await forged.text()).toContain("Invalid form");
    }
  });
});

describe("preferences", () => {
  test("saves the posting defaults through update_credentials' rules", async () => {
    const { user, jar } = await signedIn("prefs");
    const page = await open(jar, "/settings/preferences");
    expect(page.html).toContain('<label for="privacy">');
    expect(page.html).toContain('<option value="public" selected>');

    const saved = await submit(jar, "/settings/preferences", "/settings/preferences", { privacy: "private", sensitive: "1", language: "de" });
    expect(saved.res.status).toBe(200);
    expect(saved.html).toContain("Your preferences have been saved.");
    expect(saved.html).toContain('<option value="private" selected>');
    expect((await me(user.token)).source).toMatchObject({ privacy: "private", sensitive: true, language: "de" });

    const bad = await submit(jar, "/settings/preferences", "/settings/preferences", { privacy: "everyone", language: "<x>" });
    expect(bad.res.status).toBe(422);
    expect(bad.html).toContain("Visibility is not included in the list");
    expect(bad.html).toContain("&lt;x&gt;");
    expect((await me(user.token)).source).toMatchObject({ privacy: "private", sensitive: true, language: "de" });

    const cleared = await submit(jar, "/settings/preferences", "/settings/preferences", { privacy: "unlisted", language: "" });
    expect(cleared.res.status).toBe(200);
    expect((await me(user.token)).source).toMatchObject({ privacy: "unlisted", sensitive: false, language: null });
  });
});

describe("e-mail address", () => {
  test("a new address needs the password, and replaces the old one only once its link is opened", async () => {
    const { user, jar } = await signedIn("mover");
    await signedInUser(t, "squatter");
    const wrong = await submit(jar, "/settings/email", "/settings/email", { email: "new@example.net", current_password: "nope" });
    expect(wrong.res.status).toBe(422);
    expect(wrong.html).toContain("Current password is invalid");
    const taken = await submit(jar, "/settings/email", "/settings/email", { email: "squatter@example.com", current_password: user.password });
    expect(taken.res.status).toBe(422);
    expect(taken.html).toContain("New e-mail address has already been taken");
    const invalid = await submit(jar, "/settings/email", "/settings/email", { email: "not an address", current_password: user.password });
    expect(invalid.res.status).toBe(422);

    const asked = await submit(jar, "/settings/email", "/settings/email", { email: "Mover@Example.NET", current_password: user.password });
    expect(asked.res.status).toBe(200);
    expect(asked.html).toContain("Waiting for confirmation: <strong>mover@example.net</strong>");
    expect(asked.html).toContain("Current address: <strong>mover@example.com</strong>");
    await t.deps.jobs.drain();
    const mail = outbox().find((m) => m.name.startsWith("email-change-") && m.text.includes("To: mover@example.net"));
    expect(mail).toBeDefined();
    // Until then the old address still signs in and the new one does not.
    expect((await submit(new CookieJar(), "/auth/sign_in", "/auth/sign_in", { username: "mover@example.net", password: user.password })).res.status).toBe(401);
    expect((await submit(new CookieJar(), "/auth/sign_in", "/auth/sign_in", { username: "mover@example.com", password: user.password })).res.status).toBe(303);

    const link = /http:\/\/localhost:3000(\/auth\/confirmation\?confirmation_token=[\w-]+)/.exec(mail!.text)![1]!;
    expect((await t.request(link)).status).toBe(200);
    expect((await t.request(link)).status).toBe(410);
    expect((await submit(new CookieJar(), "/auth/sign_in", "/auth/sign_in", { username: "mover@example.net", password: user.password })).res.status).toBe(303);
    expect((await submit(new CookieJar(), "/auth/sign_in", "/auth/sign_in", { username: "mover@example.com", password: user.password })).res.status).toBe(401);
    const after = await open(jar, "/settings/email");
    expect(after.html).toContain("Current address: <strong>mover@example.net</strong>");
    expect(after.html).not.toContain("Waiting for confirmation");
  });

  test("a link for an address replaced by a later request no longer works", async () => {
    const { user, jar } = await signedIn("hesitant");
    await submit(jar, "/settings/email", "/settings/email", { email: "first@example.net", current_password: user.password });
    await t.deps.jobs.drain();
    await submit(jar, "/settings/email", "/settings/email", { email: "second@example.net", current_password: user.password });
    await t.deps.jobs.drain();
    const linkTo = (address: string) => {
      const mail = outbox().find((m) => m.name.startsWith("email-change-") && m.text.includes(`To: ${address}`))!;
      return /http:\/\/localhost:3000(\/auth\/confirmation\?confirmation_token=[\w-]+)/.exec(mail.text)![1]!;
    };
    expect((await t.request(linkTo("first@example.net"))).status).toBe(410);
    expect((await t.request(linkTo("second@example.net"))).status).toBe(200);
  });
});

describe("password", () => {
  test("needs the current password and the API's lengths; ends other sessions and tokens, keeps this one", async () => {
    const { user, jar } = await signedIn("rotator");
    const other = new CookieJar();
    await submit(other, "/auth/sign_in", "/auth/sign_in", { username: "rotator", password: user.password });
    expect((await open(other, "/settings/password")).res.status).toBe(200);

    const wrong = await submit(jar, "/settings/password", "/settings/password", { current_password: "nope", password: "new password 1", password_confirmation: "new password 1" });
    expect(wrong.res.status).toBe(422);
    expect(wrong.html).toContain("Current password is invalid");
    const short = await submit(jar, "/settings/password", "/settings/password", { current_password: user.password, password: "short", password_confirmation: "short" });
    expect(short.res.status).toBe(422);
    expect(short.html).toContain("is too short (minimum is 8 characters)");
    const mismatch = await submit(jar, "/settings/password", "/settings/password", { current_password: user.password, password: "new password 1", password_confirmation: "new password 2" });
    expect(mismatch.res.status).toBe(422);
    expect((await t.request("/api/v1/accounts/verify_credentials", { token: user.token })).status).toBe(200);

    const changed = await submit(jar, "/settings/password", "/settings/password", { current_password: user.password, password: "new password 1", password_confirmation: "new password 1" });
    expect(changed.res.status).toBe(200);
    expect(changed.html).toContain("Your password has been changed.");
    expect((await open(jar, "/settings/password")).res.status).toBe(200);
    expect((await open(other, "/settings/password")).res.status).toBe(303);
    expect((await t.request("/api/v1/accounts/verify_credentials", { token: user.token })).status).toBe(401);
    expect((await submit(new CookieJar(), "/auth/sign_in", "/auth/sign_in", { username: "rotator", password: user.password })).res.status).toBe(401);
    expect((await submit(new CookieJar(), "/auth/sign_in", "/auth/sign_in", { username: "rotator", password: "new password 1" })).res.status).toBe(303);
  });
});

describe("applications", () => {
  test("lists the apps with live tokens for the user; revoking one ends only its tokens for this user", async () => {
    const { user, jar } = await signedIn("appuser");
    const neighbour = await signedInUser(t, "appneighbour");
    const page = await open(jar, "/settings/applications");
    const appId = /name="app_id" value="([^"]+)"/.exec(page.html)?.[1];
    expect(appId).toBe(user.app.id);
    expect(page.html).toContain("<h2>");

    const forged = await t.request("/settings/applications/revoke", { method: "POST", form: { authenticity_token: "x", app_id: appId! }, headers: { cookie: jar.header() } });
    expect(forged.status).toBe(403);
    expect((await t.request("/api/v1/accounts/verify_credentials", { token: user.token })).status).toBe(200);

    const unknown = await submit(jar, "/settings/applications", "/settings/applications/revoke", { app_id: neighbour.app.id });
    expect(unknown.html).toContain("had no access to revoke");
    expect((await t.request("/api/v1/accounts/verify_credentials", { token: neighbour.token })).status).toBe(200);

    const revoked = await submit(jar, "/settings/applications", "/settings/applications/revoke", { app_id: appId! });
    expect(revoked.res.status).toBe(200);
    expect(revoked.html).toContain("access has been revoked");
    expect(revoked.html).toContain("No application is authorised");
    expect((await t.request("/api/v1/accounts/verify_credentials", { token: user.token })).status).toBe(401);
    expect((await t.request("/api/v1/accounts/verify_credentials", { token: neighbour.token })).status).toBe(200);
  });
});

describe("export", () => {
  test("downloads follows, blocks and mutes in Mastodon's CSV formats, as attachments", async () => {
    const { user, jar } = await signedIn("exporter");
    const [a, b, c] = [await signedInUser(t, "exp_a"), await signedInUser(t, "exp_b"), await signedInUser(t, "exp_c")];
    const api = (path: string, form: Record<string, string> = {}) => t.request(path, { method: "POST", token: user.token, form });
    expect((await api(`/api/v1/accounts/${a.id}/follow`)).status).toBe(200);
    expect((await t.request(`/api/v1/accounts/${b.id}/follow`, { method: "POST", token: user.token, json: { reblogs: false, notify: true, languages: ["de", "en"] } })).status).toBe(200);
    expect((await api(`/api/v1/accounts/${c.id}/block`)).status).toBe(200);
    expect((await t.request(`/api/v1/accounts/${a.id}/mute`, { method: "POST", token: user.token, json: { notifications: false } })).status).toBe(200);

    const page = await open(jar, "/settings/export");
    expect(page.res.status).toBe(200);
    expect(page.html).toContain('href="/settings/export/following_accounts.csv"');
    const download = async (file: string) => {
      const res = await t.request(`/settings/export/${file}`, { headers: { cookie: jar.header() } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${file}"`);
      return res.text();
    };
    expect(await download("following_accounts.csv")).toBe(
      'Account address,Show boosts,Notify on new posts,Languages\nexp_a@localhost:3000,true,false,\nexp_b@localhost:3000,false,true,"de, en"\n'.replaceAll("localhost:3000", t.deps.config.domain),
    );
    expect(await download("blocked_accounts.csv")).toBe(`exp_c@${t.deps.config.domain}\n`);
    expect(await download("muted_accounts.csv")).toBe(`Account address,Hide notifications\nexp_a@${t.deps.config.domain},false\n`);

    expect((await t.request("/settings/export/following_accounts.csv")).status).toBe(303);
    expect((await t.request("/settings/export/passwords.csv", { headers: { cookie: jar.header() } })).status).toBe(404);
  });
});

describe("account deletion", () => {
  test("needs the password and the username; ends the session, removes the data in a job, keeps the name taken", async () => {
    const { user, jar } = await signedIn("leaver");
    const friend = await signedInUser(t, "leaver_friend");
    expect((await t.request(`/api/v1/accounts/${friend.id}/follow`, { method: "POST", token: user.token })).status).toBe(200);
    expect((await t.request("/api/v1/statuses", { method: "POST", token: user.token, json: { status: "goodbye" } })).status).toBe(200);
    const followers = async () => ((await (await t.request(`/api/v1/accounts/${friend.id}`, { token: friend.token })).json()) as { followers_count: number }).followers_count;
    expect(await followers()).toBe(1);

    const wrongName = await submit(jar, "/settings/delete", "/settings/delete", { confirm_username: "someone", current_password: user.password });
    expect(wrongName.res.status).toBe(422);
    expect(wrongName.html).toContain("doesn&#39;t match your username");
    const wrongPassword = await submit(jar, "/settings/delete", "/settings/delete", { confirm_username: "leaver", current_password: "nope" });
    expect(wrongPassword.res.status).toBe(422);
    expect((await t.request("/api/v1/accounts/verify_credentials", { token: user.token })).status).toBe(200);

    const deleted = await submit(jar, "/settings/delete", "/settings/delete", { confirm_username: "@Leaver", current_password: user.password });
    expect(deleted.res.status).toBe(200);
    expect(deleted.html).toContain("Your account has been deleted.");
    expect(deleted.res.headers.getSetCookie().some((c) => c.startsWith("warren_session=;"))).toBe(true);
    expect((await t.request("/settings/delete", { headers: { cookie: jar.header() } })).status).toBe(303);
    expect((await t.request("/api/v1/accounts/verify_credentials", { token: user.token })).status).toBe(401);
    expect((await submit(new CookieJar(), "/auth/sign_in", "/auth/sign_in", { username: "leaver", password: user.password })).res.status).not.toBe(303);

    await t.deps.jobs.drain();
    expect(await followers()).toBe(0);
    const account = t.deps.store.db.accounts.get(user.id.padStart(18, "0"));
    expect(account).toMatchObject({ suspended: true, statusesCount: 0 });
    expect(account.dataDeletedAt).toBeNumber();

    const again = await submit(new CookieJar(), "/auth/sign_up", "/auth/sign_up", { username: "leaver", email: "other-leaver@example.com", password: "correct horse", password_confirmation: "correct horse", agreement: "1" });
    expect(again.res.status).toBe(422);
    expect(again.html).toContain("Username has already been taken");
  });
});

describe("import", () => {
  const upload = async (jar: CookieJar, fields: Record<string, string>, file?: Blob | string) => {
    const { csrf } = await open(jar, "/settings/import");
    const body = new FormData();
    body.set("authenticity_token", csrf);
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    if (file !== undefined) body.set("data", typeof file === "string" ? new Blob([file], { type: "text/csv" }) : file, "accounts.csv");
    const res = await t.request("/settings/import", { method: "POST", body, headers: { cookie: jar.header() } });
    return { res, html: await res.text() };
  };
  const relationship = async (token: string, id: string) =>
    ((await (await t.request(`/api/v1/accounts/relationships?id[]=${id}`, { token })).json()) as Record<string, any>[])[0]!;

  test("a following file is applied by a job, with progress and failures on the page", async () => {
    const { createDomainBlock } = await import("../../src/domain/admin/domain-blocks.ts");
    await createDomainBlock(t.deps, { domain: "cut-off.example", severity: "suspend" } as never);
    const { user, jar } = await signedIn("importer");
    const [a, b] = [await signedInUser(t, "imp_a"), await signedInUser(t, "imp_b")];
    const domain = t.deps.config.domain;
    const csv = [
      "Account address,Show boosts,Notify on new posts,Languages",
      `imp_a@${domain},true,false,`,
      `@imp_b@${domain},false,true,"de, en"`,
      `ghost@${domain},true,false,`,
      "someone@cut-off.example,true,false,",
      "not an address,true",
      `imp_a@${domain},true,false,`,
    ].join("\r\n");
    const started = await upload(jar, { type: "following", mode: "merge" }, csv);
    expect(started.res.status).toBe(200);
    expect(started.html).toContain("The file lists 5 accounts; the import has started.");
    expect(started.html).toContain("in progress, 1 of 5 processed, 1 failed");
    await t.deps.jobs.drain();
    expect((await open(jar, "/settings/import")).html).toContain("following (merge): done, 5 of 5 processed, 3 failed");
    expect(await relationship(user.token, a.id)).toMatchObject({ following: true, showing_reblogs: true, notifying: false });
    expect(await relationship(user.token, b.id)).toMatchObject({ following: true, showing_reblogs: false, notifying: true, languages: ["de", "en"] });
  });

  test("overwrite undoes what the file does not list; mutes keep their notifications flag", async () => {
    const { user, jar } = await signedIn("overwriter");
    const [a, c] = [await signedInUser(t, "ovr_a"), await signedInUser(t, "ovr_c")];
    const domain = t.deps.config.domain;
    expect((await t.request(`/api/v1/accounts/${c.id}/block`, { method: "POST", token: user.token })).status).toBe(200);
    expect((await upload(jar, { type: "blocking", mode: "overwrite" }, `ovr_a@${domain}\n`)).res.status).toBe(200);
    await t.deps.jobs.drain();
    expect(await relationship(user.token, a.id)).toMatchObject({ blocking: true });
    expect(await relationship(user.token, c.id)).toMatchObject({ blocking: false });

    expect((await t.request(`/api/v1/accounts/${c.id}/mute`, { method: "POST", token: user.token })).status).toBe(200);
    expect((await upload(jar, { type: "muting", mode: "merge" }, `Account address,Hide notifications\novr_a@${domain},false\n`)).res.status).toBe(200);
    await t.deps.jobs.drain();
    expect(await relationship(user.token, a.id)).toMatchObject({ muting: true, muting_notifications: false });
    expect(await relationship(user.token, c.id)).toMatchObject({ muting: true });
  });

  test("two overlapping runs of one import (a retry after a time-out) count each row once; a replay changes nothing", async () => {
    const { runImport } = await import("../../src/domain/accounts/import.ts");
    const { user, jar } = await signedIn("twice");
    const target = await signedInUser(t, "twice_target");
    const domain = t.deps.config.domain;
    const lines = Array.from({ length: 60 }, (_, i) => `ghost${i}@${domain}`);
    lines.splice(30, 0, `twice_target@${domain}`);
    expect((await upload(jar, { type: "blocking", mode: "merge" }, lines.join("\n"))).res.status).toBe(200);
    const { importsOf } = await import("../../src/store/imports.ts");
    const record = importsOf(t.deps.store, user.id.padStart(18, "0"), 1)[0]!;
    expect(record).toMatchObject({ total: 61, processed: 0, finishedAt: null });
    const ctx = { store: t.deps.store, config: t.deps.config, jobs: t.deps.jobs, remote: t.deps.remote, emit: () => {}, job: { attempt: 1 } };
    const event = { type: "account.import_requested", payload: { accountId: record.accountId, importId: record.id }, at: Date.now(), origin: "local" } as never;
    await Promise.all([runImport(ctx as never, event), runImport(ctx as never, event)]);
    await runImport(ctx as never, event);
    expect((await open(jar, "/settings/import")).html).toContain("blocking (merge): done, 61 of 61 processed, 60 failed");
    expect(t.deps.store.db.blocks.get([record.accountId, target.id.padStart(18, "0")])).toBeDefined();
    await t.deps.jobs.drain();
    expect((await open(jar, "/settings/import")).html).toContain("done, 61 of 61 processed, 60 failed");
  });

  test("refuses hostile or wrong uploads without starting anything", async () => {
    const { jar } = await signedIn("hostile");
    const domain = t.deps.config.domain;
    const refused = async (fields: Record<string, string>, file: Blob | string | undefined, message: string) => {
      const { res, html } = await upload(jar, fields, file);
      expect(res.status).toBe(422);
      expect(html).toContain(message);
    };
    await refused({ type: "following", mode: "merge" }, undefined, "Choose a file to upload");
    await refused({ type: "following", mode: "merge" }, "", "Choose a file to upload");
    await refused({ type: "friends", mode: "merge" }, "a@b.c\n", "Choose what the file lists");
    await refused({ type: "following", mode: "replace" }, "a@b.c\n", "Choose whether to merge or overwrite");
    await refused({ type: "blocking", mode: "merge" }, `Account address,Show boosts,Notify on new posts,Languages\nx@${domain},true,false,\n`, "The file is not a list of blocked accounts");
    const utf16 = new Uint8Array([0xff, 0xfe, ...[...`x@${domain}\n`].flatMap((ch) => [ch.charCodeAt(0), 0])]);
    await refused({ type: "blocking", mode: "merge" }, new Blob([utf16]), "The file is not UTF-8 text");
    await refused({ type: "blocking", mode: "merge" }, new Blob([new Uint8Array([0x61, 0x40, 0xc3, 0x28, 0x0a])]), "The file is not UTF-8 text");
    await refused({ type: "blocking", mode: "merge" }, "\x89PNG\r\n\x1a\n garbage, not, csv\n", "The file lists no account addresses");
    await refused({ type: "blocking", mode: "merge" }, `u@${domain}\n`.repeat(20_001), "The file has too many lines");
    await refused({ type: "blocking", mode: "merge" }, `${"x".repeat(80)}\n`.repeat(26_200), "The file is too large");
    const huge = await upload(jar, { type: "blocking", mode: "merge" }, "x".repeat(3 * 1024 * 1024));
    expect(huge.res.status).toBe(413);
    expect((await open(jar, "/settings/import")).html).not.toContain("Recent imports");
    const forged = new FormData();
    forged.set("authenticity_token", "forged");
    forged.set("type", "blocking");
    forged.set("mode", "merge");
    forged.set("data", new Blob([`x@${domain}\n`]), "a.csv");
    expect((await t.request("/settings/import", { method: "POST", body: forged, headers: { cookie: jar.header() } })).status).toBe(403);
  });
});
